"""Terminal rendering and input for `rulesdsl play`, built on observations (so a player never
sees what their seat may not)."""

from __future__ import annotations

import textwrap

import click

from .interpreter.economy import IMPOSSIBLE   # the price of what cannot be had
from .safe_text import printable


WIDTH = 100  # the screen is readable in a terminal this wide, at any number of seats


def render_game(game, player: int, labels: list[str] | None = None) -> str:
    """The game as `player` sees it (an observation: other seats' private zones show only how
    many items they hold, face-down items only their back): the structure, every seat's coins
    and zones, the shared public zones.  `labels`: who plays each seat (`greedy`, `human`...)."""
    from rulesdsl.interpreter.observation import known_in_decks, observe, zones_with_known
    o = observe(game, player)
    content = game.content
    stage = f"Age {o['age']}" if o["age"] > 0 else "Setup"
    lines = [f"== {stage} == " + ("(game over)" if o["over"] else f"player {o['to_move']} to move")]
    if game.track_slot >= 0 and content.players == 2:  # a conflict track lies between two capitals
        cap = content.track.capital
        pawn = o["pawn"]
        track = "".join("o" if pos == pawn else ("|" if pos == 0 else "-") for pos in range(-cap, cap + 1))
        lines.append(f"conflict: p0 [{track}] p1   (pawn {pawn:+d})")
    lines += _structure(game, o)
    if o["round"] and o["round"]["chosen"]:
        lines.append("this round, chosen: " + ", ".join(f"player {p}" for p in o["round"]["chosen"])
                     + (f" (you: {o['round']['mine']})" if o["round"]["mine"] else ""))
    zones = {z.name: z for z in content.zones}
    # What a city produces is seen by all when every zone whose items work (`active`) is public.
    open_cities = all(z.public for z in content.zones if z.active and z.per_player)
    for p in range(content.players):
        who = "you" if p == player else (labels[p] if labels else "")
        groups = [[coins_held(game, p, player)]] + [[f"{counter_label(content, name)} {per_seat[p]}"]
                                                  for name, per_seat in sorted(game.state.counters.items())]
        if open_cities or p == player:
            groups += _city_stats(game, p)
        # Groups apart with `;`, the entries of one with `,`; a line breaks between entries.
        pieces = [entry + ("," if k < len(g) - 1 else ";") for g in groups for k, entry in enumerate(g)]
        pieces[-1] = pieces[-1][:-1]
        lines.append(_wrapped(f"player {p}{f' ({who})' if who else ''}: ", pieces, ""))
        for name, held in zones_with_known(o).items():
            if not zones[name].per_player:
                continue
            mine = held.get(str(p))
            if isinstance(mine, int):  # another seat's private zone: how many, not what
                if mine:
                    lines.append(f"   {name}: {mine} hidden")
            elif mine:
                lines.append(_wrapped(f"   {name}: ", on_spaces(game, zones[name], p, mine)))
    for name, held in zones_with_known(o).items():
        if not zones[name].per_player and held:
            lines.append(_wrapped(f"{name}: ", on_spaces(game, zones[name], 0, held)))
    lines += [f"you know: {text}" for text in known_in_decks(o)]   # (in decks no seat sees)
    lines += cube_lines(o)
    if o["over"]:
        scores = [game.total_score(p) for p in range(content.players)]
        lines.append(f"result: {outcome(game)}; scores {scores}")
    return printable("\n".join(lines))


def coins_held(game, p: int, viewer: int) -> str:
    """Seat p's coins as `viewer` sees them: `7 coins`, and the coins lying on its items in play,
    which it may spend as well (`2 coins (+5 on NAME)`), on items the viewer sees."""
    from .interpreter.core import owner_of
    st = game.state
    held = coins(st.coins[p])
    if not st.item_coins:   # (the common case: no content put coins on a card)
        return held
    zones = game.content.zones
    lying = [f"{n} on {game.name(i)}" for i, n in sorted(st.item_coins.items())
             if n > 0 and owner_of(game, i) == p and game.slot_active[st.loc[i]]
             and (p == viewer or zones[game.slot_zone[st.loc[i]]].public)]
    return held + (f" (+{', '.join(lying)})" if lying else "")


def counter_label(content, name: str) -> str:
    """How a counter is named beside its number: its `label=` (where the name would mislead: a
    counter of points named after what earns them), else its name."""
    return content.counter_labels.get(name, name)


def outcome(game) -> str:
    """Who won a finished game and how: `winner 0 (civilian)`, or every seat that shares the
    victory, `shared victory of players 1 and 2 (civilian)` (its state's winner says only that
    it is shared)."""
    st = game.state
    won = game.winners()
    if not won:
        return f"no winner ({st.victory})"
    if len(won) == 1:
        return f"winner {won[0]} ({st.victory})"
    seats = ", ".join(map(str, won[:-1])) + f" and {won[-1]}"
    return f"shared victory of players {seats} ({st.victory})"


