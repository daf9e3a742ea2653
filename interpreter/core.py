"""Where items are: a game's zone slots, moving an item from one slot to another, and the caches
derived from what lies where (each player's stats and prices, the structure's cover counts),
cleared by the moves that change them.

A zone that exists once per player has one slot per player; one more slot holds the structure
(the cards laid out this age).  The slot tables are derived from the content once, by its first game, and shared.
Every function here takes the game first: they are the game's methods, kept in one module per
concern (see `interpreter/game.py`).
"""

from __future__ import annotations

from bisect import insort
from operator import countOf
from types import MappingProxyType
from typing import TYPE_CHECKING

from rulesdsl.model import Content

from . import events, knowledge, machine, trade
from .costs import add_item, copy_stats
from .state import NOWHERE, Frame

if TYPE_CHECKING:
    from .game import Game


# What a slot is, beside a place for items (`slot_tables`, "slot_kind"): flags.
STRUCTURE_SLOT = 1   # the structure: its cards' places, cover counts, accessible cards
ACTIVE_SLOT = 2      # a seat's items in play: its stats and the prices they reach
RULED_SLOT = 4       # a zone ruled by another's spaces: whose its items are depends on control
WATCHED_SLOT = 8     # an observer notes the items that arrive (`watch`): set on one game's own table


def lay_out_slots(g: Game, content: Content) -> None:
    """The slot tables of `content` (see `slot_tables`), worked out once per content and shared,
    read-only, by its games."""
    tables = content._slot_tables
    if tables is None:
        tables = content._slot_tables = slot_tables(content)
    for name, value in tables.items():
        setattr(g, name, value)


