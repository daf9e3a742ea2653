"""Terminal rendering and input for `rulesdsl play`, built on observations (so a player never
sees what their seat may not)."""

from __future__ import annotations

import click

from .safe_text import printable


WIDTH = 100  # the screen is readable in a terminal this wide, at any number of seats


def render_game(game, player: int, labels: list[str] | None = None) -> str:
    """The game as `player` sees it (an observation: other seats' private zones show only how
    many items they hold, face-down items only their back): the structure, every seat's coins
    and zones, the shared public zones.  `labels`: who plays each seat (`greedy`, `human`...)."""
    from rulesdsl.interpreter.observation import observe
    o = observe(game, player)
    content = game.content
    stage = f"Age {o['age']}" if o["age"] > 0 else "Setup"
    lines = [f"== {stage} == player {o['to_move']} to move" + ("  (game over)" if o["over"] else "")]
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
        groups = [[f"{o['coins'][p]} coins"]] + [[f"{name} {per_seat[p]}"]
                                                  for name, per_seat in sorted(game.state.counters.items())]
        if open_cities or p == player:
            groups += _city_stats(game, p)
        # Groups apart with `;`, the entries of one with `,`; a line breaks between entries.
        pieces = [entry + ("," if k < len(g) - 1 else ";") for g in groups for k, entry in enumerate(g)]
        pieces[-1] = pieces[-1][:-1]
        lines.append(_wrapped(f"player {p}{f' ({who})' if who else ''}: ", pieces, ""))
        for name, held in o["zones"].items():
            if not zones[name].per_player:
                continue
            mine = held.get(str(p))
            if isinstance(mine, int):  # another seat's private zone: how many, not what
                if mine:
                    lines.append(f"   {name}: {mine} hidden")
            elif mine:
                lines.append(_wrapped(f"   {name}: ", mine))
    for name, held in o["zones"].items():
        if not zones[name].per_player and held:
            lines.append(_wrapped(f"{name}: ", held))
    if o["over"]:
        scores = [game.total_score(p) for p in range(content.players)]
        lines.append(f"result: winner {o['winner']} ({o['victory']}); scores {scores}")
    return printable("\n".join(lines))


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
    for got in o["structure"]:
        if got is None:
            texts.append("..")
        elif "card" in got:
            texts.append(got["card"] + ("*" if got["accessible"] else ""))
        else:
            texts.append(f"## ({got['back']})")
    half_columns = max(lay.columns) - min(lay.columns) + 2
    # As wide as the longest text (and a space), as long as the widest row fits.
    cell = max(8, min(22, max(len(t) for t in texts) + 1, 2 * WIDTH // half_columns))
    lines = ["structure (top row first; ## = face down, .. = taken; * = can be taken):"]
    for row in lay.rows:
        cells = []
        for slot in row:
            text = texts[slot]
            if len(text) > cell - 1:
                text = text[:cell - 2] + "~"
            cells.append(f"{text:^{cell}}")
        indent = " " * ((lay.columns[row[0]] - min(lay.columns)) * cell // 2) if row else ""
        lines.append((indent + "".join(cells)).rstrip())
    return lines


def round_open(game) -> bool:
    """A simultaneous round in which some seats have chosen and others not yet: what the chosen
    ones chose stays hidden until it resolves."""
    st = game.state
    return st.flow == "round" and any(c is not None for c in st.choices)


def announce(game, player: int, who: str, action) -> str:
    """The line saying what an agent did."""
    return printable(f"player {player} ({who}): {action}")


def choose_action(game):
    actions = game.legal_actions()
    pending = game.state.pending
    click.echo(printable(f"\n{pending.prompt}:" if pending else "\nyour move:"))
    for i, a in enumerate(actions, 1):
        extra = ""
        # The price to the bank; an action that pays neighbours says so itself (`pay=p1:2`).
        paid = bool(a.args) and a.args[-1].startswith("pay=")
        if a.name in ("build", "wonder") and a.args and not paid and a.args[-1] in game.content.item_index:
            item = game.content.item_index[a.args[-1]]
            cost = game.price(game.to_move(), item)[0]
            extra = f"  ({cost} coin{'' if cost == 1 else 's'})"
        click.echo(printable(f"  {i:2}. {a}{extra}"))
    while True:
        answer = click.prompt("number (q to quit)", default="", show_default=False).strip()
        if answer.lower() in ("q", "quit"):
            return None
        # (ASCII digits only, and few: `int` refuses `²` and numbers of thousands of digits)
        if answer.isascii() and answer.isdigit() and len(answer) <= 9 and 1 <= int(answer) <= len(actions):
            return actions[int(answer) - 1]
        click.echo("type one of the numbers above")
