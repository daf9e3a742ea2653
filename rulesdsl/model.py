"""The compiled form of a content set: what the interpreter runs.

Expressions and effects are Python closures taking (game, frame); everything else is plain
data indexed by integers so the interpreter's hot paths do list lookups, not dict lookups.
"""

from __future__ import annotations

from typing import Any, Callable

import attrs

from .diagnostics import Span

Fn = Callable[[Any, Any], Any]      # (game, frame) -> value
Step = Callable[[Any, Any], None]   # (game, frame) -> None; may push frames or set a decision

STRUCTURE = -2      # pseudo zone id: the accessible cards of the current structure
STRUCTURE_ALL = -3  # pseudo zone id: every card of the current structure, covered or not


class Phrase:
    """A text written when first asked for, then kept (`Block.phrases`)."""

    __slots__ = ("make", "text")

    def __init__(self, make: Callable[[], str]) -> None:
        self.make = make
        self.text: str | None = None

    def __call__(self) -> str:
        if self.text is None:
            self.text = self.make()
        return self.text


def said(phrase) -> str:
    """A phrase's text (`Block.phrases`): a str as it is, a function's text once written."""
    return phrase if phrase.__class__ is str else phrase()


def resolved(phrases: list) -> list[str]:
    """`phrases` with each one still to be written (a function the compiler left, see `Block`)
    replaced by its text, in place; the list itself."""
    for k, phrase in enumerate(phrases):
        if phrase.__class__ is not str:
            phrases[k] = phrase()
    return phrases


@attrs.define
class Block:
    steps: list[Step]
    # The English `explain` gives each statement, in order: written when first read (`texts`),
    # not when compiling (it was a third of compiling, and no game reads it).  Each entry is a
    # str, or a `Phrase` that writes it.
    phrases: list
    # The names its steps read from their frame (action parameters, `chosen`, `event`, aliases):
    # a saved frame of this block must hold them (persistence.check_state).
    reads: frozenset[str] = frozenset()
    # The block that counts the rounds of a `repeat` (`Compiler.do_repeat`): its frame's stop is
    # the number of rounds left, not the end of its one step.
    rounds: bool = False
    # The names of its frame that hold an item while it runs (action parameters, `chosen` and the
    # alias of an item choice around it), as opposed to a space, a player or a count: the search
    # redraws an unseen item with the names bound to it (`search.determinize`).
    items: frozenset[str] = frozenset()

    @property
    def texts(self) -> list[str]:
        return resolved(self.phrases)


@attrs.frozen
class Cost:
    coins: int
    resources: tuple[int, ...]   # count per resource index
    coins_fn: Fn | None = None   # a computed coin cost, when the card says so
    # (resource index, count) of the resources it asks for, only those: most costs name one or two
    needs: tuple[tuple[int, int], ...] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "needs", tuple((r, n) for r, n in enumerate(self.resources) if n))


@attrs.frozen
class Selector:
    zone: int                # zone id or STRUCTURE
    owner: str | Fn          # "me", "opponent", "all", "most" or a player expression
    colors: frozenset[str] | None = None
    kind: str | None = None
    age: int | None = None
    deck: int | None = None
    text: str = ""
    where: Fn | None = None            # a condition on `it`, the candidate item
    more_zones: tuple[int, ...] = ()   # further zones to draw candidates from
    named: Fn | None = None            # only items with the name of this item (`named=card`)
    key: tuple[str, Fn] | None = None  # `where=` as `it.ATTR == VALUE`, VALUE not reading `it`
    # The runtime's own: the ids of the items `matches` holds for, made when first needed (the
    # attributes it tests are printed on the items, so the set never changes).
    cache: dict = attrs.field(factory=dict, init=False, eq=False, repr=False)
    # Whether it filters by printed attributes at all (colour, kind, age, deck): most do not.
    printed: bool = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "printed", not (self.colors is None and self.kind is None and self.age is None
                                                 and self.deck is None))

    def matching(self, items: list["ItemDef"]) -> frozenset[int]:
        found = self.cache.get("items")
        if found is None:
            found = self.cache["items"] = frozenset(it.id for it in items if self.matches(it))
        return found

    def matches(self, item: "ItemDef") -> bool:
        return ((self.colors is None or item.color in self.colors) and (self.kind is None or item.kind == self.kind)
                and (self.age is None or item.age == self.age) and (self.deck is None or item.deck == self.deck))


@attrs.define
class Trigger:
    event: str
    by: str                   # "me", "opponent" or "any"
    colors: frozenset[str] | None
    kind: str | None
    via: str | None
    block: int
    item: int                 # -1 for a rule
    phrase: Any = ""          # its English: a str, or a function writing it (`Block.phrases`)
    zone: str | None = None   # zone events (`cube_added`, ...): only those of this zone

    @property
    def text(self) -> str:
        if self.phrase.__class__ is not str:
            self.phrase = self.phrase()
        return self.phrase