def slot_tables(content: Content) -> dict:
    """Which zone and owner each slot is, which slots count as in play, which is the discard
    pile, which zones are ruled by another's spaces, and other tables derived from the content."""
    t: dict = {}
    zone_base: list[int] = []
    slot_zone: list[int] = []
    slot_owner: list[int] = []
    for z in content.zones:
        zone_base.append(len(slot_zone))
        for p in range(content.players if z.per_player else 1):
            slot_zone.append(z.id)
            slot_owner.append(p if z.per_player else -1)
    t["zone_base"], t["slot_zone"], t["slot_owner"] = zone_base, slot_zone, slot_owner
    # The seats, as one range made once: making a `range` costs some 700 machine instructions.
    t["seats"] = range(content.players)
    t["seat_list"] = list(range(content.players))   # (read-only: a list compares with a round's seats)
    # Each seat's next, where seats take turns (`seats.left_of`), read at the end of every turn
    # (the seat before the first, -1, is the last: its next is the first, as `% players` says).
    t["next_seat"] = tuple((p + 1) % content.players for p in range(content.players))
    # Each seat's previous (`seats.right_of`), which a card's `right` reads (the seat before
    # the first, -1, is the one before the last, as `% players` says).
    t["prev_seat"] = tuple((p - 1) % content.players for p in range(content.players))
    # The slot of each zone for each seat, read without a call (`slot`): a zone held once is
    # the same slot for every seat.
    t["zone_slots"] = [[zone_base[z.id] + (p if z.per_player else 0) for p in range(content.players)]
                       for z in content.zones]
    t["structure_slot"] = len(slot_zone)
    slot_zone += [-1]
    slot_owner += [-1]
    tz = content.track.zone
    t["track_slot"] = zone_base[tz] if tz >= 0 else -1
    t["n_slots"] = len(slot_zone)
    t["_resource_index"] = {r: i for i, r in enumerate(content.resources)}
    t["action_by_name"] = {a.name: a for a in content.actions}
    # Whose prices a change in seat p's city can change: every seat's, unless prices depend only
    # on a seat's own city and its neighbours' (trade with neighbours, no price formula, no
    # computed coin cost): then p's own and its two neighbours'.
    n = content.players
    # Whether every coin cost is a number (no cost reads the game).
    fixed_costs = not any(it.cost is not None and it.cost.coins_fn is not None for it in content.items)
    scoped = content.trade_base and content.trade_price is None and fixed_costs
    # What an expression read outside any block (a guard, a condition, a score, a coin cost, a
    # trade price) reads as its frame: one per seat, and per seat and resource for trade prices,
    # made once (a frame costs as much to make as a dozen calls).  Their names are read-only:
    # whatever would bind a name (`where=`) makes a frame of its own.
    empty = MappingProxyType({})
    t["_reading"] = [Frame(0, 0, 0, p, empty) for p in range(n)]
    t["_pricing"] = [[Frame(0, 0, 0, p, MappingProxyType({"resource": r})) for r in content.resources]
                     for p in range(n)]
    # The items whose coin cost is an expression, where every such expression reads the buyer's
    # own city alone (`Content.price_spread` is then worked out): forgotten from a seat's kept
    # prices at every change of its city, so the others can be kept as where costs are numbers.
    own_costs = content.price_spread is not None
    t["_computed_costs"] = frozenset(it.id for it in content.items if it.cost is not None and it.cost.coins_fn is not None) \
        if own_costs else frozenset()
    t["_price_scope"] = [sorted({p, (p - 1) % n, (p + 1) % n}) for p in range(n)] if scoped else None
    # Names several items share (`copies`): an action naming one must find which copy it means.
    t["copied_names"] = content.copied_names
    t["item_names"] = [it.name for it in content.items]   # by item number: names read without a call
    # An event's triggers whose colour and kind filters let an item of that kind and colour
    # through, by (event, kind, colour), or by event for an event without an item: filled as
    # events happen (events.event_frames), shared by the content's games like these tables.
    t["_hearing"] = {}
    # An attribute's value for every item, by name (as `selection.item_attr` reads it): filled as
    # `where=it.ATTR == VALUE` filters ask (selection.with_attr), shared like `_hearing`.
    t["_columns"] = {}
    t["slot_active"] = [z >= 0 and content.zones[z].active for z in slot_zone]
    t["active_slots"] = [[zone_base[z.id] + p for z in content.zones if z.active and z.per_player]
                         for p in range(content.players)]
    discard = content.discard_zone
    # The discard pile's slot (`zones.discard`; with no pile, where `zone_base[-1]` points, as ever).
    t["discard_slot"] = zone_base[discard] if zone_base else NOWHERE
    # Whether a slot is (a seat of) the discard pile: items arriving there are `discarded`.
    t["slot_discard"] = [discard >= 0 and z == discard for z in slot_zone]
    # Zones whose items work for whoever controls their space in another zone.
    t["ruled"] = {zone_base[z.id]: content.zones[z.ruled_by].name for z in content.zones if z.ruled_by >= 0}
    t["_price_reach"] = price_reach(content)
    # (A price of a resource reading that resource only, or no formula at all; what neighbours
    # sell depending on the items alone.)
    by_resource = content.trade_price is None or content.trade_price_by_resource
    static_sales = not content.trade_base or content.price_spread is not None
    t["_resource_reach"] = resource_reach(content) if by_resource and (fixed_costs or own_costs) and static_sales else None
    # The decks no seat sees (zones items start in, drawn from again): what a seat saw go into
    # one it knows lies there (knowledge.py).
    decks = knowledge.deck_zones(content)
    t["deck_slots"] = frozenset(slot for slot, z in enumerate(slot_zone) if z in decks)
    t["slot_seers"] = knowledge.slot_seers(content, slot_zone, slot_owner)
    # What a move into or out of each slot has to keep true beside the slot's items (`relocate`).
    t["slot_kind"] = [(STRUCTURE_SLOT if slot == t["structure_slot"] else 0) | (ACTIVE_SLOT if active else 0)
                      | (RULED_SLOT if slot in t["ruled"] else 0) for slot, active in enumerate(t["slot_active"])]
    t["_quiet_discard"] = quiet_discard(content, t["slot_kind"], t["structure_slot"], t["discard_slot"])
    t["_start_places"] = start_places(content, zone_base, t["n_slots"])
    t["_item_points"] = item_points(content)
    # Per item, the category `scoring.score` counts its points in (None: it has none).
    t["_point_category"] = [(it.color if it.kind == "card" and it.color else it.kind) if it.points else None
                            for it in content.items]
    t["block_stops"] = [len(b.steps) for b in content.blocks]   # where a frame of each block stops
    t["procedure_shapes"] = machine.procedure_shapes(content)
    t["_uncover_idle"] = events.riders_only(content, "uncovered")
    # Whether any item may stop the conflict pawn (`track.shields` looks for one at each step).
    t["_pawn_blockers"] = any(it.blocks_pawn for it in content.items)
    # The track's spaces a token of a seat's side may lie on: the pawn reaching any other space
    # takes no token (`track.shields` looks through the pieces only at these).
    t["_token_spaces"] = frozenset(it.space for it in content.items if it.side >= 0 and it.space > 0)
    return t