def _city_stats(game, p: int) -> list[list[str]]:
    """[[`wood 2`, `clay|ore 1`], [`shields 1`], [`science gear 1`]]: what seat p's items
    produce, their modifiers and scientific symbols (each group only when it has something)."""
    stats = game.stats(p)
    resources = game.content.resources
    made = [f"{r} {n}" for r, n in zip(resources, stats.produce) if n]
    for one_of in sorted(set(stats.one_of)):
        made.append("|".join(resources[r] for r in one_of) + f" {stats.one_of.count(one_of)}")
    symbols = [f"{k} {v}" for k, v in sorted(stats.science.items()) if v]
    groups = [made, [f"{k} {v}" for k, v in sorted(stats.modifiers.items()) if v],
              ["science " + symbols[0], *symbols[1:]] if symbols else []]
    return [g for g in groups if g]


def _wrapped(head: str, names: list[str], separator: str = ",") -> str:
    """`head` and the names, separated by commas (or `separator`), wrapped at WIDTH between
    names (never inside one) and indented under the first."""
    lines, line = [], head
    for i, name in enumerate(names):
        piece = name + (separator if i < len(names) - 1 else "")
        if line.strip() and line != head and len(line) + 1 + len(piece) > WIDTH:
            lines.append(line)
            line = " " * len(head) + piece
        else:
            line += ("" if line == head else " ") + piece
    lines.append(line)
    return "\n".join(lines)