@attrs.define
class ItemDef:
    id: int
    name: str
    kind: str
    span: Span
    color: str | None = None
    age: int | None = None
    deck: int = -1                      # starting zone id, -1: none
    cost: Cost | None = None
    chain_from: tuple[str, ...] = ()
    chain_gives: tuple[str, ...] = ()
    produce: tuple[int, ...] = ()        # fixed production per resource index
    produce_one_of: tuple[tuple[int, ...], ...] = ()
    trade_fixed: tuple[tuple[int, int], ...] = ()   # (resource index, price)
    discounts: tuple[tuple[int, str | None, str | None, bool], ...] = ()  # (count, kind, color, or the coins)
    science: tuple[str, ...] = ()
    effect: int = -1                     # block run when the item takes effect (built, acquired, reached)
    triggers: list[Trigger] = attrs.Factory(list)
    points: list[tuple[Fn, Any]] = attrs.Factory(list)   # (value, its English: a phrase, `said`)
    side: int = -1                       # military tokens
    space: int = -1
    value: int = 0                       # a number the rules may read (`item.value`)
    modifiers: tuple[tuple[str, int], ...] = ()   # named amounts the rules read with modifier(NAME)
    copy_science: bool = False           # gives the symbols of the item it is attached to
    blocks_pawn: bool = False            # the conflict pawn cannot enter its space
    chain_price: int | None = None       # cards with a chain symbol cost this many coins instead
    trade_discounts: tuple[tuple[int, int], ...] = ()   # (resource index, coins off, never below 1)
    borrow_chains: bool = False          # the opponent's chain symbols count as its owner's
    claim_block: int = -1                # run when the item is claimed (chosen in a draft)
    side_prices: tuple[tuple[str, int, int], ...] = ()   # (left|right, resource index, price) from a neighbour
    part_of: int = -1                    # the item it belongs to (a stage to its board)
    has_statics: bool = False
    # Derived by the compiler, for what a city's stats take in (`costs.add_item`): what `produce`
    # makes, as (resource index, amount) pairs; whether the item has any of the statics that
    # change prices rather than what is made (fixed prices, discounts, modifiers, ...).
    produced: tuple[tuple[int, int], ...] = ()
    has_price_statics: bool = False
    phrases: list = attrs.Factory(list)   # English for `explain`, in source order (`Block.phrases`)

    @property
    def texts(self) -> list[str]:
        return resolved(self.phrases)


@attrs.define
class Param:
    name: str
    selector: Selector
    # Params of any action whose selectors pick alike share a number (-1: a selector with a
    # `where`, `named` or more zones): their candidates are worked out once per decision.
    pool: int = -1


@attrs.define
class ActionDef:
    id: int
    name: str
    params: list[Param]
    requires: list[Fn]
    paid: list[int]          # indexes of params the action builds without `free` (their cost must be met)
    pays: list[Fn]           # coin amounts the action's `pay` statements take
    block: int
    span: Span
    phrases: list = attrs.Factory(list)   # English for `explain` (`Block.phrases`)
    shared_pools: bool = False   # two params may draw the same item (`compiler.overlapping`): checked
    guards: list[Fn] = attrs.Factory(list)   # requirements that read no parameter: checked once per turn
    before_turn: bool = False    # optional, at the start of a turn; the player then takes a normal action
    # Indexes of the params its effects move (build, discard, move...): in a simultaneous round,
    # two seats cannot both take one item (`turns.resolve_round`); looking at one can be shared.
    takes: tuple[int, ...] = ()
    # Whether its effects discard what it takes (`discard card`: Duel's discard, the classic
    # game's sell): what a scenario's `age N` plays on with, touching no city.
    discards: bool = False
    param_names: tuple[str, ...] = ()   # the params' names, in order (a binding's frame: dict(zip(names, items)))
    # Whether a binding is legal only after a check (a requirement, a cost, a payment, a list two
    # params share); derived from those when made: every round asks it of every seat.
    checked: bool = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        self.checked = bool(self.requires or self.paid or self.pays or self.shared_pools)

    @property
    def texts(self) -> list[str]:
        return resolved(self.phrases)