def quiet_discard(content: Content, slot_kind: list[int], structure_slot: int, pile: int) -> bool:
    """Whether a card discarded from the structure needs nothing beside leaving it and lying in
    the pile, whatever the card (`zones.discard_taken`): the structure and the pile are slots of
    no other kind (nothing watched, the pile no seat's city) and no rule hears the pile.  Fixed by
    the content and the slots a game watches: read at each such discard, not worked out there."""
    return (slot_kind[structure_slot] == STRUCTURE_SLOT and not slot_kind[pile]
            and "discarded" not in content.triggers_by_event)


def start_places(content: Content, zone_base: list[int], n_slots: int) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """Where every item lies before set-up (each in its deck, in content order): each item's
    slot and each slot's items, which every new game copies (`creation.initial_state`)."""
    zones: list[list[int]] = [[] for _ in range(n_slots)]
    loc = [NOWHERE] * len(content.items)
    for it in content.items:
        if it.deck >= 0:
            slot = zone_base[it.deck]
            zones[slot].append(it.id)
            loc[it.id] = slot
    return tuple(loc), tuple(tuple(z) for z in zones)


def item_points(content: Content) -> list[tuple[int, tuple]]:
    """Per item, its points as (the sum of those that are numbers, the functions of the others):
    what a seat's total adds up (`scoring.total`), the numbers once per change of its city."""
    out = []
    for it in content.items:
        fixed, variable = 0, []
        for fn, _ in it.points:
            value = getattr(fn, "value", None)
            if value is None:
                variable.append(fn)
            else:
                fixed += value
        out.append((fixed, tuple(variable)))
    return out


def price_reach(content: Content) -> list[tuple[int, ...] | None]:
    """Per item, which of a seat's kept prices its coming into or leaving the seat's city can
    change, where no coin cost reads the game (`dirty`): None, any (it produces, sets or
    lowers a price, gives a discount...); else the items its chains make free, none for an
    item that gives a price nothing at all (points, science symbols, amounts the rules read).
    What `economy.price` reads of a seat's stats decides it."""
    chained_by: dict[str, list[int]] = {}
    for it in content.items:
        for sym in it.chain_from:
            chained_by.setdefault(sym, []).append(it.id)
    reach: list[tuple[int, ...] | None] = []
    for it in content.items:
        if _made(it) or _adjusts_prices(it):
            reach.append(None)
        else:
            reach.append(tuple(sorted({i for sym in it.chain_gives for i in chained_by.get(sym, ())})))
    return reach


def resource_reach(content: Content) -> list[tuple[tuple[int, ...], frozenset[int]] | None]:
    """Per item that makes resources and gives nothing else a price reads: (the resources it
    makes, the items whose cost asks for one of them); None for any other item.  Where the bank
    trade price of a resource reads what seats make of that resource only
    (`Content.trade_price_by_resource`), such an item coming or going changes no seat's price
    of another resource, nor of an item that asks for none of them (`dirty`)."""
    needing: dict[int, set[int]] = {}
    for it in content.items:
        if it.cost is not None:
            for r, _ in it.cost.needs:
                needing.setdefault(r, set()).add(it.id)
    reach: list[tuple[tuple[int, ...], frozenset[int]] | None] = []
    for it in content.items:
        made = _made(it)
        if not made or _adjusts_prices(it) or it.chain_gives:
            reach.append(None)
        else:
            reach.append((tuple(sorted(made)), frozenset().union(*(needing.get(r, ()) for r in made))))
    return reach


def _made(it) -> set[int]:
    """The resources an item makes, alone or as one of several."""
    return {r for r, q in enumerate(it.produce) if q} | {r for one in it.produce_one_of for r in one}


def _adjusts_prices(it) -> bool:
    """Whether an item gives, beside resources and chains, something `economy.price` reads of a
    seat's stats: a set or lowered price, a discount, a chain price, borrowed chains."""
    return bool(it.trade_fixed or it.discounts or it.chain_price is not None or it.trade_discounts
                or it.borrow_chains or it.side_prices)


def clear_caches(g: Game) -> None:
    """Forget everything derived from the state (after the state was replaced or poked)."""
    players = g.content.players
    g._stats = [None] * players
    g._prices = [None] * players
    g._trade_formula = [None] * players   # the bank trade price formula's value per resource (economy.trade_price)
    # (one dict per seat over the content's range of seats: no range made per game, `slot_tables`)
    g._price_cache = [{} for _ in g.seats]
    g._offers = [None] * players
    g._trade_cache = [{} for _ in g.seats]
    g._cheapest_cache = [{} for _ in g.seats]
    g._round_pools = {}
    g._tally = [None] * g.n_slots   # per slot: colour -> how many of its items (selection.count_colors)
    g._sells = {}
    forget_structure(g)
    g._hosts = None            # the items something lies on (zones.carries; None: look when asked)
    g._placed = None           # items that may lie on another, on a space or face down (`placed`)
    g._ended_scores = None     # each seat's `score` when the last age ended (turns.finish)
    g._points = [None] * players   # per seat: its items' points kept by `scoring.total` (None: not yet)
    g._spare_frames = []       # frames of finished blocks, to be refilled (machine.frame)
    g._spare_decision = None   # a decision answered, to be refilled (decisions.made)
    g._binding_frame = Frame(0, 0, 0, 0, {})   # what a binding's requirements and the written draw's `where=` read
    g._arrivals = None         # items come into watched slots (`watch`; None: nobody watches)
    g._kept_legal = None       # the last legal actions listed, for `apply` (legality.was_listed)


