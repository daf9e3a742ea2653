"""The game: compiled content (shared, read-only) and a state (owned, mutable), and the façade
through which players, agents, tools and compiled closures use them.  It knows no card, wonder
or token by name: everything specific comes from `Content`.

The work is done by modules of plain functions taking the game first, one concern each:
core (slots, moving items, derived caches), machine (frames and the step budget), turns (the
turn flow), legality (legal actions), selection, seats, economy (prices, coins, building),
decisions, events, scoring, zones and dealing (moving items as effects do), structure, track
and majority (the boards of some games: a card structure, a conflict track, cubes and
control of spaces), undo and creation.  `Game` binds them as its methods:
a call costs what a method defined here would, and the turn loop pays nothing for the split.
What compiled closures may call is the closed table in interpreter/verbs.py.
"""

from __future__ import annotations

from typing import Callable, Iterable

from rulesdsl.model import Content
from rulesdsl.names import check_seat

from . import (arrivals, core, creation, dealing, decisions, economy, events, legality, machine, majority, pricing, scoring,
               seats, selection, spaces, starters, structure, track, turns, undo, zones)
from .actions import Action, IllegalAction
from .budget import DEFAULT_MAX_STEPS, EffectFailed
from .costs import Stats
from .persistence import copy_state
from .state import State


# What a game of a content shares with every other game of it: the content's functions
# (interpreter/starters.py, interpreter/spaces.py, interpreter/arrivals.py) and its slot tables
# (core.slot_tables).
_CONTENT_FUNCTIONS = ("_open_spaces", "_draw", "_draw_in_round", "_round_record", "_turn", "_round_free", "_starts",
                      "_round_starts", "_arrive", "_priced", "_bank_price")
_SLOT_TABLES = (
    "zone_base", "zone_slots", "seats", "seat_list", "next_seat", "prev_seat", "slot_zone", "slot_owner", "n_slots", "slot_active", "slot_kind", "slot_discard", "discard_slot", "active_slots", "deck_slots", "slot_seers",
    "structure_slot", "track_slot", "ruled", "item_names", "action_by_name", "copied_names",
    "_resource_index", "_hearing", "_columns", "_price_scope", "_price_reach", "_resource_reach", "_computed_costs", "_reading", "_pricing",
    "_start_places", "_item_points", "_point_category", "block_stops", "procedure_shapes",
    "_uncover_idle", "_quiet_discard", "_pawn_blockers", "_token_spaces",
)


def _copier(names: tuple[str, ...]):
    """A function setting each of `names` on one game from another, as straight assignments (a
    loop of `setattr` costs several times as much, and the greedy agent clones a game for every
    action it tries)."""
    source = "\n".join(["def take(copy, src):"] + [f"    copy.{name} = src.{name}" for name in names])
    namespace: dict = {}
    exec(compile(source, "<Game.clone's copier>", "exec"), namespace)   # (names of this module only)
    return namespace["take"]


# (a clone's content and max_steps are its original's)
_take_shared = _copier(("content", "max_steps", *_CONTENT_FUNCTIONS, *_SLOT_TABLES))
# (a new game's, from the game its content keeps: `Game._take_content`)
_take_content_of = _copier(("content", *_CONTENT_FUNCTIONS, *_SLOT_TABLES))