@attrs.define
class ZoneDef:
    id: int
    name: str
    per_player: bool
    active: bool
    public: bool
    spaces: int = 0      # > 0: items there stand on numbered spaces
    private: bool = False        # its owner sees it, the other players do not
    counters: int = 0            # > 0: each player has this many cubes to put on the spaces
    majority: bool = False       # a space is controlled by the player with strictly most cubes
    ruled_by: int = -1           # items here work for the controller of their space in that zone
    # How `explain` names it (`label="cards under the wonders"`); "" names it by its name.  Wording
    # only: not part of `Content.fingerprint`, so a label added or changed keeps saves loadable.
    label: str = ""

    @property
    def seen_by_none(self) -> bool:
        """No seat sees what lies here: the zone is not public, nor a seat's own private zone.
        (The compiler and the runtime both ask it of decks: one rule, one place.)"""
        return not self.public and not (self.per_player and self.private)


@attrs.define
class Layout:
    name: str
    face_up: list[bool]
    covered_by: list[list[int]]
    rows: list[list[int]]            # slot indexes per row, top row first
    columns: list[int]
    covers: list[list[int]] = attrs.Factory(list)   # inverse of covered_by
    marks: dict[str, list[int]] = attrs.Factory(dict)   # named sets of slots (where tokens go)
    row_of: list[int] = attrs.Factory(list)
    # The slots no card covers (where a card just dealt may be turned up), in order.
    uncovered: tuple[int, ...] = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        self.uncovered = tuple(slot for slot, on in enumerate(self.covered_by) if not on)


@attrs.define
class Track:
    capital: int = 9
    points: list[int] = attrs.Factory(list)
    zone: int = -1       # the zone of the pieces lying on the track (military tokens, blockers)