def forget_structure(g: Game) -> None:
    """Forget what is kept of the structure (`clear_caches`; `search.determinize`, whose copy
    draws its face-down cards again)."""
    g._accessible = None
    g._cover_count = None
    g._covers = []             # what each structure slot's card covers (with the cover counts)
    g._open_slots = None       # structure slots whose card can be taken, in order (with the cover counts)
    g._structure_at = None     # each card still in the structure -> its place, and so how many (None: look when asked)
    g._to_uncover = None       # face-down slots nothing covers any more (None: look at every slot)


def copy_caches(g: Game, src: Game) -> None:
    """What `clear_caches` forgets, taken from `src`, whose state `g`'s state is a copy of
    (`Game.clone`): a copy starts with what its original knows, not with nothing (the greedy
    agent scores every action on a copy, which would work out the seats' stats, the structure's
    cover counts and the prices afresh each time).  What the runtime changes in place is copied;
    what it only ever replaces is shared, and so are the seats' stats until either game takes
    an item into them (a trial rarely changes more than one seat's).  The colour tallies are
    not taken: a copy counts the few it is asked for again."""
    for s in src._stats:   # (shared until either game takes an item in: `Stats.cloned`)
        if s is not None:
            s.cloned = True
    g._stats = src._stats[:]
    g._prices = [None if row is None else row[:] for row in src._prices]
    g._trade_formula = [None if row is None else row[:] for row in src._trade_formula]
    g._price_cache = list(map(dict, src._price_cache))   # (map: no comprehension's function to make)
    g._offers = src._offers[:]   # (an offer is replaced, never changed: `trade.offer_after_arrival`)
    g._trade_cache = list(map(dict, src._trade_cache))
    g._cheapest_cache = list(map(dict, src._cheapest_cache))
    g._round_pools = {}   # (a round's candidates: worked out again, as after `clear_caches`)
    g._tally = [None] * len(src._tally)   # (counted again when asked: a copy asks for few, and the copies cost more)
    g._sells = dict(src._sells)
    g._accessible = None if src._accessible is None else src._accessible[:]
    g._cover_count = None if src._cover_count is None else src._cover_count[:]
    g._covers = src._covers   # (made with the cover counts, read only)
    g._open_slots = None if src._open_slots is None else src._open_slots[:]
    g._structure_at = None if src._structure_at is None else dict(src._structure_at)
    g._to_uncover = None if src._to_uncover is None else src._to_uncover[:]
    g._hosts = None if src._hosts is None else set(src._hosts)
    g._placed = None if src._placed is None else set(src._placed)
    g._ended_scores = None if src._ended_scores is None else [dict(scores) for scores in src._ended_scores]
    g._points = src._points[:]   # (each replaced, never changed)
    g._spare_frames = []
    g._spare_decision = None
    # (a frame every use fills afresh, block, seat and names, and nothing keeps: shared)
    g._binding_frame = src._binding_frame
    g._arrivals = None   # (a copy's moves are not the watched game's)
    g._kept_legal = None   # (listed for the original's state)


def take_prices(g: Game, src: Game, seats: list[int]) -> None:
    """The prices `src` has worked out for these seats, and their purchases from neighbours,
    kept by `g` as well: `src` is a copy of `g` that differs from it in nothing a price reads
    (a simultaneous round's choices), never played."""
    for p in seats:
        g._price_cache[p].update(src._price_cache[p])
        g._trade_cache[p].update(src._trade_cache[p])
        g._cheapest_cache[p].update(src._cheapest_cache[p])


def name(g: Game, item: int) -> str:
    return g.content.items[item].name


def slot(g: Game, zone: int, owner: int) -> int:
    return g.zone_slots[zone][owner]


def owner_of(g: Game, item: int) -> int:
    """The seat whose slot holds the item (-1: none, or no item)."""
    if item < 0:
        return -1
    slot = g.state.loc[item]
    return g.slot_owner[slot] if slot >= 0 else -1