class Game:
    """One game: the compiled content (shared, read-only) and a state (owned, mutable)."""

    # Every attribute the runtime keeps has a slot: a slot is read by offset, where some forty
    # names would outgrow the keys an instance dict can share and make each read a dict lookup
    # (2.5 % of a random game's machine instructions).  `__dict__` stays for callers' own
    # attributes; tests/test_hot_paths.py holds a played game to none of its own.
    __slots__ = (
        "__dict__", "content", "state", "max_steps", "steps_left", "short_draws", "_origin_of", "_origin",
        *_CONTENT_FUNCTIONS, *_SLOT_TABLES,
        # derived from the state (core.clear_caches)
        "_stats", "_prices", "_trade_formula", "_price_cache", "_offers", "_trade_cache", "_cheapest_cache",
        "_round_pools", "_tally", "_sells", "_accessible", "_cover_count", "_covers", "_open_slots", "_structure_at",
        "_to_uncover", "_hosts", "_placed", "_ended_scores", "_points", "_spare_frames", "_binding_frame", "_arrivals",
        "_kept_legal", "_spare_decision",
    )

    # Derived from the state, rebuilt when it changes (core.clear_caches); private to the runtime.
    _stats: list[Stats | None]
    _prices: list[list[int] | None]
    _trade_formula: list[list[int] | None]
    _price_cache: list[dict[int, tuple[int, int, bool]]]
    _offers: list[tuple[list[int], list[tuple[int, ...]]] | None]
    _trade_cache: list[dict]
    _cheapest_cache: list[dict]
    _round_pools: dict
    _tally: list[dict[str | None, int] | None]
    _sells: dict
    _accessible: list[int] | None
    _cover_count: list[int] | None
    _covers: list[list[int]]
    _open_slots: list[int] | None
    _open_spaces: spaces.OpenSpaces   # the content's (interpreter/spaces.py)
    _draw: spaces.Draw
    _draw_in_round: spaces.RoundDraw | None
    _round_record: spaces.RoundRecord | None
    _round_free: spaces.RoundFree | None
    _turn: spaces.Turn | None
    _round_starts: list | None   # each action's run in a round (starters.round_starters_of); None: no rounds
    _arrive: list   # each item's arrival in a city, by item number (arrivals.arrivals_of)
    _priced: list   # each item's price to a seat, by item number (pricing.pricers_of)
    _bank_price: Callable[..., int]   # the bank's price of a resource to a seat (pricing.bank_price_of)
    _structure_at: dict[int, int] | None
    _to_uncover: list[int] | None
    _hosts: set[int] | None
    _placed: set[int] | None
    _ended_scores: list[dict[str, int]] | None
    _points: list[tuple[int, tuple] | None]

    def __init__(self, content: Content, state: State, max_steps: int = DEFAULT_MAX_STEPS, *,
                 validated: bool = False):
        """A game of `content` from a state, checked against the content first (a state from
        another card set, or one that points outside this content, raises SaveFileError).
        `max_steps`: the step budget of each action (interpreter/budget.py).  `validated`: the
        state comes straight from `persistence.loads`, which checked that it agrees with itself
        (only what points into the content is checked again).  The game plays on a copy of
        `state`: a State another game plays on (`load_game(game.state)`) stays that game's (two
        games on one state each kept their own view of it, and the second built a card the first
        had built)."""
        from .persistence import SaveFileError, check_state, copy_state
        creation.compiled(content)
        check_state(state, content, validated=validated)
        if not validated and state is not getattr(self, "state", None):
            # (`loads`' own is no one else's, and a game made again over its own state keeps it)
            state = copy_state(state)
        self._adopt(content, state, max_steps)
        # The round's choices, each one its seat could make (the state is the round's start:
        # nothing moves before the last seat chooses), asked as if it had not chosen yet.
        choices = state.choices
        for p, choice in enumerate(choices):
            if choice is not None:
                choices[p] = None
                try:
                    why = legality.explain_illegal(self, Action(choice[0], tuple(choice[1:])), p)
                except (ValueError, KeyError, IndexError, TypeError) as exc:
                    why = str(exc)
                finally:
                    choices[p] = choice
                if why is not None:
                    raise SaveFileError(f"invalid state: seat {p}'s choice {choice!r} is not one it could make "
                                        f"({why})"[:300])
        if any(c is not None for c in choices):
            core.clear_caches(self)   # (what the questions kept, asked with a choice set aside)

    def _adopt(self, content: Content, state: State, max_steps: int = DEFAULT_MAX_STEPS) -> None:
        """Play `state` of `content`."""
        self._take_content(content, max_steps)
        self.state = state
        core.clear_caches(self)

    def _take_content(self, content: Content, max_steps: int) -> None:
        """What a game of `content` shares with its other games (its slot tables and the
        functions written for it), and the step budget."""
        machine.set_budget(self, max_steps)
        shared = content._shared
        if shared is None:
            shared = Game.__new__(Game)
            shared._lay_out(content)
            content._shared = shared   # (once whole: games of one content may start in threads)
        # (Straight assignments from a game that has them: each table set by name, as
        # `core.lay_out_slots` sets them, cost some 25,000 machine instructions a game.)
        _take_content_of(self, shared)

    def _lay_out(self, content: Content) -> None:
        """What `_take_content` takes, worked out (most of it kept by the content already)."""
        self.content = content
        core.lay_out_slots(self, content)
        self._arrive = arrivals.arrivals_of(content, content._slot_tables)
        self._priced = pricing.pricers_of(content)
        self._bank_price = pricing.bank_price_of(content)
        self._starts = starters.starters_of(content)
        self._round_starts = starters.round_starters_of(content) if content.simultaneous else None
        self._open_spaces, self._draw, self._draw_in_round, self._round_record, self._turn, self._round_free = \
            spaces.functions_of(content, self._starts)

    @classmethod
    def create(cls, content: Content, seed: int = 0, options: Iterable[str] = (),
               script: dict[str, list[str]] | None = None, max_steps: int = DEFAULT_MAX_STEPS) -> "Game":
        """A new game, set up.  `max_steps`: the step budget of the setup and of each action
        (see interpreter/budget.py); a setup that runs away or fails raises EffectFailed."""
        seed, options, script = creation.creation_args(content, seed, options, script)
        game = cls.__new__(cls)
        game._take_content(content, max_steps)
        game.state = creation.initial_state(game, seed, options, script)
        core.clear_caches(game)
        turns.start(game)
        return game

    def clone(self) -> "Game":
        copy = Game.__new__(Game)  # a copy of a state this game made: no need to check it again
        # (what `_adopt` would set from the content, taken from this game, which has it)
        _take_shared(copy, self)
        copy.state = copy_state(self.state)
        machine.set_budget(copy, self.max_steps)
        core.copy_caches(copy, self)
        if self._origin_of is self.state:
            # The saved state is never changed: the copy may undo from it too (no second copy).
            copy._origin_of, copy._origin = copy.state, self._origin
        return copy

    # `copy.copy` and `copy.deepcopy` make what `clone` makes (the first shared the state with
    # the game, the second failed on the compiled content).  Pickling cannot carry the compiled
    # content (functions written at load): it says what to send instead.
    def __copy__(self) -> "Game":
        return self.clone()

    def __deepcopy__(self, memo: dict) -> "Game":
        return self.clone()

    def __reduce__(self):
        raise TypeError("a Game cannot be pickled (its compiled content holds functions written at load): "
                        "send `persistence.dumps(game.state)` and play on with `pipeline.load_game(text)` "
                        "where it arrives; `game.clone()` copies a game")

    # -- public queries ---------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.state.flow == "over"

    def to_move(self) -> int | None:
        """The player whose decision it is: the lowest seat of `to_act()` (a simultaneous round
        takes its seats' choices one after another through `apply`, lowest seat first); None once
        the game is over (it named the seat that moved last, while `to_act()` was empty)."""
        st = self.state
        if st.flow == "over":
            return None
        if st.pending is not None:
            return st.pending.player
        me = legality.acting_seat(self, None)   # (in a round: the first seat still to choose)
        return st.current if me is None else me

    to_act = turns.to_act

    def items_in(self, zone: str, owner: int = 0) -> list[str]:
        """Names of the items in a zone (`structure` for the cards still laid out)."""
        if zone == "structure":
            return [self.name(i) for i in self.state.structure if i >= 0]
        z = self.content.zone_index.get(zone) if isinstance(zone, str) else None
        if z is None:
            raise ValueError(f"no zone {zone!r}: the zones are structure, {', '.join(self.content.zone_index)}")
        if self.content.zones[z].per_player:
            check_seat(owner, self.state.players)
        return [self.name(i) for i in self.state.zones[self.slot(z, owner)]]

    def score(self, p: int) -> dict[str, int]:
        """Seat p's victory points by category, as they stand."""
        return scoring.score(self, check_seat(p, self.state.players))

    def winners(self) -> list[int]:
        """The seats that won, once the game is over: the winner, or every seat that shares a
        victory (equal points and tiebreaks: `state.winner` is then -1, a draw); [] before."""
        return scoring.winners(self)

    def total_score(self, p: int) -> int:
        """The sum of `score(p)`."""
        return scoring.total(self, check_seat(p, self.state.players))

    def price(self, p: int, item: int) -> tuple[int, int, bool]:
        """(coins in all, of which for trading, whether free by chain): what seat p pays for the
        item (by number: `content.item_index[name]`) now."""
        if isinstance(item, bool) or not isinstance(item, int) or not 0 <= item < len(self.content.items):
            raise ValueError(f"no item {item!r}: items are numbered 0 to {len(self.content.items) - 1}"
                             + (" (`content.item_index[name]` is a name's)" if isinstance(item, str) else ""))
        return economy.price(self, check_seat(p, self.state.players), item)

    def trade_prices(self, p: int) -> list[int]:
        """The bank's price of each resource for seat p, as it stands."""
        return economy.trade_prices(self, check_seat(p, self.state.players))

    def available_coins(self, p: int) -> int:
        """Seat p's treasury and the coins lying on its items in play: what it may spend."""
        return economy.available_coins(self, check_seat(p, self.state.players))

    name = core.name
    slot = core.slot
    accessible = structure.accessible

    # -- actions ----------------------------------------------------------------------------------
    legal_actions = legality.legal_actions
    first_legal_action = legality.first_legal_action
    random_action = legality.random_action
    explain_illegal = legality.explain_illegal

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Apply a legal action for `seat` (default: the seat to move; in a simultaneous round,
        any seat that has not chosen yet); an illegal one raises IllegalAction and changes nothing."""
        # (an action the last `legal_actions` listed for this seat, in this very position,
        # is legal: `explain_illegal` would say nothing of it)
        if not legality.was_listed(self, action, seat):
            reason = self.explain_illegal(action, seat)
            if reason is not None:
                raise IllegalAction(action, reason)
        if self._origin_of is not self.state:
            undo.snapshot(self)
        if seat is None:
            self._apply(action)
        else:
            self._apply(action, seat)

    def _apply(self, action: Action, seat: int | None = None, drawn: tuple | None = None) -> None:
        """Apply an action known to be legal (agents, simulations: no check, no snapshot).
        `drawn`: a seat's choice in a round in numbers, as `turns.choose` keeps it, where the
        caller has them (the round need not decode the names)."""
        self.steps_left = self.max_steps
        self._kept_legal = None
        st = self.state
        # A choice that completes a round may add several history entries (see undo.undo_last).
        # (A choice is never changed in place, only replaced: a copy of the list keeps them.)
        before = (len(st.history), st.choices[:]) if st.choices else None
        try:
            turns.run_action(self, action, seat, drawn)
        except EffectFailed as exc:
            undo.undo_last(self, before)
            raise exc.for_action(action) from None

    # -- running effects, and moving items directly (tests set positions up with these) -----------
    # (each forgets the legal actions kept for `apply`: the position changes; the runtime
    # calls the modules' functions, inside an action, which forgets them itself)
    def advance(self) -> None:
        """Run until a player must decide something or the game ends."""
        self._kept_legal = None
        turns.advance(self)

    def run(self) -> None:
        """Run steps until the stack is empty, a player must decide, or the game is over."""
        self._kept_legal = None
        machine.run(self)

    def schedule(self, frames: list) -> None:
        """Run these frames next, in list order."""
        self._kept_legal = None
        machine.schedule(self, frames)

    def relocate(self, item: int, slot: int) -> None:
        """Move an item to a slot (NOWHERE: out of the game), keeping the caches true; no event."""
        self._kept_legal = None
        core.relocate(self, item, slot)

    # -- the verbs compiled closures call (the table is interpreter/verbs.py) ---------------------
    push = machine.push
    run_procedure = machine.run_procedure
    run_branch = machine.run_branch
    each_seat = machine.each_seat
    repeat = machine.repeat
    seat = seats.seat
    seats_of = seats.seats_of
    left_of = seats.left_of
    right_of = seats.right_of
    grant_play_again = turns.grant_play_again
    set_next_starter = turns.set_next_starter
    win = turns.win
    count = selection.count
    count_named = selection.count_named
    count_name = selection.count_name
    count_colors = selection.count_colors
    count_color = selection.count_color
    count_owned = selection.count_owned
    item_attr = selection.item_attr
    has_option = selection.has_option
    owner_of = core.owner_of
    rider_count = core.rider_count
    event_field = events.event_field
    trigger = events.trigger
    gain_coins = economy.gain_coins
    lose_coins = economy.lose_coins
    spend = economy.spend
    put_coins = economy.put_coins
    stats = economy.stats
    production = economy.production
    modifier = economy.modifier
    kept_value = economy.kept_value
    build = economy.build
    price_of = economy.price
    acquire = economy.acquire
    science_count = scoring.science_count
    distinct_science = scoring.distinct_science
    move = zones.move
    move_unseen = zones.move_unseen
    move_all = zones.move_all
    move_all_unseen = zones.move_all_unseen
    discard = zones.discard
    discard_taken = zones.discard_taken
    take_top = zones.take_top
    take_top_unseen = zones.take_top_unseen
    return_to_deck = zones.return_to_deck
    take_attached = zones.take_attached
    place = zones.place
    place_face_down = zones.place_face_down
    claim = zones.claim
    reveal = zones.reveal
    first_empty = zones.first_empty
    deal = dealing.deal
    deal_unseen = dealing.deal_unseen
    shuffle = dealing.shuffle
    choose = decisions.choose
    choose_space = decisions.choose_space
    choose_option = decisions.choose_option
    choose_player = decisions.choose_player
    deal_structure = structure.deal_structure
    deal_onto_structure = structure.deal_onto_structure
    marked_slots = structure.marked_slots
    structure_row = structure.structure_row
    shields = track.shields
    pawn_distance = track.pawn_distance
    track_points = track.track_points
    cubes = majority.cubes
    cube_supply = majority.cube_supply
    control = majority.control
    controlled_sum = majority.controlled_sum
    controller = majority.controller
    add_cube = majority.add_cube
    remove_cube = majority.remove_cube
    move_cube = majority.move_cube
    rotate = zones.rotate
    first_in = zones.first_in
    counter = scoring.counter
    add_counter = scoring.add_counter
    science_score = scoring.science_score
    after_turn = turns.after_turn