@attrs.define
class Content:
    name: str
    title: str
    layers: list[str]
    players: int
    resources: list[str]
    colors: list[str]
    science: list[str]
    chains: list[str]
    zones: list[ZoneDef]
    zone_index: dict[str, int]
    items: list[ItemDef]
    item_index: dict[str, int]
    blocks: list[Block]
    actions: list[ActionDef]
    rules: list[Trigger]
    triggers_by_event: dict[str, list[Trigger]]
    build_zone: dict[str, int]
    discard_zone: int
    trade_price: Fn | None
    scores: list[tuple[str, Fn]]
    tiebreak: str | None
    setup: int
    between_ages: int
    ages: list[int]
    age_names: list[str]
    layouts: dict[str, Layout]
    track: Track
    military_tokens: list[int]
    item_kinds: list[str] = attrs.Factory(list)
    min_players: int = 2                 # the counts the game supports (`players 3 7`);
    max_players: int = 2                 # `players` is the one this content is compiled for
    tables: dict[str, list[int]] = attrs.Factory(dict)
    sources: dict[str, str] = attrs.Factory(dict)
    # Designer invariants (`invariant "Name" { holds COND }`): (name, condition, span of the `holds`).
    invariants: list[tuple[str, Fn, Span]] = attrs.Factory(list)
    # How turns go, and the hooks around rounds and ages (block ids, -1: none).
    simultaneous: bool = False
    after_round: int = -1
    end_of_age: int = -1
    end_of_game: int = -1
    age_ends: Fn | None = None            # `age_ends when COND`; None: when the structure is empty
    trade_where: Fn | None = None         # `trade neighbours PRICE where=COND`: what a neighbour sells
    trade_base: int = 0                   # its price per unit; 0: the game trades with the bank only
    # `trade none`: nothing is bought, from the bank or from anyone; a unit a seat's own
    # production (its one-of producers, its discounts) does not cover makes a build impossible.
    trade_none: bool = False
    # Some action takes a parameter picked from items seats share (the structure, a zone of no
    # seat, or another seat's): in a round, two seats may choose the same item to take
    # (`turns.resolve_round`).
    shared_picks: bool = False
    # Something may come to lie on a card of the structure (`deal_onto_structure`, or `onto=` an
    # item the compiler cannot tell is elsewhere): what leaves the structure is looked at for it.
    structure_riders: bool = False
    # Whether a seat's points tell nothing a seat may not see: no points read a zone that is not
    # public or is private, and every zone in play is public.  Otherwise a seat's total, shown
    # during the game, would tell the others about its hand (RL observations show each seat
    # only its own).
    points_public: bool = True
    trade_where_static: bool = True       # the condition reads only the item: worked out once per item
    counters: tuple[str, ...] = ()        # `counter NAME`: a number per seat
    # How the play screens name a counter beside its number (`label="victory points"`): wording
    # only, not part of `fingerprint`; a counter without one is named by its name.
    counter_labels: dict[str, str] = attrs.Factory(dict)
    tiebreak_by: Fn | None = None         # `tiebreak_by EXPR`
    copied_names: frozenset[str] = frozenset()   # names several items share (`copies`)
    # Per item, whether its coming into or leaving a city can change other seats' prices; None:
    # any change may.  A tuple when a seat's prices depend only on its own city and on what the
    # seats produce (a bank trade price reading only `production`, or neighbour trade whose
    # `where=` reads only the item; coin costs reading only the buyer's own city): then only items
    # that produce, change what their owner pays its neighbours, or give chains where chains are
    # borrowed, reach the others' prices (or the owner's purchases from its neighbours).
    price_spread: tuple[bool, ...] | None = None
    # Whether the bank trade price may read the buyer's own city (false when it reads only
    # what other seats produce: Duel's `production(..., owner=opponent)`), so that a seat's own
    # production changing leaves its trade prices alone.
    trade_price_reads_own: bool = True
    # Whether the bank trade price of a resource reads what seats make of that resource only
    # (Duel's `production(resource, ...)`), so that a change in what a seat makes of some
    # resources leaves the others' prices alone.
    trade_price_by_resource: bool = False
    # The game options the cards read with `option(NAME)`: the only options a game accepts.
    options: tuple[str, ...] = ()
    # Per age, the layouts its `deal_structure` statements name (a save's layout must be one of
    # its age's, once the age has laid out its structure; empty: the age lays out none).
    age_layouts: list[frozenset[str]] = attrs.Factory(list)
    _fingerprint: str = attrs.field(default="", init=False, repr=False, eq=False)
    # The runtime's slot tables of this content (interpreter/core.py `slot_tables`), made by its first game.
    _slot_tables: dict | None = attrs.field(default=None, init=False, repr=False, eq=False)
    # What each game of this content takes from it (its slot tables and the functions written
    # for it, interpreter/game.py `Game._take_content`), as its first game took them: a Game
    # that plays nothing, made by that game.
    _shared: object | None = attrs.field(default=None, init=False, repr=False, eq=False)
    # The state of this content's games before set-up, but for their seeds, options and scripts
    # (interpreter/creation.py `initial_state`), made by its first game: each game plays on a copy.
    _start_state: object | None = attrs.field(default=None, init=False, repr=False, eq=False)
    # The functions that work out a decision's open actions, draw one at random and play a random
    # seat's turn (interpreter/spaces.py `Functions`), made by its first game.
    _open_spaces: tuple | None = attrs.field(default=None, init=False, repr=False, eq=False)
    # Each action's start, written for it (interpreter/starters.py), made by its first game.
    _starts: list[Callable] | None = attrs.field(default=None, init=False, repr=False, eq=False)
    # ... and its run in a simultaneous round (the same module, `round_starters_of`).
    _round_starts: list[Callable] | None = attrs.field(default=None, init=False, repr=False, eq=False)
    # Each item's arrival in a seat's city, written for it (interpreter/arrivals.py).
    _arrivals: list[Callable] | None = attrs.field(default=None, init=False, repr=False, eq=False)
    # Each item's price to a seat, written for it (interpreter/pricing.py).
    _pricers: list[Callable] | None = attrs.field(default=None, init=False, repr=False, eq=False)
    # The bank's price of a resource to a seat, its formula written in (the same module).
    _bank_price: Callable | None = attrs.field(default=None, init=False, repr=False, eq=False)
    # Per action, per item: the Action naming that item alone (None: not listed yet), as
    # `legal_actions` lists it (interpreter/legality.py `_listed`), made once per content.
    _named_one: list[list] | None = attrs.field(default=None, init=False, repr=False, eq=False)
    # The places of each slot of a zone nobody sees, by class, as the search last listed them for
    # that slot's items at that age (interpreter/search.py `unknown_items`).
    _unseen_places: dict = attrs.field(factory=dict, init=False, repr=False, eq=False)
    # The definition each block comes from (`procedure `may_move``), by block index.
    block_origins: list[str] = attrs.Factory(list)

    def zone(self, name: str) -> ZoneDef:
        return self.zones[self.zone_index[name]]

    def fingerprint(self) -> str:
        """A hash of everything a saved state indexes into: players, items, zones and their
        slots, blocks and their steps, actions, layouts, ages, the track.  Two contents with the
        same fingerprint can load each other's saves; one card set's save is refused by another.
        Paths and wording do not count, so the same folder named two ways, or a card file with
        a comment changed, still match."""
        if not self._fingerprint:
            import hashlib
            import json
            shape = {
                "players": self.players,
                "items": [[it.name, it.kind, it.deck] for it in self.items],
                "zones": [[z.name, z.per_player, z.spaces, z.counters] for z in self.zones],
                "blocks": [len(b.steps) for b in self.blocks],
                "actions": [[a.name, len(a.params)] for a in self.actions],
                "layouts": sorted([name, len(lay.face_up)] for name, lay in self.layouts.items()),
                "ages": len(self.ages),
                "track": [self.track.zone, self.track.capital],
            }
            if self.counters:
                shape["counters"] = list(self.counters)
            text = json.dumps(shape, sort_keys=True, separators=(",", ":"))
            self._fingerprint = hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]
        return self._fingerprint