def relocate(g: Game, item: int, slot: int) -> None:
    """Move an item to a slot (NOWHERE: out of the game), keeping the caches true; no event."""
    st = g.state
    old = st.loc[item]
    if g._round_pools:
        g._round_pools.clear()
    if old >= 0:
        kind = g.slot_kind[old]
        if not kind:   # (most moves leave a slot with nothing more to keep: one test for them)
            st.zones[old].remove(item)
            tally = g._tally[old]
            if tally is not None:   # (kept up to date: a count is asked after most moves)
                tally[g.content.items[item].color] -= 1
        elif kind == STRUCTURE_SLOT:   # (the structure alone, most moves that leave a kind: its own way out)
            _leave_structure(g, st, item, st.zones[old])
        else:
            _left_kinds(g, st, item, old, kind)
    marked = g._placed
    if marked is None:
        marked = placed_items(g)
    if item in marked:   # (one test for the three: most items lie on nothing, on no space, face up)
        marked.discard(item)
        if st.attached.pop(item, -1) >= 0:
            g._hosts = None   # (it lay on an item: which items carry something is looked at again)
        st.positions.pop(item, None)
        if item in st.hidden:
            st.hidden.remove(item)
            if st.known:   # (it leaves its place: what a seat knew of it there goes)
                st.known.pop(item, None)
        elif st.known and item in st.known:   # (known in a deck, and it leaves it: the same)
            del st.known[item]
    st.loc[item] = slot
    if slot >= 0:
        st.zones[slot].append(item)
        tally = g._tally[slot]
        if tally is not None:
            color = g.content.items[item].color
            tally[color] = tally.get(color, 0) + 1
        kind = g.slot_kind[slot]
        if kind:
            if kind == ACTIVE_SLOT:   # (a city alone, most arrivals of a kind: one more test)
                dirty(g, g.slot_owner[slot], item, slot)
            else:
                _arrived_kinds(g, item, slot, kind)


def riders_of(g: Game, host: int) -> list[int]:
    """The items lying on `host`, in the order they were put there (looked for only when
    something lies on it: most items carry nothing)."""
    attached = g.state.attached
    return riders(attached, host) if attached and carries(g, host) else []


def rider_count(g: Game, host: int) -> int:
    """How many items lie on `host` (a card's `riders(X)`): counted only where something lies on
    it (`carries`, inline), where most items carry nothing (every host compared with `host` the
    generic way costs more than the call); `countOf` walks the hosts without making a list."""
    attached = g.state.attached
    return countOf(attached.values(), host) if attached and host in (g._hosts or hosts_of(g)) else 0


def carries(g: Game, host: int) -> bool:
    """Whether anything lies on `host`: asked of the set of the items something lies on, kept
    until an item comes to lie on one or leaves it (`relocate`).  (`host in
    attached.values()` compares the host with every value the generic way, some hundred
    machine instructions each, and a game with tokens on its cards asks it every discard.)"""
    hosts = g._hosts
    if hosts is None:
        hosts = hosts_of(g)
    return host in hosts


def hosts_of(g: Game) -> set[int]:
    """The items something lies on, worked out and kept (`carries`).  (Never empty while
    something lies on an item: a caller that has seen `attached` hold something may read
    `g._hosts or hosts_of(g)`.)"""
    hosts = g._hosts = set(g.state.attached.values())
    return hosts


def leaving_with(g: Game, item: int) -> list[int] | None:
    """What lies on `item` where it is a card of the structure: what leaves the structure with it
    (`economy.taken_along`); None where it is no such card or carries nothing.  Asked only in
    content that may lay items on structure cards (`Content.structure_riders`, which the
    callers test first: no call on the hot path of other content)."""
    st = g.state
    # (`carries`, inline: asked at every card that leaves, most of which carry nothing; the kept
    # set is never empty while something lies on an item)
    return riders(st.attached, item) if st.attached and st.loc[item] == g.structure_slot \
        and item in (g._hosts or hosts_of(g)) else None


def riders(attached: dict[int, int], host: int) -> list[int]:
    """The items `attached` lays on `host`, in order."""
    found = []   # (a loop: a comprehension is a function made at every call)
    for x, h in attached.items():
        if h == host:
            found.append(x)
    return found


def placed_items(g: Game) -> set[int]:
    """The items that lie on another item, on a space of a zone, face down, or known to a seat
    in a deck (knowledge.py), kept (`g._placed`) until a move takes them off: the places where
    any of these is set add the item (`placed`), so the set may hold more than those items,
    never fewer."""
    st = g.state
    found = g._placed = {*st.attached, *st.positions, *st.hidden, *st.known}
    return found