def _structure(game, o: dict) -> list[str]:
    """The card structure, if the game lays one out: rows top first, each card as wide as the
    widest row allows within WIDTH (a card spans two half-columns of its layout)."""
    lay = game.content.layouts.get(game.state.layout)
    if not lay or not any(lay.rows):
        return []
    texts = []
    for slot, got in enumerate(o["structure"]):
        if got is None:
            texts.append("..")
        elif "card" in got:
            texts.append(got["card"] + ("*" if got["accessible"] else ""))
        else:   # (its slot: a choice offers a face-down card by it, `choose slot 7 (face down)`)
            texts.append(f"#{slot} ({got['back']})")
    half_columns = max(lay.columns) - min(lay.columns) + 2
    # As wide as the longest text (and a space), as long as the widest row fits.
    cell = max(8, min(22, max(len(t) for t in texts) + 1, 2 * WIDTH // half_columns))
    lines = ["structure (top row first; #7 = face down, in slot 7; .. = taken; * = can be taken):"]
    for row in lay.rows:
        cells = []
        for slot in row:
            text = texts[slot]
            if len(text) > cell - 1:
                text = text[:cell - 2] + "~"
            cells.append(f"{text:^{cell}}")
        indent = " " * ((lay.columns[row[0]] - min(lay.columns)) * cell // 2) if row else ""
        lines.append((indent + "".join(cells)).rstrip())
    lying = lying_text(o)
    if lying:
        lines += textwrap.wrap("on the cards: " + lying, WIDTH, subsequent_indent="   ")
    return lines


def lying_text(o: dict) -> str:
    """What lies on the structure's cards, each with the card (a face-down one by its slot):
    `Token A on #9, Token B on Baths`."""
    return ", ".join(f"{name} on {got.get('card') or f'#{slot}'}" for slot, got in enumerate(o["structure"])
                     if got and "on" in got for name in got["on"])


def on_spaces(game, zone, owner: int, shown: list[str]) -> list[str]:
    """The names an observation shows of a zone's items (`shown`, in the zone's order), each
    that lies on a numbered space with that space, numbered as the actions name it (`NAME on
    3`; a face-down item too: its back lies there for all to see; a pawn placed on the track)."""
    st = game.state
    if not st.positions:
        return shown
    ids = st.zones[game.slot(zone.id, owner)]
    return [f"{name} on {st.positions[i]}" if i in st.positions else name for i, name in zip(ids, shown)]


def cube_lines(o: dict) -> list[str]:
    """Each zone of numbered spaces players put cubes on (an observation's `cubes`, `control`):
    a row of the spaces, numbered as the actions name them (`choose_space 0`), each seat's cubes
    on each, and who controls each."""
    lines = []
    for name, grid in o["cubes"].items():
        spaces = len(grid[0]) if grid else 0
        control = o["control"].get(name, [])
        lines.append(f"{name}  {'space':<9}" + "".join(f"{k:>4}" for k in range(spaces)))
        rows = [(f"cubes p{p}", row) for p, row in enumerate(grid)]
        rows.append(("control", [f"p{w}" if w >= 0 else "-" for w in control]))
        lines += [f"{'':{len(name)}}  {label:<9}" + "".join(f"{x:>4}" for x in cells) for label, cells in rows]
    return lines


def round_open(game) -> bool:
    """A simultaneous round in which some seats have chosen and others not yet: what the chosen
    ones chose stays hidden until it resolves."""
    st = game.state
    return st.flow == "round" and any(c is not None for c in st.choices)


# -- a move as another seat may see it ------------------------------------------------------------

def seen_by_all(game) -> list[set[int]]:
    """The items each seat may see now (rulesdsl.testing.invariants.visible_items: the notion the
    observations keep to)."""
    from .testing.invariants import visible_items
    return [visible_items(game, p) for p in range(game.state.players)]


def bound_items(game, seat: int, action) -> list[tuple[int, ...]]:
    """For each argument of `action`, about to be applied by `seat`, the items it names: the one
    the engine will take (copies of a name are told apart as the engine tells them), every copy
    of the name where that cannot be told, () for an argument that names no item (a space, a
    seat, an option, a payment)."""
    from .interpreter.actions import CHOOSE
    from .interpreter.decisions import FACE_DOWN, offered_copy
    from .interpreter.legality import decode
    g, c = game, game.content
    args = list(action.args)
    out: list[tuple[int, ...]] = [() for _ in args]
    d = g.state.pending
    try:
        if d is not None:
            if action.name == CHOOSE and d.kind == "item" and args and not args[0].endswith(FACE_DOWN):
                # (an answer naming a place, `slot 7 (face down)`, names no item: it is shown as
                # it is.  Otherwise the copy decisions.answer takes)
                out[0] = (offered_copy(g, d, args[0]),) if args[0] in c.item_index else _copies(g, args[0])
            return out
        if action.name in g.action_by_name:
            _, binding, _ = decode(g, action, seat)
            for k, item in enumerate(binding):
                out[k] = (item,)
            return out
    except Exception:   # (not one the engine could decode: every copy of each name, below)
        pass
    return [_copies(g, a) if a in c.item_index else () for a in args]


def _copies(game, name: str) -> tuple[int, ...]:
    return tuple(i for i, n in enumerate(game.item_names) if n == name)


def action_seen(game, action, items: list[tuple[int, ...]], seen: set[int], after: set[int]) -> str:
    """`action` as a seat sees it that saw the items `seen` before it and sees `after` once it
    is applied: an item it saw neither before nor after is named only by its kind
    (`sell (a card)`, `prepare CARD (a KIND)`)."""
    from .interpreter.actions import shown
    parts = [shown(action.name)]
    for arg, named in zip(action.args, list(items) + [()] * len(action.args)):
        if named and not any(i in seen or i in after for i in named):
            parts.append(f"({a_kind(game.content.items[named[0]].kind)})")
        else:
            parts.append(shown(arg))
    return printable(" ".join(parts))


def a_kind(kind: str) -> str:
    """`a card`, `an item`, `a military token`: an item's kind as words."""
    words = (kind or "item").replace("_", " ")
    return ("an " if words[:1].lower() in "aeiou" else "a ") + words


# -- what an action costs ------------------------------------------------------------------------

def coins(n: int) -> str:
    return f"{n} coin{'' if n == 1 else 's'}"


def payments(game, seat: int, action):
    """What `action` would cost `seat` now, as the engine reckons it before running it (what
    its legality checks): a list, for each item it builds that must be paid for
    (ActionDef.paid), of (total, of which for trade, free by chain), the `pay=` payment it
    names to other seats ([(seat label, coins)] or None), and the coins its own `pay`
    statements take (None when it has none); None for an answer to a decision."""
    from .interpreter.legality import decode
    from .interpreter.state import Frame
    g = game
    if g.state.pending is not None or action.name not in g.action_by_name:
        return None
    try:
        act, binding, _ = decode(g, action, seat)
    except Exception:   # (an action that is not legal now: no price)
        return None
    pay = action.args[-1] if action.args and action.args[-1].startswith("pay=") else None
    to = [(p, int(n)) for p, n in (x.split(":") for x in pay[4:].split(",") if ":" in x)] if pay else None
    built = [g.price(seat, binding[k]) for k in act.paid if k < len(binding)]
    taken = None
    if act.pays:
        frame = Frame(act.block, 0, 0, seat, dict(zip(act.param_names, binding)))
        try:
            taken = sum(max(0, fn(g, frame)) for fn in act.pays)
        except Exception:   # (a payment the engine cannot tell before it runs)
            taken = None
    return built, to, taken


def cost_text(game, seat: int, action) -> str:
    """What `action` costs `seat` now: for each item it builds that must be paid for
    (ActionDef.paid), its price (`free (chain)`, `3 coins (2 trade)`), the neighbours a `pay=`
    variant pays (`1 coin (1 to p2)`), and the coins its `pay` statements take (a god's
    activation: `3 coins`)."""
    got = payments(game, seat, action)
    if got is None:
        return ""
    built, to, taken = got
    parts = []
    for total, trade, chain in built:
        if chain:
            parts.append("free (chain)")
        elif total >= IMPOSSIBLE:
            parts.append("cannot be had")
        elif to is None:
            parts.append(coins(total) + (f" ({trade} trade)" if trade else ""))
        else:
            bank = total - trade
            told = ", ".join(f"{n} to {p}" for p, n in to)
            parts.append(f"{coins(bank + sum(n for _, n in to))} ({told})" if to else coins(bank))
    if taken is not None:
        parts.append("cannot be had" if taken >= IMPOSSIBLE else coins(taken))
    return "; ".join(parts)


def plain_price(game, seat: int, action) -> str:
    """The plain screen's price of an action: the coins it costs (`(3 coins)`); nothing where
    it names its payment to other seats (`pay=p1:2`) and has nothing else to pay, or costs
    nothing by its nature."""
    got = payments(game, seat, action)
    if got is None:
        return ""
    built, to, taken = got
    # (with `pay=`, what the bank gets: the price less the resources bought from the others)
    bank = sum(0 if chain else t - (trade if to is not None else 0) for t, trade, chain in built)
    if not built and taken is None or to is not None and not bank and taken is None:
        return ""
    total = bank + sum(n for _, n in to or ()) + (taken or 0)
    return "(cannot be had)" if total >= IMPOSSIBLE else f"({coins(total)})"


# What `choose_action` answers besides an action and None (quit): the plain screen's `u`, `s`.
UNDO, SAVE = "undo", "save"
PLAIN_KEYS = "? N explains action N, e NAME explains any name, u undoes your last move, s saves, q quits"


def explanation(content, action) -> str:
    """`rulesdsl explain` of each item an action names, then of the action itself."""
    from .explain import explain
    parts = []
    for name in [a for a in action.args if not a.startswith("pay=")] + [action.name]:
        try:
            parts.append(explain(name, content))
        except KeyError:   # a choice's answer that names no definition (a seat, a space)
            continue
    return printable("\n\n".join(parts) or f"{action}: nothing to explain")


def explained_name(content, name: str) -> str:
    """`e NAME`: what `rulesdsl explain NAME` says, or which names are near one not defined.  A
    name typed in quotes, as the actions show it (`build "My Card"`), is that name."""
    from .explain import explain
    if len(name) > 2 and name[0] == name[-1] == '"':
        name = name[1:-1].strip()
    try:
        return printable(explain(name, content))
    except KeyError as exc:   # explain.UnknownName: says what is near
        return printable(str(exc))


def _number(answer: str, count: int) -> int | None:
    """The action numbered `answer` (1 to count), else None.  (ASCII digits only, and few: `int`
    refuses `²` and numbers of thousands of digits.)"""
    if answer.isascii() and answer.isdigit() and len(answer) <= 9 and 1 <= int(answer) <= count:
        return int(answer)
    return None


def choose_action(game):
    """The plain screen's prompt: the action typed by its number, None for `q`, UNDO for `u`,
    SAVE for `s`; `? N` and `e NAME` explain and ask again, as does anything else (with what
    may be typed)."""
    actions = game.legal_actions()
    pending = game.state.pending
    seat = game.to_move()
    click.echo(printable(f"\n{pending.prompt}:" if pending else "\nyour move:"))
    for i, a in enumerate(actions, 1):
        price = plain_price(game, seat, a)
        click.echo(printable(f"  {i:2}. {a}" + (f"  {price}" if price else "")))
    while True:
        answer = click.prompt("number (q to quit)", default="", show_default=False).strip()
        word = answer.lower()
        if word in ("q", "quit"):
            return None
        n = _number(answer, len(actions))
        if n is not None:
            return actions[n - 1]
        if word in ("u", "undo"):
            return UNDO
        if word in ("s", "save"):
            return SAVE
        if word.startswith("?") and _number(answer[1:].strip(), len(actions)) is not None:
            click.echo(explanation(game.content, actions[_number(answer[1:].strip(), len(actions)) - 1]))
            continue
        if word.startswith("e ") and answer[2:].strip():
            click.echo(explained_name(game.content, answer[2:].strip()))
            continue
        click.echo(f"type one of the numbers above (1 to {len(actions)}); {PLAIN_KEYS}")
