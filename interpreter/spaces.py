"""The open actions of a decision, as one function made for each content set.

Every decision asks which actions are open to the seat (`before_turn` and guards) and what each
parameter may take.  Asked through the generic loop over `Content.actions`, that costs more
than anything else a decision does, although for a given content the answer always takes the
same shape: Duel asks for the accessible structure cards three times and for the seat's
wonders once.  So for each content this module writes that shape out as Python source, once,
when the content's first game is made: the actions in order, each guard called directly, each
candidate list worked out once and named, its length read once.  The function returns what the
generic loop would (`legality.open_actions`), in the same order, with the same lists.

Nothing of the content's text reaches the source: actions, selectors, guards and item sets are
values the function reads from its namespace by generated names, and numbers (zone slots) are
written as integers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from rulesdsl.model import STRUCTURE, STRUCTURE_ALL, ActionDef, Content, Param

from . import core, selection, structure
from .state import Frame

if TYPE_CHECKING:
    from .game import Game

# (action, its parameters' candidate lists, how many bindings they make), actions with none left out
Spaces = list[tuple[ActionDef, list[list[int]], int]]
OpenSpaces = Callable[["Game", int], tuple[Spaces, int]]


def open_spaces_of(content: Content) -> OpenSpaces:
    """The content's `open_spaces`, made by its first game and shared by the rest."""
    fn = content._open_spaces
    if fn is None:
        tables = content._slot_tables or core.slot_tables(content)
        fn = content._open_spaces = make_open_spaces(content, tables["zone_base"])
    return fn


def make_open_spaces(content: Content, zone_base: list[int]) -> OpenSpaces:
    """`open_spaces(g, me)`: the open actions of seat `me` with their candidates and the number of
    bindings each makes (those making none left out), and the total.  While a simultaneous
    round waits, a seat's answer is kept with the round's candidates (`g._round_pools`)."""
    ns: dict[str, object] = {"Frame": Frame, "candidates": selection.candidates, "zone_pool": selection.zone_pool,
                             "accessible": structure.accessible}
    names: dict[int, str] = {}

    def const(value: object) -> str:
        name = names.get(id(value))
        if name is None:
            name = names[id(value)] = f"_k{len(names)}"
            ns[name] = value
        return name

    lines = ["def open_spaces(g, me):",
             "    st = g.state",
             "    waiting = st.flow == 'round'",
             "    if waiting:",
             "        key = ('spaces', me, st.before_used)",
             "        kept = g._round_pools.get(key)",
             "        if kept is not None:",
             "            return kept",
             "    zones = st.zones",
             "    before_used = st.before_used",
             "    fr = None",
             "    out = []",
             "    total = 0"]
    made: set = set()   # shared lists (`Param.pool`) already worked out on every path so far
    # A shared list that several actions need, first needed behind an action's conditions, is
    # worked out by the first open action that needs it (None until then).
    uses: dict[int, int] = {}
    for act in content.actions:
        for k in {p.pool for p in act.params if p.pool >= 0}:
            uses[k] = uses.get(k, 0) + 1
    lazy = set()
    for act in content.actions:
        if act.before_turn or act.guards:
            lazy |= {p.pool for p in act.params if p.pool >= 0 and uses[p.pool] > 1 and p.pool not in made}
        else:
            made |= {p.pool for p in act.params if p.pool >= 0}
    lines += [f"    p{k} = None" for k in sorted(lazy)]
    made = set()
    for act in content.actions:
        lines += _action(act, content, zone_base, const, made, lazy)
    lines += ["    result = (out, total)",
              "    if waiting:",
              "        g._round_pools[key] = result",
              "        for act, pools, _ in out:",
              "            g._round_pools[(act.id, me)] = pools   # what `legality.pools_of` keeps",
              "    return result"]
    source = "\n".join(lines) + "\n"
    exec(compile(source, f"<open actions of {content.name}>", "exec"), ns)
    fn = ns["open_spaces"]
    fn.source = source   # type: ignore[attr-defined]  (for a reader: `g._open_spaces.source`)
    return fn  # type: ignore[return-value]


def _action(act: ActionDef, content: Content, zone_base: list[int], const, made: set,
            lazy: set[int]) -> list[str]:
    """The lines that add `act` to `out` when it is open; `made`: what every path has made so
    far (shared lists by number, "frame" for the guards' frame), updated."""
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
        # One frame for every guard of the decision, made by the first that runs.
        if "frame" not in made:
            out.append(f"{indent}if fr is None:")
            out.append(f"{indent}    fr = Frame(0, 0, 0, me, {{}})")
            if not conditions:
                made.add("frame")  # type: ignore[arg-type]
        tests = " and ".join(f"{const(guard)}(g, fr)" for guard in act.guards)
        out.append(f"{indent}if {tests}:")
        indent += "    "
    # Lists are worked out inside the action's conditions: only an open action needs them.
    names = []
    local_made = set()
    for k, p in enumerate(act.params):
        if p.pool >= 0:
            var = f"p{p.pool}"
            if p.pool in lazy and p.pool not in made and p.pool not in local_made:
                body.append(f"if {var} is None:")
                body.append(f"    {var} = {_pool(p, content, zone_base, const)}")
                local_made.add(p.pool)
            elif p.pool not in made and p.pool not in local_made:
                body.append(f"{var} = {_pool(p, content, zone_base, const)}")
                local_made.add(p.pool)
        else:
            var = f"q{k}"
            body.append(f"{var} = candidates(g, {const(p.selector)}, me)")
        names.append(var)
    if not names:
        body.append("size = 1")   # an action of no parameter: one binding, the empty one
    elif len(names) == 1:
        body.append(f"size = len({names[0]})")
    else:
        body.append("size = " + " * ".join(f"len({n})" for n in names))
    body += ["if size:",
             f"    out.append(({const(act)}, [{', '.join(names)}], size))",
             "    total += size"]
    out += [indent + line for line in body]
    if not conditions and not act.guards:
        made |= local_made
    return out


def _pool(p: Param, content: Content, zone_base: list[int], const) -> str:
    """An expression for the candidates of a shared list (`selection.zone_pool`), written out
    for the common cases."""
    sel = p.selector
    zone = sel.zone
    plain = sel.colors is None and sel.kind is None and sel.age is None and sel.deck is None
    if zone == STRUCTURE:
        pool = "accessible(g)"
    elif zone == STRUCTURE_ALL:
        return f"zone_pool(g, {const(sel)}, {int(zone)}, me)"
    elif content.zones[zone].per_player:
        if sel.owner != "me":
            return f"zone_pool(g, {const(sel)}, {int(zone)}, me)"
        pool = f"zones[{int(zone_base[zone])} + me]"
    else:
        pool = f"zones[{int(zone_base[zone])}]"
    if plain:
        return pool
    return f"[i for i in {pool} if i in {const(sel.matching(content.items))}]"