def placed(g: Game, item: int) -> None:
    """`item` was put on another item, on a space or face down (`placed_items`)."""
    if g._placed is not None:
        g._placed.add(item)


def _left_kinds(g: Game, st, item: int, old: int, kind: int) -> None:
    """What `relocate` keeps true for an item leaving a slot of these kinds, the item taken out
    of the slot's items first."""
    if kind & STRUCTURE_SLOT:
        _leave_structure(g, st, item, st.zones[old])   # (the structure's slot has no colour tally)
    else:
        st.zones[old].remove(item)
        tally = g._tally[old]
        if tally is not None:
            tally[g.content.items[item].color] -= 1
    if kind & ACTIVE_SLOT:
        dirty(g, g.slot_owner[old], item)
    if kind & RULED_SLOT and _controlled(g, old):
        for p in g.seats:
            dirty(g, p)


def _arrived_kinds(g: Game, item: int, slot: int, kind: int) -> None:
    """What `relocate` keeps true for an item arriving in a slot of these kinds."""
    if kind & RULED_SLOT and _controlled(g, slot):
        for p in g.seats:
            dirty(g, p)
    if kind & ACTIVE_SLOT:
        dirty(g, g.slot_owner[slot], item, slot)
    if kind & WATCHED_SLOT and g._arrivals is not None:
        g._arrivals.append(item)


def watch(g: Game, slots: set[int]) -> list[int]:
    """From now on, every item that comes into one of these slots, by whatever move, is noted
    in the list returned, in the order they come (an item that came and went is noted too;
    the caller empties the list when it has read it).  For an observer of one game played on
    (the balance lab's tracker): a copy of the game notes nothing; moves into other slots pay
    nothing for it."""
    g.slot_kind = [kind | WATCHED_SLOT if slot in slots else kind for slot, kind in enumerate(g.slot_kind)]
    g._quiet_discard = quiet_discard(g.content, g.slot_kind, g.structure_slot, g.discard_slot)
    g._arrivals = []
    return g._arrivals


def _controlled(g: Game, slot: int) -> bool:
    """Whether a seat controls a space of the zone that rules `slot`'s items: while none does
    (as a game is set up, before any cube lies there), an item coming or going there is
    nobody's, and no seat's city changes."""
    ctrl = g.state.control.get(g.ruled[slot])
    # (a space nobody controls holds -1: a count, where `max` costs a call of its own)
    return ctrl is not None and ctrl.count(-1) < len(ctrl)


def _leave_structure(g: Game, st, item: int, held: list[int]) -> None:
    """An item leaves the structure's slot: out of the slot's items `held`, then a card of the
    structure leaves its place (the places it covered may open, or be turned up), an item lying
    on one just goes.  (No colour tally is kept of the structure's slot: `count(ZONE,
    color=...)` reads a seat's own slot of a zone.)"""
    # (Looked for from the end: the slot holds the structure's cards in their order, the items
    # lying on them after, and the card taken is mostly among the last places; a miss compares
    # ints the generic way, some eighty machine instructions each.)
    held.reverse()
    try:
        held.remove(item)
    finally:   # (an item not there fails as `remove` fails, the slot's order as it was)
        held.reverse()
    # (Where each card lies, kept: a scan of the structure compares ints through the generic
    # comparison, a dozen machine instructions or more for each card it passes.)
    at = g._structure_at
    if at is None:
        at = g._structure_at = _places(st.structure)
    position = at.pop(item, -1)
    if position < 0:   # an item lying on a card of the structure, not one of its cards
        return
    st.structure[position] = -1   # (the cards left are the places kept: `structure.exhausted` counts them)
    g._accessible = None
    cover = g._cover_count
    if cover is not None:
        turn = g._to_uncover
        opened = g._open_slots   # (kept with the cover counts: structure.accessible)
        if opened is not None:
            try:
                opened.remove(position)
            except ValueError:   # a card taken before it could be taken from the structure
                pass
        for under in g._covers[position]:   # (set with the cover counts: `structure.covering`)
            left = cover[under] - 1   # (through a local: the count is not read back from the list)
            cover[under] = left
            if not left:
                if not st.face_up[under]:
                    if turn is not None:
                        turn.append(under)
                elif opened is not None and st.structure[under] >= 0:
                    insort(opened, under)


def _places(structure: list[int]) -> dict[int, int]:
    """Each card of the structure -> its place in it."""
    # (Made in C, the empty places' -1 taken out after: a comprehension costs some fifteen
    # bytecodes a place, and every structure dealt is looked at so.)
    at = dict(zip(structure, range(len(structure))))
    at.pop(-1, None)
    return at


