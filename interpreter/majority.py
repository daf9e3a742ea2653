"""Cubes on the spaces of a zone (`counters=`): each player's cubes and supply, who controls
each space (a strict majority), and the items of a zone ruled by those spaces, which work for
the controller and change hands with control (`control_lost`, then `control_gained`).  One
expansion's board, kept apart from the core so that it can become a construct a game declares."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import core, events, machine, seats
from .state import Frame

if TYPE_CHECKING:
    from .game import Game


def cubes(g: Game, zone: int, player: int, space: int | None = None) -> int:
    grid = g.state.cubes.get(g.content.zones[zone].name)
    if grid is None or not 0 <= player < len(grid):
        return 0
    row = grid[player]
    if space is None:
        return sum(row)
    return row[space] if 0 <= space < len(row) else 0


def cube_supply(g: Game, zone: int, player: int) -> int:
    return g.state.supply.get(g.content.zones[zone].name, [0] * g.content.players)[player]


def control(g: Game, zone: int) -> list[int]:
    return g.state.control.get(g.content.zones[zone].name, [])


def controlled_sum(g: Game, zone: int, table, me: int) -> int:
    """The sum of `table`'s numbers over the spaces of `zone` that seat `me` controls (a space
    past the table's end counts nothing)."""
    total = 0
    k = 0   # (a loop: the sum of a generator is a function made and resumed per space)
    for c in control(g, zone):
        if c == me and k < len(table):
            total += table[k]
        k += 1
    return total


def controller(g: Game, zone: int, space: int) -> int:
    c = control(g, zone)
    return c[space] if 0 <= space < len(c) else -1


def add_cube(g: Game, zone: int, player: int, space) -> None:
    name = g.content.zones[zone].name
    st = g.state
    if name not in st.cubes or not isinstance(space, int) or not 0 <= space < len(st.cubes[name][player]) \
            or st.supply[name][player] <= 0:
        return
    st.supply[name][player] -= 1
    st.cubes[name][player][space] += 1
    frames = events.event_frames(g, "cube_added", player, fields={"zone": name, "space": space})
    _update_control(g, zone, frames, (space,))


def remove_cube(g: Game, zone: int, player: int, space) -> None:
    name = g.content.zones[zone].name
    st = g.state
    if name not in st.cubes or not isinstance(space, int) or not 0 <= space < len(st.cubes[name][player]) \
            or st.cubes[name][player][space] <= 0:
        return
    st.cubes[name][player][space] -= 1
    st.supply[name][player] += 1
    _update_control(g, zone, [], (space,))


def move_cube(g: Game, zone: int, player: int, src, dst) -> None:
    name = g.content.zones[zone].name
    st = g.state
    row = st.cubes.get(name, [[]])[player] if name in st.cubes else []
    if not (isinstance(src, int) and isinstance(dst, int) and 0 <= src < len(row) and 0 <= dst < len(row)) \
            or row[src] <= 0 or src == dst:
        return
    row[src] -= 1
    row[dst] += 1
    # A cube arriving on a space, placed or moved, is a cube added there.
    _update_control(g, zone, events.event_frames(g, "cube_added", player, fields={"zone": name, "space": dst}),
                    (src, dst) if src < dst else (dst, src))


def majority_of(grid: list[list[int]], space: int) -> int:
    """The seat with strictly the most cubes on a space, -1 where none has."""
    counts = []   # (a loop: a comprehension is a function made for every call)
    top = -1   # (the most, where it is above 0, found in the loop: no call of `max`)
    for row in grid:
        n = row[space]
        counts.append(n)
        if n > top:
            top = n
    return counts.index(top) if top > 0 and counts.count(top) == 1 else -1


def _update_control(g: Game, zone: int, frames: list[Frame], touched: tuple[int, ...]) -> None:
    """Recompute who controls the spaces whose cubes changed (`touched`, in order: control
    is the majority of a space's own cubes, so no other space can change hands); items ruled by
    those spaces change hands, and the players concerned get `control_lost` (first) and
    `control_gained` events."""
    z = g.content.zones[zone]
    if not z.majority:   # (cubes counted, no space controlled: the zone does not say `majority`)
        machine.schedule(g, frames)
        return
    st = g.state
    grid = st.cubes[z.name]
    ctrl = st.control[z.name]
    lost: list[Frame] = []
    gained: list[Frame] = []
    for space in touched:
        new = majority_of(grid, space)
        old = ctrl[space]
        if new == old:
            continue
        if old >= 0:
            lost += events.event_frames(g, "control_lost", old, fields={"zone": z.name, "space": space})
        ctrl[space] = new
        _handed_over(g, z.name, space, old, new)
        if new >= 0:
            gained += events.event_frames(g, "control_gained", new, fields={"zone": z.name, "space": space})
    machine.schedule(g, frames + lost + gained)


def _handed_over(g: Game, zone: str, space: int, old: int, new: int) -> None:
    """What a space of `zone` rules has changed hands from seat `old` to seat `new` (-1:
    nobody): only these two seats' cities change (`seats.ruled_owner`), as if the items on the
    space had left the one and come into the other (`core.dirty` of each item).  An empty
    space changes no city; where neighbours trade, or a price reads more than production, numbers
    and the buyer's own city (`Content.price_spread` None), both seats are worked out afresh."""
    st = g.state
    positions = st.positions
    held = [(slot, item) for slot, ruler in g.ruled.items() if ruler == zone
            for item in st.zones[slot] if positions.get(item) == space]
    if g.content.trade_base or (not held and g.content.price_spread is None):
        for p in (old, new):
            if p >= 0:
                core.dirty(g, p)
        return
    for slot, item in held:
        if old >= 0:
            core.dirty(g, old, item)
        if new >= 0:
            core.dirty(g, new, item, slot)


ruled_owner = seats.ruled_owner  # read by events and economy too: it lives with the other owner rules
