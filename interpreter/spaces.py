"""A decision's open actions, and the random draw among them, as functions written for each
content set.

Every decision asks which actions are open to the seat (`before_turn` and guards) and what each
parameter may take; the random agent then draws a binding among them.  Asked through generic
loops over `Content.actions`, that costs more than anything else a decision does, although for
a given content the answer always takes the same shape: Duel asks for the accessible structure
cards three times and for the seat's wonders once.  So for each content this module writes that
shape out as Python source, once, when the content's first game is made: the actions in order,
each guard called directly, each candidate list worked out once and named, its length read
once, and for the draw each action's binding read and checked by lines of its own.  They return
what the plain definitions of tests/test_open_spaces.py and the generic draw
(`legality.drawn_among`) would, in the same order, with the same lists, from the same random
numbers.

Nothing of the content's text reaches the source: actions, selectors, guards and item sets are
values the functions read from their namespace by generated names, and numbers (zone slots,
parameter positions) are written as integers.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable, Collection

from rulesdsl.model import STRUCTURE, STRUCTURE_ALL, ActionDef, Content, Param

from . import core, economy, legality, selection, structure
from .budget import GameStuck

if TYPE_CHECKING:
    from .game import Game

# (action, its parameters' candidate lists, how many bindings they make), actions with none left out
Spaces = list[tuple[ActionDef, list[list[int]], int]]
OpenSpaces = Callable[["Game", int], tuple[Spaces, int]]
# (action, binding, payment or None): a draw in numbers; `legality.named` makes it an Action
Draw = Callable[["Game", int, Callable[[int], int]], tuple[ActionDef, list[int], Any]]
# (action, binding, payment or None, the candidates of its parameters): a round's draw
RoundDraw = Callable[["Game", int, Callable[[int], int]], tuple[ActionDef, list[int], Any, list[list[int]]]]
# (each action's size and candidate lists, ..., the total, whether an unchecked action is open)
RoundRecord = Callable[["Game", int], tuple]
# A random seat's whole turn: its action drawn, named in the history and started
Turn = Callable[["Game", int, Callable[[int], int]], None]
# Whether an action that needs no check is open to a seat of a round (the record's last entry)
RoundFree = Callable[["Game", int], bool]
Functions = tuple[OpenSpaces, Draw, "RoundDraw | None", "RoundRecord | None", "Turn | None", "RoundFree | None"]


def functions_of(content: Content, starts: list) -> Functions:
    """The content's `open_spaces`, `draw`, `draw_in_round`, `round_record` (the last two
    None for content whose seats take turns), `turn` (None unless they do, and trade with
    the bank only) and `round_free` (None but in rounds where an action needs no check), made
    by its first game and shared by the rest.  `starts`: the content's
    starters (interpreter/starters.py), by action number."""
    fns = content._open_spaces
    if fns is None:
        tables = content._slot_tables or core.slot_tables(content)
        fns = content._open_spaces = make_functions(content, tables["zone_base"], starts)
    return fns


def make_functions(content: Content, zone_base: list[int], starts: list, filters: bool = True) -> Functions:
    """Functions written for `content`:

    `open_spaces(g, me)`: the open actions of seat `me` with their candidates and the number of
    bindings each makes (those making none left out), and the total.  While a simultaneous
    round waits, a seat's answer is kept with the round's candidates (`g._round_pools`).

    `draw(g, me, below)`: what `legality.random_action` draws for `me` on its turn, with the
    same numbers from `below` (uniform in [0, n)): a binding of all of the open actions' drawn
    uniformly, those that are not legal rejected (none drawn twice), then a payment when it
    trades.  Each action's bindings are read and checked by lines of their own.  It returns
    numbers, (action, binding, payment or None): the caller names them (`legality.named`), or a
    game played out at random starts the action from them (`playout.play_out`).

    Where seats choose at once (`turns simultaneous`), `round_record(g, me)`: each action's
    size and candidate lists, by number, the total, and whether an action that needs no check
    is open (`legality.can_act`), kept for the round; `open_spaces` lists a round's open
    actions from it; `round_free(g, me)` answers that last question from those actions alone,
    as a new round asks it of every seat.  And `draw_in_round(g, me, below)`: what `legality.drawn_among` draws for
    `me` among them, with the same numbers, and the candidates of the action drawn, reading
    the record without a loop.

    Where seats take turns and trade with the bank only, `turn(g, me, below)`: the draw, whose
    action, once drawn, is named in the history and started (`starts`, the action's starter)
    where the draw would return it: what `playout.play_out` does with a random seat's draw,
    without the numbers handed back and forth (`below` made by `legality.below_of`).

    `filters`: a list filtered by printed attributes alone or by `where=` alone is worked out
    by lines written in (`_pool_lines`, `_fused`, `_where_lines`), not by `selection`'s calls;
    False writes the calls (the same lists: tests/test_written_filters.py plays both)."""
    ns: dict[str, object] = {"candidates": selection.candidates, "zone_pool": selection.zone_pool,
                             "own_candidates": selection.own_candidates, "kept_in": selection.kept_in,
                             "with_attr": selection.with_attr,
                             "accessible": structure.accessible, "open_slots": structure.open_slots,
                             "allowed": legality.allowed, "unrefused": legality.unrefused,
                             "payments_for": legality.payments_for, "price": economy.price, "stats": economy.stats,
                             "available_coins": economy.available_coins, "starts": starts, "GameStuck": GameStuck}
    known: dict[int, str] = {}

    def const(value: object) -> str:
        name = known.get(id(value))
        if name is None:
            name = known[id(value)] = f"_k{len(known)}"
            ns[name] = value
        return name

    # A shared list that several actions need, first needed behind an action's conditions, is
    # worked out by the first open action that needs it (None until then).
    uses: dict[int, int] = {}
    for act in content.actions:
        for k in {p.pool for p in act.params if p.pool >= 0}:
            uses[k] = uses.get(k, 0) + 1
    lazy: set[int] = set()
    always: set[int] = set()   # the lists made before, whatever is open
    for act in content.actions:
        if act.before_turn or act.guards:
            lazy |= {p.pool for p in act.params if p.pool >= 0 and uses[p.pool] > 1 and p.pool not in always}
        else:
            always |= {p.pool for p in act.params if p.pool >= 0}
    # A guard several actions share (the same written source: the same value, as guards only
    # read) is worked out by the first that asks and kept for the others (None until then).
    seen: dict = {}
    for act in content.actions:
        for guard in act.guards:
            seen[_guard_key(guard)] = seen.get(_guard_key(guard), 0) + 1
    shared = {key: f"c{n}" for n, key in enumerate(k for k, uses in seen.items() if uses > 1)}
    # (names only the content's actions read: a draw runs these lines at every turn; the names
    # that start as None, only where a line asks whether they are: `_defaults`, once the
    # actions' lines are written)
    preamble = (["    zones = st.zones"] + ["    before_used = st.before_used"] * any(a.before_turn for a in content.actions)
                + [DEFAULTS])
    rounds = content.simultaneous
    # (sizes and lists set behind a condition: those of other actions are set in any case)
    record_defaults = ([f"    z{act.id} = 0" for act in content.actions if act.before_turn or act.guards]
                       + [f"    l{act.id} = None" for act in content.actions if act.before_turn or act.guards])

    spaces = ["def open_spaces(g, me):",
              "    st = g.state",
              "    waiting = st.flow == 'round'",
              "    if waiting:",
              "        key = ('spaces', me, st.before_used)",
              "        kept = g._round_pools.get(key)",
              "        if kept is not None:",
              "            return kept"]
    if rounds:   # (a round's open actions, listed from what the round keeps for its draws)
        spaces += [f"        {', '.join(f'z{act.id}, l{act.id}' for act in content.actions)}, total, _ = "
                   "round_record(g, me)",
                   "        out = []"]
        for act in content.actions:
            spaces += [f"        if z{act.id}:", f"            out.append(({const(act)}, l{act.id}, z{act.id}))"]
        spaces += ["        result = (out, total)",
                   "        g._round_pools[key] = result   # (`legality.pools_of` reads each action's lists there)",
                   "        return result"]
    spaces += ["    out = []",
               "    total = 0"] + preamble
    # A round's seat: each action's size and lists by number, kept for the round
    # (`draw_in_round`, `open_spaces`), and whether an action open to it needs no check
    # (`legality.can_act`).
    record = ["def round_record(g, me):",
              "    st = g.state",
              "    key = ('draw', me, st.before_used)",
              "    kept = g._round_pools.get(key)",
              "    if kept is not None:",
              "        return kept"] + preamble + record_defaults
    draw = ["def draw(g, me, below):",
            "    st = g.state",
            "    coins = st.coins[me]"] + preamble + [f"    s{act.id} = 0" for act in content.actions
                                                  if act.before_turn or act.guards]   # (sizes set behind a condition)
    made: set = set()
    lists = []
    slotted: set[str] = set()   # the draw's lists that are the structure's open slots, not its cards
    # A list's length the draw has named already (`len(p0)` is s0 once `s0 = len(p0)` ran, on
    # every path, and p0 was not made again): read from that name, not asked again.
    lengths: dict[str, str] = {}
    written: list[str] = []   # every action's lines
    for act in content.actions:
        lines, names = _open(act, content, zone_base, const, made, lazy, shared, filters)
        written += lines
        lists.append(names)
        depth = lines[-1][:len(lines[-1]) - len(lines[-1].lstrip())]   # where `size` is known
        spaces += lines + [depth + line for line in (
            "if size:", f"    out.append(({const(act)}, [{', '.join(names)}], size))", "    total += size")]
        if rounds:
            record += lines[:-1] + [lines[-1].replace("size = ", f"z{act.id} = ", 1),
                                    f"{depth}l{act.id} = [{', '.join(names)}]"]
        # The draw reads an accessible card by its slot (`structure[slot]`): the list of cards
        # is not made, as a turn takes one or two of them (Duel 1.8 % fewer bytecodes).
        for line in lines[:-1] + [lines[-1].replace("size = ", f"s{act.id} = ", 1)]:
            var, _, value = line.strip().partition(" = ")
            if value == "accessible(g)":
                # (the kept list read here, `structure.open_slots` called only to make it; an
                # empty list it keeps is asked again, which only happens when an age ends)
                line = line.replace("accessible(g)", "g._open_slots or open_slots(g)")
                slotted.add(var)
            lengths.pop(var, None)   # (a list made again: its length is asked again)
            if var == f"s{act.id}":
                for name, size in lengths.items():
                    line = line.replace(f"len({name})", size)
                if line.startswith("    s") and value.startswith("len(") and value.count("(") == 1:
                    lengths.setdefault(value[4:-1], var)
            draw.append(line)
    defaults = _defaults(written, ["fr"] * any(a.guards for a in content.actions) + list(shared.values())
                         + [f"p{k}" for k in sorted(lazy)])
    spaces, record, draw = (_merged([line for part in fn for line in (defaults if part is DEFAULTS else [part])])
                            for fn in (spaces, record, draw))
    if filters:
        spaces, record, draw = _fused(spaces), _fused(record), _fused(draw)
    kept = ", ".join(f"z{act.id}, l{act.id}" for act in content.actions)
    spaces += ["    result = (out, total)"]
    if not rounds:   # (a round's were listed and kept above)
        spaces += ["    if waiting:",
                   "        g._round_pools[key] = result   # (`legality.pools_of` reads each action's lists there)"]
    spaces += ["    return result"]
    if rounds:
        total = " + ".join(f"z{act.id}" for act in content.actions) or "0"
        free = " or ".join(f"z{act.id}" for act in content.actions if not act.checked)
        record += [f"    kept = ({kept}, {total}, {f'bool({free})' if free else 'False'})",
                   "    g._round_pools[key] = kept",
                   "    return kept"]
    draw += ["    total = " + " + ".join(f"s{act.id}" for act in content.actions) if content.actions else "    total = 0"]
    draw += ["    structure = st.structure"] * bool(slotted)
    turn: list[str] = []
    if not (rounds or content.trade_base):   # (seats that take turns, trading with the bank only)
        turn = ["def turn(g, me, below):"] + draw[1:]
        turn += _drawing(content.actions, "s", [_drawn(act, names, content, const, slotted=slotted, started=True)
                                                for act, names in zip(content.actions, lists)], made_by_below_of=True)
    draw += _drawing(content.actions, "s", [_drawn(act, names, content, const, slotted=slotted)
                                            for act, names in zip(content.actions, lists)])
    in_round: list[str] = []
    if rounds:
        in_round = ["def draw_in_round(g, me, below):",
                    "    st = g.state",
                    f"    {kept}, total, _ = round_record(g, me)",
                    "    coins = st.coins[me]"]
        in_round += _drawing(content.actions, "z", [
            _drawn(act, [f"l{act.id}[{j}]" for j in range(len(act.params))], content, const, f"l{act.id}")
            for act in content.actions])
    free = _round_free(content, zone_base, const, preamble, lazy, shared) if rounds else []
    source = "\n\n\n".join("\n".join(fn) for fn in (spaces, draw, in_round, record if rounds else [], free, turn)) + "\n"
    exec(compile(source, f"<open actions of {content.name}>", "exec"), ns)   # (trusted source: see above)
    open_spaces, drawn = ns["open_spaces"], ns["draw"]
    open_spaces.source = drawn.source = source   # type: ignore[attr-defined]  (for a reader)
    return (open_spaces, drawn, ns.get("draw_in_round"), ns.get("round_record"),  # type: ignore[return-value]
            ns.get("turn"), ns.get("round_free"))


def _round_free(content: Content, zone_base: list[int], const, preamble: list[str], lazy: set[int],
                shared: dict) -> list[str]:
    """`round_free(g, me)`: whether an action that needs no check is open to seat `me` (the
    flag `round_record` keeps), asking only those actions: what a new round asks of every seat
    (`turns.begin_round`), before any seat draws.  No lines where every action has a check."""
    body: list[str] = []
    made: set = set()
    for act in content.actions:
        if act.checked:
            continue
        lines, _ = _open(act, content, zone_base, const, made, lazy, shared)
        depth = lines[-1][:len(lines[-1]) - len(lines[-1].lstrip())]   # where `size` is known
        body += lines + [depth + "if size:", depth + "    return True"]
    if not body:
        return []
    defaults = _defaults(body, ["fr"] * any(a.guards for a in content.actions) + list(shared.values())
                         + [f"p{k}" for k in sorted(lazy)])
    lines = ["def round_free(g, me):", "    st = g.state"] + preamble + body + ["    return False"]
    return _merged([line for part in lines for line in (defaults if part is DEFAULTS else [part])])


# Where the names that start as None are set, in the lines a function begins with.
DEFAULTS = "    # (the names that start as None)"


def _defaults(lines: list[str], names: list[str]) -> list[str]:
    """`NAME = None` for those of `names` that a line asks about (`NAME is None`, `NAME is not
    None`): every other read of such a name comes where every path has set it (`_open`), so
    one that is never asked about needs no value before."""
    asked = re.compile(r"\b(\w+) is (?:not )?None\b")
    tested = {m.group(1) for line in lines for m in asked.finditer(line)}
    return [f"    {name} = None" for name in names if name in tested]


def _merged(lines: list[str]) -> list[str]:
    """The lines with a block `if NAME:` that comes right after a block of the same test (`if
    NAME:` or `if (NAME := ...):`, the name not set again in it) run as part of that block:
    the same steps, one test fewer (the actions behind one shared guard, one after another)."""
    out: list[str] = []
    last: dict[int, str] = {}   # indent -> the name the block just before there tests, if any
    for line in lines:
        body = line.lstrip()
        depth = len(line) - len(body)
        for d in [d for d in last if d > depth]:   # (blocks deeper than this line have ended)
            del last[d]
        tested = _tested_name(body)
        if tested and body == f"if {tested}:" and last.get(depth) == tested:
            continue   # (its lines, already indented, go on the block before)
        last.pop(depth, None)   # (any other line here comes between)
        if re.search(r"\b\w+ :?= ", body) and any(re.search(rf"\b{name} :?= ", body) for name in last.values()):
            last.clear()   # (a tested name set again: nothing merges across it)
        out.append(line)
        if tested:
            last[depth] = tested
    return out


_FILTER = re.compile(r"(\w+) = \[\]\n( *)for x_ in (.+):\n\2    if x_ in (\w+):\n\2        \1\.append\(x_\)")


def _fused(lines: list[str]) -> list[str]:
    """The lines with a list filtered (`_pool_lines`) from a pool that a list made before it in
    the same block filters too (two kinds of item of one public zone, behind one shared guard)
    filled by that list's loop: the same lists, the pool walked once.  Only reading lines come
    between (the written functions move nothing); a list made behind a test of its own (`if
    p4 is None:`) or in a block that has ended is left alone."""
    out: list[str] = []
    loops: dict[tuple[str, str], int] = {}   # (indent, pool) -> the index of its `for` line in out
    k = 0
    while k < len(lines):
        line = lines[k]
        depth = len(line) - len(line.lstrip())
        for key in [key for key in loops if len(key[0]) > depth]:
            del loops[key]   # (the block of that loop has ended)
        m = _FILTER.match("\n".join(lines[k:k + 4]).lstrip(" ")) if line.lstrip().endswith("= []") else None
        if m is not None and " " * depth == m.group(2):
            key = (m.group(2), m.group(3))
            at = loops.get(key)
            if at is not None:
                # (another test and append in that loop: a list of its own, made where the loop's is)
                var, matching = m.group(1), m.group(4)
                end = at + 1
                while end < len(out) and out[end].startswith(m.group(2) + "    "):
                    end += 1
                out[end:end] = [f"{m.group(2)}    if x_ in {matching}:", f"{m.group(2)}        {var}.append(x_)"]
                out.insert(at, f"{m.group(2)}{var} = []")
                for other, where in loops.items():   # (the loops after: where they stand now)
                    loops[other] = where + (3 if where >= end else 1 if where >= at else 0)
                k += 4
                continue
            loops[key] = len(out) + 1
        out.append(line)
        k += 1
    return out


def _tested_name(body: str) -> str | None:
    """NAME, where the line is `if NAME:` or `if (NAME := ...):` testing that name alone; None
    for any other line (`if (c0 := ...) and ...:` tests more than `c0`)."""
    m = re.fullmatch(r"if (\w+):", body)
    if m:
        return m.group(1)
    m = re.fullmatch(r"if \((\w+) := .*\):", body)
    if m is None:
        return None
    depth = 0
    for k, ch in enumerate(body[3:-1]):   # (the condition: its first parenthesis must close at its end)
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0:
            return m.group(1) if k == len(body) - 5 else None
    return None


def _guard_key(guard) -> object:
    """What makes two guards the same: their written source, else the function itself."""
    return getattr(guard, "source", None) or id(guard)


def _open(act: ActionDef, content: Content, zone_base: list[int], const, made: set,
          lazy: set[int], shared: dict, filters: bool = True) -> tuple[list[str], list[str]]:
    """The lines that work out whether `act` is open and, when it is, its candidate lists and
    `size`, the number of bindings (the last line is at the depth where `size` is known); and
    the lists' names.  `made`: what every path has made so far (shared lists by number,
    "frame" for the guards' frame), updated."""
    body: list[str] = []
    conditions = []
    if act.before_turn:
        conditions.append("not before_used")
    indent = "    "
    out: list[str] = []
    if conditions:
        out.append(f"    if {' and '.join(conditions)}:")
        indent = "        "
    if act.guards:
        # The guards read the seat's reading frame (`g._reading`), fetched by the first that runs.
        if "frame" not in made:
            if conditions:
                out += [f"{indent}if fr is None:", f"{indent}    fr = g._reading[me]"]
            else:   # (on every path from here on)
                out.append(f"{indent}fr = g._reading[me]")
                made.add("frame")
        # (a shared guard read where it was kept, worked out here if no action asked it yet:
        # `and` still stops at the first guard that fails, as the generic test does; one worked
        # out on every path before, by an action's first guard outside any condition, is read)
        tests = []
        for n, guard in enumerate(act.guards):
            key = _guard_key(guard)
            var = shared.get(key)
            asked = _inlined(guard, const, "fr") or f"{const(guard)}(g, fr)"
            if var is None:
                tests.append(asked)
            elif ("guard", key) in made:
                tests.append(var)
            elif ("asked", key) in made:   # (behind a condition before: maybe worked out)
                tests.append(f"({var} if {var} is not None else ({var} := {asked}))")
            else:
                tests.append(f"({var} := {asked})")
            made.add(("asked", key))
            if n == 0 and not conditions:
                made.add(("guard", key))
        out.append(f"{indent}if {' and '.join(tests)}:")
        indent += "    "
    # Lists are worked out inside the action's conditions: only an open action needs them.
    names = []
    local_made = set()
    # Lists made behind the very same conditions before: made whenever these hold.
    behind = ("behind", tuple(conditions), tuple(_guard_key(guard) for guard in act.guards))
    for k, p in enumerate(act.params):
        if p.pool >= 0:
            var = f"p{p.pool}"
            if p.pool in made or p.pool in local_made or (behind, p.pool) in made:
                pass   # (made on every path that comes here)
            elif p.pool in lazy and ("mentioned", p.pool) in made:   # (maybe made before: asked)
                body.append(f"if {var} is None:")
                body += ["    " + line for line in _pool_lines(var, p, content, zone_base, const, filters)]
            else:
                body += _pool_lines(var, p, content, zone_base, const, filters)
            local_made.add(p.pool)
            made.add(("mentioned", p.pool))   # (made on some path from here on)
        else:
            var = f"q{act.id}_{k}"
            sel = p.selector
            if sel.zone >= 0 and content.zones[sel.zone].per_player and sel.owner == "me" and not sel.more_zones:
                # The seat's own slot of a zone, filtered: an empty slot has no candidates, and
                # such slots (a hand of cards held for later) are mostly empty: looked at first.
                body.append(f"{var} = zones[{int(zone_base[sel.zone])} + me]")
                body.append(f"if {var}:")
                if sel.key is not None and not sel.printed and sel.named is None:
                    # `where=it.ATTR == VALUE` alone (`selection._where`): the value, then the items
                    attr, value = const(sel.key[0]), const(sel.key[1])
                    body.append(f"    {var} = with_attr(g, {var}, {attr}, {value}(g, g._reading[me]))")
                elif filters and not sel.printed and sel.named is None and sel.where is not None:
                    kept = _inlined(sel.where, const, "wf", "x_") or f"{const(sel.where)}(g, wf)"
                    body += ["    " + line for line in _where_lines(var, kept)]
                else:
                    body.append(f"    {var} = own_candidates(g, {const(sel)}, me, {var})")
            else:
                body.append(f"{var} = candidates(g, {const(sel)}, me)")
        names.append(var)
    if not names:
        body.append("size = 1")   # an action of no parameter: one binding, the empty one
    elif len(names) == 1:
        body.append(f"size = len({names[0]})")
    else:
        body.append("size = " + " * ".join(f"len({n})" for n in names))
    out += [indent + line for line in body]
    if not conditions and not act.guards:
        made |= local_made
    else:
        made |= {(behind, pool) for pool in local_made}
    return out, names


def _drawing(actions: list[ActionDef], size: str, drawn: list[list[str]], made_by_below_of: bool = False) -> list[str]:
    """The loop of a draw: a number below `total` not refused yet, then the action whose
    bindings it numbers (each action's size in `{size}{id}`) and its lines (`drawn`).
    `made_by_below_of`: `below` surely carries `bits` (`legality.below_of` made it)."""
    lines = ["    tried = None   # (the numbers refused, made at the first refusal: most turns have none)",
             # (`legality.below_of`'s numbers, written out where it says how: no call per number)
             "    bits = below.bits" if made_by_below_of else "    bits = getattr(below, 'bits', None)",
             "    if bits is not None:",
             "        nb = total.bit_length()",
             "    while total:",
             "        if bits is None:",
             "            r = below(total)",
             "        else:",
             "            r = bits(nb)",
             "            while r >= total:",
             "                r = bits(nb)",
             "        if tried is not None and r in tried:",
             # (a generator that keeps repeating refused numbers: the draw goes on among the rest)
             "            repeats += 1",
             f"            if repeats <= {legality.REPEATS_PER_NUMBER} * (total + 1):",
             "                continue",
             "            r = unrefused(tried, total, below)",
             "        k = r"]
    for act, taken in zip(actions, drawn):
        lines += [f"        if k < {size}{act.id}:"] + ["            " + line for line in taken]
        lines += [f"        k -= {size}{act.id}"]
    return lines + ["    raise GameStuck(me)"]


# What the draw does with a binding that is not legal: it notes the number as refused and draws
# again, unless every number is refused (the loop ends, and the draw fails).
REFUSE = ["    if tried is None:", "        tried = set()", "        repeats = 0", "    tried.add(r)", "    if len(tried) == total:",
          "        break", "    continue"]


def _drawn(act: ActionDef, names: list[str], content: Content, const, pools: str = "",
           slotted: Collection[str] = (), started: bool = False) -> list[str]:
    """The lines that take the k-th binding of `act` (k below its size), as the generic draw
    numbers them, and return it (with its payment, and `pools` when given) when it is legal
    (`REFUSE` when not).  `slotted`: lists of structure slots, whose cards are read there.
    `started`: instead of returning it, name it in the history and start it (`turn`; content
    that trades with the bank only)."""
    also = f", {pools}" if pools else ""

    def item(var: str, pick: str) -> str:
        return f"structure[{var}[{pick}]]" if var in slotted else f"{var}[{pick}]"
    lines = []
    picks = ["k"]
    if len(names) > 1:
        # The last parameter varies fastest: k = ((j1 * n2) + j2) * n3 + j3 ...
        for n, var in enumerate(reversed(names[1:])):
            lines.append(f"k, j{n} = divmod(k, len({var}))")
            picks.append(f"j{n}")
        picks = [picks[0]] + picks[1:][::-1]
    # A binding that only the generic checks read is a list; one checked here is its items,
    # each in a variable of its own (b0, b1, ...).
    listed = act.shared_pools or act.requires or act.pays
    if listed:
        lines.append("binding = [" + ", ".join(item(var, pick) for var, pick in zip(names, picks)) + "]")
        items = [f"binding[{i}]" for i in range(len(names))]
    else:
        lines += [f"b{i} = {item(var, pick)}" for i, (var, pick) in enumerate(zip(names, picks))]
        items = [f"b{i}" for i in range(len(names))]
    if act.shared_pools:
        lines += ["if len(set(binding)) != len(binding):"] + REFUSE
    paying = _paying(act, items, const) if act.pays and not act.requires else None
    if paying is not None:
        lines += paying + REFUSE
    elif act.pays:
        lines += [f"if not allowed(g, {const(act)}, binding, me, coins):"] + REFUSE
    elif act.requires:
        # What `allowed` asks, written out: the requirements, read in the frame that binds the
        # binding's names (`legality.binding_frame`, refilled here), then the price.
        env = ", ".join(f"{const(name)}: {items[i]}" for i, name in enumerate(act.param_names))
        conditions = " and ".join(f"{const(req)}(g, bf)" for req in act.requires)
        lines += ["bf = g._binding_frame", f"bf.block = {int(act.block)}", "bf.me = me",
                  f"bf.env = {{{env}}}", f"if not ({conditions}):"] + REFUSE
    # One item paid for, where neighbours trade: its price says whether a payment is to be chosen.
    one_traded = not act.pays and len(act.paid) == 1 and bool(content.trade_base)
    if not act.pays and act.paid:   # what `allowed` asks of an action that builds: its price against the coins
        if one_traded:
            lines += [f"priced = price(g, me, {items[int(act.paid[0])]})", "cost = priced[0]"]
        elif len(act.paid) == 1:
            # `economy.price`'s lines written in (a call fewer at every build drawn: most draws
            # miss the kept prices, and a miss made two calls)
            paid = items[int(act.paid[0])]
            lines += ["kept = g._price_cache[me]",
                      f"priced = kept.get({paid})",
                      "if priced is None:",
                      "    ps = g._stats[me]",
                      "    if ps is None:",
                      "        ps = stats(g, me)",
                      f"    priced = kept[{paid}] = g._priced[{paid}](g, me, ps)",
                      "cost = priced[0]"]
        else:
            lines.append("cost = " + " + ".join(f"price(g, me, {items[int(i)]})[0]" for i in act.paid))
        # (`available_coins` is the treasury when no coins lie on items: no call then)
        lines += ["if cost > coins and (not st.item_coins or cost > available_coins(g, me)):"] + REFUSE
    binding = "binding" if listed else "[" + ", ".join(items) + "]"
    if act.paid and content.trade_base:
        if not listed:
            lines.append(f"binding = {binding}")   # (what `payments_for` reads)
            binding = "binding"
        if one_traded:
            # Nothing bought from neighbours (or a chain): `payments_for` would list the one
            # empty payment, and the draw among it still takes its number.
            lines += ["if not priced[1] or priced[2]:", "    below(1)", f"    return {const(act)}, binding, (){also}"]
        lines += [f"pays = payments_for(g, {const(act)}, binding, me, coins)",
                  f"return {const(act)}, binding, pays[below(len(pays))]{also}"]
    elif started:
        # (the history entry `play_out` makes of the numbers; the starter read from the list,
        # where a benchmark may have put one that counts)
        # (the history and the names read here, once per turn: not before the loop)
        if listed:
            lines += [f"entry = [{const(act.name)}]", "item_names = g.item_names", "for item in binding:",
                      "    entry.append(item_names[item])", "st.history.append(entry)"]
        else:
            lines.append(f"st.history.append([{const(act.name)}, {', '.join(f'g.item_names[{i}]' for i in items)}])")
        # (the items one by one, never `*binding`: a call with a star is never specialised)
        lines.append(f"return starts[{int(act.id)}](g, {', '.join(items)})")
    else:
        lines.append(f"return {const(act)}, {binding}, None{also}")
    return lines


def _paying(act: ActionDef, items: list[str], const) -> list[str] | None:
    """What `legality.allowed` asks of an action that pays amounts of its own and requires
    nothing, written out: the prices of the items it pays for, then each amount the compiler
    wrote as one expression (`Compiler.whole`), read with the binding's items and the seat in
    place of the frame's names (an amount asked at every draw that binds the action: no call
    of `allowed`, of `binding_frame` or of the amount's function).  None where an amount is
    no such expression, or still reads the frame."""
    amounts = []
    for fn in act.pays:
        text, values = getattr(fn, "source", None), getattr(fn, "names", None)
        if text is not None and values is None and NUMBER.fullmatch(text):
            amounts.append(text)   # (a number: the compiler names no values for it)
            continue
        if text is None or values is None:
            return None
        params = act.param_names

        def bound(m: re.Match) -> str:
            name = values[m.group(1)]
            return items[params.index(name)] if isinstance(name, str) and name in params else m.group(0)
        text = NAME_READS.sub(bound, text)
        text = COMPILED_VALUES.sub(lambda m: const(values[m.group(0)]), SEAT.sub("me", text))
        if FRAME.search(text) is not None:
            return None
        amounts.append(text)
    lines = []
    if act.paid:
        lines.append("cost = " + " + ".join(f"price(g, me, {items[int(i)]})[0]" for i in act.paid))
    for k, text in enumerate(amounts):
        if k or act.paid:
            lines += [f"amount = {text}", "if amount > 0:", "    cost += amount"]
        else:   # (the first amount with nothing before it: what it adds to nothing)
            lines += [f"cost = {text}", "if cost < 0:", "    cost = 0"]
    # (`available_coins` is the treasury when no coins lie on items: no call then)
    return lines + [f"if cost > coins and (not st.item_coins or cost > available_coins(g, me)) or cost >= {const(economy.IMPOSSIBLE)}:"]


def _where_lines(var: str, where: str) -> list[str]:
    """The lines that keep the items of list `var` for which `where` (the selector's `where=`,
    an expression in `g`, the frame `wf` and the item `x_`: `_inlined`) holds, as
    `selection._where` does: read in the game's binding frame, refilled (as a binding's
    requirements read it; a `where=` keeps nothing of it), instead of a frame made at each
    call (a seat's hand of items held for later, filtered at every turn).  A condition that
    reads nothing of the frame but the item (`riders(it) == 0`: the item is `x_`) fills none."""
    framed = WHERE_FRAME.search(where) is not None
    return (["wf = g._binding_frame", "wf.block = 0", "wf.me = me", "wf.env = wenv = {}"] * framed
            + ["wkept = []", f"for x_ in {var}:"] + ["    wenv['it'] = x_"] * framed
            + [f"    if {where}:", "        wkept.append(x_)", f"{var} = wkept"])


COMPILED_VALUES = re.compile(r"\b_k\d+\b")   # (the values a compiled expression's source names)
NAME_READS = re.compile(r"\bf\.env\[(_k\d+)\]")
SEAT = re.compile(r"\bf\.me\b")
NUMBER = re.compile(r"-?\d+")
FRAME = re.compile(r"\bf\b")
WHERE_FRAME = re.compile(r"\bwf\b")   # (a `where=` read in the binding frame: `_where_lines`)


def _inlined(fn, const, frame: str, item: str = "") -> str | None:
    """`fn(g, FRAME)` written as the expression the compiler wrote `fn` from (`Compiler.fused`:
    its `source`, the values it names in `names`), read in the frame named `frame`, its values
    named in this module's namespace; `item`: the local that holds what the frame binds to
    `it`, read there.  None for a function of no such source (it is called).  (A guard or a
    `where=` asked at every turn: no call of a function that only says this.)"""
    text, values = getattr(fn, "source", None), getattr(fn, "names", None)
    if text is None or values is None:
        return None
    if item:
        text = NAME_READS.sub(lambda m: item if values[m.group(1)] == "it" else m.group(0), text)
    text = COMPILED_VALUES.sub(lambda m: const(values[m.group(0)]), text)
    return FRAME.sub(frame, text)


def _pool_lines(var: str, p: Param, content: Content, zone_base: list[int], const, filters: bool = True) -> list[str]:
    """The lines that set `var` to a shared list's candidates: `_pool`'s expression, or, for a
    list filtered by printed attributes alone (`filters`), `selection.kept_in`'s loop written in
    (a draw may filter a zone so at every turn: no call per list)."""
    pool, matching = _pool(p, content, zone_base, const)
    if matching is None:
        return [f"{var} = {pool}"]
    if not filters:
        return [f"{var} = kept_in({pool}, {matching})"]
    return [f"{var} = []", f"for x_ in {pool}:", f"    if x_ in {matching}:", f"        {var}.append(x_)"]


def _pool(p: Param, content: Content, zone_base: list[int], const) -> tuple[str, str | None]:
    """The candidates of a shared list (`selection.zone_pool`), written out for the common
    cases: an expression for the items, and the name of the set of items its printed
    attributes keep (None: all of them are candidates)."""
    sel = p.selector
    zone = sel.zone
    plain = sel.colors is None and sel.kind is None and sel.age is None and sel.deck is None
    if zone == STRUCTURE:
        pool = "accessible(g)"
    elif zone == STRUCTURE_ALL:
        return f"zone_pool(g, {const(sel)}, {int(zone)}, me)", None
    elif content.zones[zone].per_player:
        if sel.owner != "me":
            return f"zone_pool(g, {const(sel)}, {int(zone)}, me)", None
        pool = f"zones[{int(zone_base[zone])} + me]"
    else:
        pool = f"zones[{int(zone_base[zone])}]"
    return pool, None if plain else const(sel.matching(content.items))