def dirty(g: Game, p: int, item: int = -1, arrived: int = -1) -> None:
    """Seat p's city changed (by `item` moving, -1: unknown; into slot `arrived`, -1: it left):
    its stats take the item in, or are forgotten; the prices the change can reach are forgotten:
    p's own, and other seats' where they depend on p's city."""
    known = item >= 0 and p >= 0   # (p -1: a zone no seat owns)
    points = g._points[p]
    if points is not None:   # (p -1 forgets the last seat's: only worked out again)
        if known and arrived >= 0:   # (an item arriving adds its points; one leaving, worked out afresh)
            n, fns = g._item_points[item]
            if n or fns:
                g._points[p] = (points[0] + n, points[1] + fns)
        else:
            g._points[p] = None
    s = g._stats[p]
    if s is not None:
        it = g.content.items[item] if known else None
        if it is not None and arrived < 0:
            # An item leaving: the stats are worked out afresh, unless it gave nothing to them
            # (they count only items with statics; a copier reads its host, not the host's place).
            if it.has_statics or it.copy_science:
                g._stats[p] = None
        elif it is None or it.copy_science or it.produce_one_of and g.content.trade_base and (
                g.ruled or arrived != g.active_slots[p][-1]):
            # (Stats list the one-of producers in zone order, ruled items last, and neighbour
            # trade reads that order: an arrival that would not come last is counted afresh.)
            g._stats[p] = None
        elif it.has_statics:
            if s.cloned:   # (held by a clone too: this game's own copy takes the item)
                s = g._stats[p] = copy_stats(s)
            add_item(s, it)
    shared = g.content.price_spread
    if shared is not None and known and not shared[item]:
        # Only p's own prices: what it sells and what it pays its neighbours stay as they were,
        # and so does its price of each resource unless the item sets or lowers one; an item
        # that adds nothing to what a seat's prices read (its stats) changes none, but those
        # of the items whose coin cost reads p's city (`_computed_costs`).
        reach = g._price_reach[item]
        if reach is None:
            if _adjusts_trade(g, item):
                g._prices[p] = None
            g._price_cache[p].clear()
            return
        if reach:   # (an item that gives chains: the prices of the items they make free)
            cache = g._price_cache[p]
            for chained in reach:
                cache.pop(chained, None)
        if g._computed_costs:
            _forget_items(g._price_cache[p], g._computed_costs)
        return
    scope = g._price_scope
    if scope is None and not g.content.trade_base:  # trade with the bank only (Duel): the hot case
        prices, formula, cache = g._prices, g._trade_formula, g._price_cache
        # A trade price that reads only the other seats' production (Duel's) stays as it was
        # for p itself, unless the item sets or lowers one of p's.
        own = p if known and not g.content.trade_price_reads_own else -1
        reaches = g._resource_reach   # (None unless a resource's price reads only that resource)
        if reaches is not None and known:
            reach = reaches[item]
            if reach is not None:
                _forget_resources(g, own, reach)
                if g._computed_costs:
                    _forget_items(g._price_cache[p], g._computed_costs)
                return
        for q in g.seats:
            cache[q].clear()
            if q != own:
                prices[q] = formula[q] = None
            elif _adjusts_trade(g, item):
                prices[q] = None
        return
    offered = g._offers[p]
    if offered is not None:
        # An item arriving adds what it sells; an item leaving, and it is worked out afresh.
        g._offers[p] = trade.offer_after_arrival(g, p, offered, item) if arrived >= 0 else None
    reaches = g._resource_reach
    reach = reaches[item] if reaches is not None and known else None
    for q in (g.seats if scope is None or p < 0 else scope[p]):
        if reach is None:
            g._prices[q] = g._trade_formula[q] = None
            g._price_cache[q].clear()
        else:   # (what p makes of some resources: only what asks for them, `resource_reach`)
            _forget_asking(g, q, reach)
        g._trade_cache[q].clear()
        g._cheapest_cache[q].clear()
    if reach is not None and g._computed_costs:
        _forget_items(g._price_cache[p], g._computed_costs)


def _forget_resources(g: Game, own: int, reach: tuple[tuple[int, ...], frozenset[int]]) -> None:
    """What a seat makes of some resources changed (`resource_reach`): every seat forgets its
    prices of the items that ask for one of them, and every seat but `own` (-1: none), whose
    price of a resource does not read its own city, its price of each of them."""
    for q in g.seats:
        if q != own:
            _forget_asking(g, q, reach)
        else:
            _forget_items(g._price_cache[q], reach[1])


def _forget_asking(g: Game, q: int, reach: tuple[tuple[int, ...], frozenset[int]]) -> None:
    """Seat q forgets its price of each resource in `reach` and of each item asking for one."""
    made, asking = reach
    _forget_items(g._price_cache[q], asking)
    kept, values = g._prices[q], g._trade_formula[q]
    for r in made:
        if kept is not None:
            kept[r] = -1
        if values is not None:
            values[r] = -1


def _forget_items(cache: dict[int, tuple], asking: frozenset[int]) -> None:
    """Drop the kept prices of these items: those kept are found in one call (most changes
    find few of them)."""
    for item in asking.intersection(cache):
        del cache[item]


def _adjusts_trade(g: Game, item: int) -> bool:
    """Whether an item sets or lowers its owner's price of a resource (`economy.trade_price`)."""
    it = g.content.items[item]
    return bool(it.trade_fixed or it.trade_discounts)


def relocate_all(g: Game, items: list[int], slot: int, left: list[int] | None = None) -> None:
    """`relocate` each of several items that lie in one slot, in order: the same outcome, with
    the slot they leave rebuilt once (dealing moves many cards at a time).  `left`: what that
    slot holds without them, in its order, where the caller knows it (a draw does: then every
    one of them lies there, drawn from it)."""
    st = g.state
    old = st.loc[items[0]] if items else -1
    # (Items leaving a city, the structure or a ruled zone, or coming into a city or a ruled
    # zone, move one by one: what such a move keeps true is `relocate`'s.)
    if (len(items) < 3 or old < 0 or g.slot_kind[old]
            or slot >= 0 and g.slot_kind[slot] & (ACTIVE_SLOT | RULED_SLOT | WATCHED_SLOT)
            or left is None and not _all_in(st.loc, items, old)):
        for item in items:
            relocate(g, item, slot)
        return
    if g._round_pools:
        g._round_pools.clear()
    gone = set(items)
    src = st.zones[old]
    src[:] = _left(src, gone) if left is None else left
    g._tally[old] = None
    # What `relocate` does for each item once it is out of its slot, where no city changes (a
    # deal): what it drops, then where it lies.
    # (Only the moved items that are there are looked for: in what order they go makes no
    # difference to what is left, and a deal moves many items, few of which are held there.)
    attached, positions, hidden = st.attached, st.positions, st.hidden
    if attached:   # (Duel: the cards tucked under wonders, for most of the game)
        for item in gone.intersection(attached):
            del attached[item]
            g._hosts = None
    if positions:
        for item in gone.intersection(positions):
            del positions[item]
    if hidden:
        for item in gone.intersection(hidden):
            hidden.remove(item)
    if st.known:   # (what a seat knew of one where it lay, face down or in a deck, goes)
        for item in gone.intersection(st.known):
            del st.known[item]
    loc = st.loc
    for item in items:
        loc[item] = slot
    if slot >= 0:
        st.zones[slot] += items
        g._tally[slot] = None


# (Loops, not `map` or `filterfalse` over a bound method: fewer machine instructions per item.)
def _all_in(loc: list[int], items: list[int], slot: int) -> bool:
    """Whether every one of `items` lies in `slot`."""
    for item in items:
        if loc[item] != slot:
            return False
    return True


def _left(src: list[int], gone: set[int]) -> list[int]:
    """The items of `src` not in `gone`, in order."""
    kept = []
    for item in src:
        if item not in gone:
            kept.append(item)
    return kept


def arrive_all(g: Game, items: list[int], slot: int, by: int, frames: list[Frame],
               left: list[int] | None = None) -> None:
    """`arrive` for several items that lie in one slot, in order (`left`: `relocate_all`'s)."""
    if by < 0 or not g.slot_discard[slot] or "discarded" not in g.content.triggers_by_event:
        relocate_all(g, items, slot, left)
        return
    for item in items:
        arrive(g, item, slot, by, frames)


def arrive(g: Game, item: int, slot: int, by: int, frames: list[Frame]) -> None:
    """Move an item as player `by`'s doing (-1: nobody's, as when a test sets a position up).
    The one place that notices items reaching the discard pile, however they are moved
    there: their `discarded` triggers are added to `frames`, which the caller schedules."""
    if by < 0 or not g.slot_discard[slot] or "discarded" not in g.content.triggers_by_event:
        relocate(g, item, slot)
        return
    owner = owner_of(g, item)  # the player whose zone it leaves
    relocate(g, item, slot)
    frames += events.event_frames(g, "discarded", by, item, fields={"owner": owner})
