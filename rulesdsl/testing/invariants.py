"""Rule invariants: properties every game must keep, whatever its cards.

Each invariant is a small function with a name and a message.  `check_game(game)` checks the
state invariants of one position; `run_checked(game, ...)` plays a game (random actions, or the
actions you give) and checks them after every action, then the end-of-game ones.  A broken
invariant raises `InvariantViolation`, which says which one, why, and after which actions.

The library (`INVARIANTS`):

    coins-not-negative        no player, and no card holding coins, ever has negative coins
    one-place                 every card, token, god (any item) is in exactly one place
    pawn-on-track             the conflict pawn stays between the two capitals
    wonders-at-most-7         at most 7 wonders are built in a game
    legal-action-exists       a game that is not over always has a legal action (and one over has none)
    refused-action-changes-nothing   an illegal action is refused and leaves the state as it was
    save-load                 a JSON save loads back into an equal state, with the same legal actions
    observation-hides         an observation never shows a player an item that player cannot see
    deterministic             the same seed and actions give the same state (checked at the end)
    game-ends                 every game ends within a bound of actions (checked by the driver)
    engine-error              applying a legal action never crashes (checked by the driver)
    effects-end               every action's effects end within the step budget (checked by the driver)

plus the designer's own, written next to the cards:

    invariant "Coins stay under 60" { holds coins <= 60 }     # checked for every player as `me`
"""

from __future__ import annotations

import random
import traceback
from itertools import chain
from typing import Callable, Iterable, Iterator

import attrs

from rulesdsl.interpreter.actions import Action, IllegalAction
from rulesdsl.interpreter.decisions import unseen_place
from rulesdsl.interpreter.budget import BudgetExceeded, EffectFailed, short_deal
from rulesdsl.interpreter.game import Game
from rulesdsl.interpreter.knowledge import known_to
from rulesdsl.interpreter.observation import lying_on_structure, observe
from rulesdsl.interpreter.persistence import copy_state, dumps, loads
from rulesdsl.interpreter.state import NOWHERE, Frame
from rulesdsl.names import integer
from rulesdsl.testing.untraced import untraced

DEFAULT_MAX_ACTIONS = 1000
MAX_WONDERS = 7

Check = Callable[[Game, "Context"], "str | None"]


@attrs.frozen
class Invariant:
    """A property of the rules.  `check(game, ctx)` returns None when it holds, else what is wrong.

    `when`: "step" invariants are checked on the start position and after every action; "end"
    ones once the game is over (or stopped)."""

    name: str
    message: str
    check: Check
    when: str = "step"


@attrs.define
class Context:
    """What a check may need besides the position: a random generator for the invariants that
    probe (refused actions), or fixed probes to try instead (when a failure is replayed)."""

    rng: random.Random = attrs.Factory(lambda: random.Random(0))
    probes: list[Action] | None = None
    seed: int | None = None
    used_probe: Action | None = None       # set by the refused-action check when it fails


class InvariantViolation(AssertionError):
    """An invariant does not hold.  `actions` are the actions applied up to the failure (the last
    one is the action after which it was found); `action` is the action that caused it, when it
    is not the last applied one (a refused action that changed the state, a crashing one)."""

    def __init__(self, invariant: Invariant | str, message: str, detail: str, game: Game | None = None,
                 actions: list[Action] | None = None, action: Action | None = None):
        self.invariant = invariant if isinstance(invariant, str) else invariant.name
        self.message = message
        self.detail = detail
        self.game = game
        self.actions = list(actions or [])
        self.action = action
        super().__init__(self.describe())

    def describe(self) -> str:
        lines = [f"invariant `{self.invariant}` broken: {self.message}", f"  {self.detail}"]
        if self.game is not None:
            lines.append(f"  after {len(self.actions)} action(s)"
                         + (f" from seed {self.game.state.seed}" if self.game.state else ""))
            shown = self.actions if len(self.actions) <= 20 else self.actions[-12:]
            for i, a in enumerate(shown, start=len(self.actions) - len(shown) + 1):
                lines.append(f"    {i:3d}. {a}")
        if self.action is not None:
            lines.append(f"  offending action: {self.action}")
        return "\n".join(lines)


# -- the invariants --------------------------------------------------------------------------------

def _coins_not_negative(game: Game, ctx: Context) -> str | None:
    st = game.state
    for p, c in enumerate(st.coins):
        if c < 0:
            return f"player {p} has {c} coins"
    for item, c in st.item_coins.items():
        if c < 0:
            return f"{game.name(item)} holds {c} coins"
    return None


def _one_place(game: Game, ctx: Context) -> str | None:
    st, content = game.state, game.content
    items = content.items
    n = len(items)
    if len(st.loc) != n:
        return f"the state tracks {len(st.loc)} items, the content has {n}"
    seen: dict[int, int] = {}
    for slot, zone in enumerate(st.zones):
        for i in zone:
            if not 0 <= i < n:
                return f"{_slot_name(game, slot)} holds item {i}, which does not exist"
            if i in seen:
                where = "twice in " + _slot_name(game, slot) if seen[i] == slot else \
                    f"both in {_slot_name(game, seen[i])} and in {_slot_name(game, slot)}"
                return f"{game.name(i)} is {where}"
            seen[i] = slot
    for i, slot in seen.items():
        if st.loc[i] != slot:
            return f"{game.name(i)} lies in {_slot_name(game, slot)} but is recorded in {_slot_name(game, st.loc[i])}"
    track = content.track.zone
    for i, slot in enumerate(st.loc):
        if slot == NOWHERE:
            # Only a piece taken off the track (a military token applied) may leave the game; an
            # item that never entered it (no starting zone) is nowhere too.
            if items[i].deck >= 0 and items[i].deck != track:
                return f"{game.name(i)} has left the game (it is in no zone)"
        elif i not in seen:
            return f"{game.name(i)} is recorded in {_slot_name(game, slot)} but is not there"
    if len(st.face_up) != len(st.structure):
        return "the structure and its face-up flags differ in length"
    laid = [i for i in st.structure if i >= 0]
    if len(set(laid)) != len(laid):
        dup = next(i for i in laid if laid.count(i) > 1)
        return f"{game.name(dup)} lies on two slots of the structure"
    for i in laid:
        if st.loc[i] != game.structure_slot:
            return f"{game.name(i)} lies in the structure but is recorded in {_slot_name(game, st.loc[i])}"
    laid_set = set(laid)
    for i in st.zones[game.structure_slot] if game.structure_slot < len(st.zones) else ():
        if i not in laid_set and st.attached.get(i) not in laid_set:
            return f"{game.name(i)} is in the structure's zone but on no slot and on no structure card"
    for rider, host in st.attached.items():
        if not (0 <= rider < n and 0 <= host < n):
            return f"an attachment names an item that does not exist ({rider} on {host})"
    return None


def _slot_name(game: Game, slot: int) -> str:
    if slot == NOWHERE:
        return "nowhere"
    if slot == game.structure_slot:
        return "the structure"
    if not 0 <= slot < len(game.slot_zone):
        return f"slot {slot} (no such slot)"
    zone = game.content.zones[game.slot_zone[slot]]
    return f"{zone.name} of player {game.slot_owner[slot]}" if zone.per_player else zone.name


def _pawn_on_track(game: Game, ctx: Context) -> str | None:
    cap = game.content.track.capital
    pawn = game.state.pawn
    if not -cap <= pawn <= cap:
        return f"the pawn is at {pawn}, beyond the capitals at -{cap} and {cap}"
    return None


def _wonders_at_most_7(game: Game, ctx: Context) -> str | None:
    content = game.content
    zone = content.build_zone.get("wonder")
    if zone is None:
        return None
    items = content.items
    built = [i for p in range(content.players) for i in game.state.zones[game.slot(zone, p)]
             if items[i].kind == "wonder"]
    if len(built) > MAX_WONDERS:
        return f"{len(built)} wonders are built: {', '.join(game.name(i) for i in built)}"
    return None


def _deals_complete(game: Game, ctx: Context) -> str | None:
    return f"{short_deal(*game.short_draws[0])}: the game went on with fewer" if game.short_draws else None


def _legal_action_exists(game: Game, ctx: Context) -> str | None:
    st = game.state
    legal = game.legal_actions()
    if game.over:
        if legal:
            return f"the game is over but {len(legal)} action(s) are offered, e.g. {legal[0]}"
        if st.winner is None:
            return "the game is over without a winner (nor a draw)"
        return None
    if not legal:
        who = game.to_move()
        what = f"the decision `{st.pending.prompt}`" if st.pending is not None else "the turn"
        return f"the game is not over but player {who} has no legal action for {what}"
    if not 0 <= game.to_move() < game.content.players:
        return f"the player to move is {game.to_move()}"
    return None


def _probes(game: Game, ctx: Context, legal: list[Action]) -> list[Action]:
    """A few actions that must be illegal now (only those not offered are kept)."""
    if ctx.probes is not None:
        return [a for a in ctx.probes if a not in legal]
    rng = ctx.rng
    names = [it.name for it in game.content.items]
    out: list[Action] = []
    if legal:
        a = legal[rng.randrange(len(legal))]
        if a.args:
            k = rng.randrange(len(a.args))
            out.append(Action(a.name, a.args[:k] + (names[rng.randrange(len(names))],) + a.args[k + 1:]))
        out.append(Action(a.name, a.args + ("extra",)))
    action_names = [act.name for act in game.content.actions] + ["choose", "choose_player", "no_such_action"]
    other = action_names[rng.randrange(len(action_names))]
    out.append(Action(other, (names[rng.randrange(len(names))],)))
    legal_set = set(legal)
    return [a for a in out if a not in legal_set][:2]


def _refused_action_changes_nothing(game: Game, ctx: Context) -> str | None:
    legal = game.legal_actions()
    for probe in _probes(game, ctx, legal):
        before = copy_state(game.state)
        try:
            game.apply(probe)
        except IllegalAction:
            pass
        except Exception as exc:  # noqa: BLE001 - any other exception is the finding
            ctx.used_probe = probe
            return f"the illegal action `{probe}` raised {type(exc).__name__}: {exc} instead of IllegalAction"
        else:
            ctx.used_probe = probe
            return f"the illegal action `{probe}` (not among the legal actions) was applied"
        if game.state != before:
            ctx.used_probe = probe
            return f"refusing `{probe}` changed the state ({_first_difference(before, game.state)})"
        if Game.legal_actions(game) != legal:
            ctx.used_probe = probe
            return f"refusing `{probe}` changed the legal actions"
    return None


def _first_difference(a, b) -> str:
    for f in attrs.fields(type(a)):
        if getattr(a, f.name) != getattr(b, f.name):
            return f"`{f.name}` differs"
    return "no field differs"


def _save_load(game: Game, ctx: Context) -> str | None:
    text = dumps(game.state)
    try:
        loaded = loads(text)
    except Exception as exc:  # noqa: BLE001
        return f"the saved state does not load: {exc}"
    if loaded != game.state:  # attrs equality: field by field, list/tuple and key types included
        return f"the loaded state differs from the saved one ({_first_difference(game.state, loaded)})"
    resumed = Game(game.content, loaded, validated=True)
    if resumed.legal_actions() != game.legal_actions():
        return "the loaded game offers other legal actions than the saved one"
    return None


def visible_items(game: Game, player: int) -> set[int]:
    """The items `player` may see: in public zones, in their own private zones, face up in the
    structure, or offered to them by a decision they must make; never an item lying face down,
    but one they know (they saw it before it was turned down), and never one in a deck, but one
    they saw go into it (knowledge.py)."""
    st, content = game.state, game.content
    seen: set[int] = set()
    for z in content.zones:
        owners = range(st.players) if z.per_player else [0]
        if z.public:
            for o in owners:
                seen.update(st.zones[game.slot(z.id, o)])
        elif z.per_player and getattr(z, "private", False):
            seen.update(st.zones[game.slot(z.id, player)])
    for slot, i in enumerate(st.structure):
        if i >= 0 and st.face_up[slot]:
            seen.add(i)
    for items in lying_on_structure(game).values():   # tokens laid on its cards, face up
        seen.update(items)
    # (one lying face down where the seat sees its back, which it saw before it was turned down:
    # it knows it, knowledge.py)
    knows = known_to(game, player)
    seen.difference_update(set(getattr(st, "hidden", ())).difference(knows))
    seen.update(knows)   # (in a deck: what the seat saw go into it)
    d = st.pending
    if d is not None and d.player == player and d.kind == "item":
        # (one lying face down is offered by its place, `slot 7 (face down)`: still unseen)
        seen.update(o for o in d.options if unseen_place(game, o) is None)
    return seen


def _observation_hides(game: Game, ctx: Context) -> str | None:
    index = game.content.item_index
    name_of = game.item_names.__getitem__
    for p in range(game.content.players):
        obs = observe(game, p)
        # Copies of an item share its name: a name is visible when one item of that name is.
        visible = set(map(name_of, visible_items(game, p)))
        # (every text shown gathered at once; walked in order only to say where the first is)
        unseen = _texts_in_observation(obs).difference(visible)
        if unseen and not unseen.isdisjoint(index):
            for where, name in _names_in_observation(obs):
                if name in index and name not in visible:
                    return f"player {p}'s observation shows {name} ({where}), which that player cannot see"
        if obs.get("legal_actions"):
            # The observation lists the legal actions as text; their item arguments must be visible.
            legal = game.legal_actions(p)
            unseen = set(chain.from_iterable(a.args for a in legal)).difference(visible)
            if unseen and not unseen.isdisjoint(index):
                for a in legal:
                    for arg in a.args:
                        if arg in index and arg not in visible:
                            return f"player {p}'s observation offers `{a}`, naming {arg}, which that player cannot see"
    return None


def _texts_in_observation(obs: dict) -> set:
    """Every text `_names_in_observation` yields (and some numbers: counts of private zones)."""
    out: set = set()
    for content in (obs.get("zones") or {}).values():
        for row in (content.values() if isinstance(content, dict) else (content,)):
            if isinstance(row, list):
                out.update(row)
    for card in obs.get("structure") or ():
        if isinstance(card, dict) and "card" in card:
            out.add(card["card"])
    out.update(obs.get("track_tokens") or ())
    out.update(obs.get("positions") or ())
    out.update(k.get("item") for k in obs.get("known") or ())
    out.update((obs.get("pending") or {}).get("options") or ())
    return out


def _names_in_observation(obs: dict) -> Iterator[tuple[str, str]]:
    """(where, text) for every text of an observation that may name an item."""
    for zone, content in (obs.get("zones") or {}).items():
        rows = content.values() if isinstance(content, dict) else [content]
        for row in rows:
            if isinstance(row, list):
                for name in row:
                    yield f"zone {zone}", name
    for slot, card in enumerate(obs.get("structure") or []):
        if isinstance(card, dict) and "card" in card:
            yield f"structure slot {slot}", card["card"]
    for name in obs.get("track_tokens") or []:
        yield "track", name
    for name in obs.get("positions") or {}:
        yield "positions", name
    for k in obs.get("known") or []:
        yield "known", k.get("item")
    pending = obs.get("pending") or {}
    for name in pending.get("options") or []:
        yield "pending options", name


def replay_actions(game_or_content, seed: int, options, script, actions: Iterable[Action]) -> Game:
    content = game_or_content.content if isinstance(game_or_content, Game) else game_or_content
    game = Game.create(content, seed=seed, options=options, script=script or None)
    for a in actions:
        game.apply(a)
    return game


def _deterministic(game: Game, ctx: Context) -> str | None:
    st = game.state
    history = [Action(h[0], tuple(h[1:])) for h in st.history]
    try:
        again = replay_actions(game, st.seed, st.options, st.setup_script, history)
    except IllegalAction as exc:
        return f"replaying the same actions from the same seed refused one: {exc}"
    if dumps(again.state) != dumps(st):
        return ("replaying the same actions from the same seed gives another state "
                f"({_first_difference(st, again.state)})")
    return None


INVARIANTS: list[Invariant] = [
    Invariant("coins-not-negative", "no player (and no card holding coins) ever has negative coins",
              _coins_not_negative),
    Invariant("one-place", "every card, token, god (every item) is in exactly one place", _one_place),
    Invariant("pawn-on-track", "the conflict pawn stays on the track, between the two capitals", _pawn_on_track),
    Invariant("wonders-at-most-7", "at most 7 wonders are built in a game", _wonders_at_most_7),
    Invariant("deals-complete", "every deal of the set-up (of the game and of each age) finds as many items "
                                "as it asks for", _deals_complete),
    Invariant("legal-action-exists", "a game that is not over always has a legal action; one that is over "
                                     "has none and has a result", _legal_action_exists),
    Invariant("refused-action-changes-nothing", "an illegal action is refused (IllegalAction) and changes "
                                                "nothing", _refused_action_changes_nothing),
    Invariant("save-load", "saving to JSON and loading gives an equal state with the same legal actions",
              _save_load),
    Invariant("observation-hides", "an observation never shows a player an item that player cannot see",
              _observation_hides),
    Invariant("deterministic", "the same seed and the same actions give the same state", _deterministic,
              when="end"),
]
# Checked by the driver itself (they are about playing, not about one position).
GAME_ENDS = Invariant("game-ends", "every game ends within a bound of actions", lambda g, c: None, when="driver")
ENGINE_ERROR = Invariant("engine-error", "applying a legal action never raises an error", lambda g, c: None,
                         when="driver")
EFFECTS_END = Invariant("effects-end", "the effects of every action (and of the setup) end within the step budget",
                        lambda g, c: None, when="driver")
DRIVER_INVARIANTS = [GAME_ENDS, ENGINE_ERROR, EFFECTS_END]
# Broken by an action that raises rather than by a position: the action is kept as `then`.
CRASHES = (ENGINE_ERROR.name, EFFECTS_END.name)


def crash_violation(exc: Exception, game: Game | None, actions: list[Action],
                    action: Action | None) -> InvariantViolation:
    """The violation an exception from `apply` (or from creating the game) stands for."""
    if isinstance(exc, BudgetExceeded):
        return InvariantViolation(EFFECTS_END, EFFECTS_END.message, str(exc), game, actions, action)
    if isinstance(exc, EffectFailed):   # what the content asked cannot be done: its words say where
        return InvariantViolation(ENGINE_ERROR, ENGINE_ERROR.message, str(exc), game, actions, action)
    tb = traceback.extract_tb(exc.__traceback__)[-1]
    return InvariantViolation(ENGINE_ERROR, ENGINE_ERROR.message,
                              f"{type(exc).__name__}: {exc} (at {tb.filename}:{tb.lineno})", game, actions, action)


def designer_invariants(content) -> list[Invariant]:
    """The content's own `invariant` definitions, each checked for every player as `me`."""
    out = []
    for name, fn, span, *parts in getattr(content, "invariants", ()):
        out.append(Invariant(f"designer: {name}", f"{name} ({span.file}:{span.line})",
                             _designer_check(fn, span, parts[0] if parts else [])))
    return out


def _designer_check(fn, span, parts: list) -> Check:
    def check(game: Game, ctx: Context) -> str | None:
        for p in range(game.content.players):
            frame = Frame(0, 0, 0, p, {})
            try:
                ok = fn(game, frame)
            except Exception as exc:  # noqa: BLE001
                return f"evaluating `holds` at {span.file}:{span.line} for player {p} failed: {type(exc).__name__}: {exc}"
            if not ok:
                # (what its comparisons compared, for that player: the numbers that broke it)
                values = [f"{text} is {value(game, frame)}" for text, value in parts]
                every = [] if any(text == "coins" for text, _ in parts) else [f"coins {game.state.coins}"]
                return (f"`holds` at {span.file}:{span.line}:{span.column} is false for player {p}: "
                        + ", ".join(values + every))
        return None
    return check


def all_invariants(content) -> list[Invariant]:
    return INVARIANTS + designer_invariants(content)


def by_name(content, names: Iterable[str]) -> list[Invariant]:
    table = {inv.name: inv for inv in all_invariants(content) + DRIVER_INVARIANTS}
    out = []
    for n in names:
        if n not in table:
            raise KeyError(f"unknown invariant {n!r}; known: {', '.join(table)}")
        out.append(table[n])
    return out


# -- drivers ---------------------------------------------------------------------------------------

def _history(game: Game) -> list[Action]:
    return [Action(h[0], tuple(h[1:])) for h in game.state.history]


def check_game(game: Game, invariants: list[Invariant] | None = None, ctx: Context | None = None,
               end: bool = False) -> None:
    """Check the step invariants (and, with end=True, the end-of-game ones after them) of this
    position; raise InvariantViolation for the first one broken."""
    _a_game(game)
    ctx = ctx or Context()
    invs = all_invariants(game.content) if invariants is None else invariants
    with untraced():    # (in a failing hypothesis test: its lines are the checker's, not the test's)
        check_only(game, invs, ctx, "step")
        if end:
            check_only(game, invs, ctx, "end")


def _a_game(game: object) -> None:
    """TypeError unless `game` is a Game (a Ruleset given here failed on `.state`)."""
    if not isinstance(game, Game):
        raise TypeError(f"the invariants are checked on a Game (`rules.new_game(...)`), not {type(game).__name__}")


def check_only(game: Game, invs: list[Invariant], ctx: Context, wanted: str) -> None:
    """Check the invariants of one kind (`step` or `end`) of this position: for the drivers,
    which have checked the step invariants of the last position already."""
    # The checks do not change the position: list its legal actions once for all of them (per
    # seat asked: in a simultaneous round several seats have some).
    legal = {None: Game.legal_actions(game)}

    def cached(seat: int | None = None) -> list:
        if seat not in legal:
            legal[seat] = Game.legal_actions(game, seat)
        return list(legal[seat])
    game.legal_actions = cached
    try:
        for inv in invs:
            if inv.when != wanted:
                continue
            ctx.used_probe = None
            try:
                detail = inv.check(game, ctx)
            except InvariantViolation:
                raise
            except Exception as exc:  # noqa: BLE001 - the engine failed while being checked
                tb = traceback.extract_tb(exc.__traceback__)[-1]
                detail = (f"checking it raised {type(exc).__name__}: {exc} "
                          f"(at {tb.filename}:{tb.lineno}: {tb.line})")
            if detail is not None:
                raise InvariantViolation(inv, inv.message, detail, game, _history(game), ctx.used_probe)
    finally:
        del game.legal_actions


@attrs.define
class CheckedRun:
    game: Game
    actions: list[Action]
    violation: InvariantViolation | None = None

    @property
    def ok(self) -> bool:
        return self.violation is None


def run_checked(game: Game, actions: Iterable[Action] | None = None, *, rng: random.Random | int | None = None,
                invariants: list[Invariant] | None = None, max_actions: int = DEFAULT_MAX_ACTIONS,
                skip_illegal: bool = False, raise_on_failure: bool = True, ctx: Context | None = None) -> CheckedRun:
    """Play `game` on, checking the invariants on the start position and after every action.

    With `actions`, apply those (an illegal one raises IllegalAction, or is skipped with
    skip_illegal=True); without, play random legal actions until the game is over (more than
    `max_actions` breaks `game-ends`).  Then the end-of-game invariants.  A broken invariant
    raises InvariantViolation, or with raise_on_failure=False is returned in the result.  The
    violation's `actions` are the game's whole history (from its creation) up to the failure."""
    _a_game(game)
    # (a string or one Action given as the actions was read item by item: "illegal action b")
    if isinstance(actions, (str, Action)):
        raise TypeError(f"actions must be a list of Actions, not {'one Action' if isinstance(actions, Action) else 'a string'}")
    # (a bound below 1 reported the game "not over after -3 actions": a finding of no game)
    max_actions = integer(max_actions, "max_actions", least=1)
    if not isinstance(rng, random.Random):
        rng = random.Random(rng if rng is not None else game.state.seed)
    ctx = ctx or Context(rng=rng)
    invs = all_invariants(game.content) if invariants is None else invariants
    applied: list[Action] = []
    source = iter(actions) if actions is not None else None

    def fail(v: InvariantViolation) -> CheckedRun:
        if raise_on_failure:
            raise v
        return CheckedRun(game, applied, v)

    with untraced():    # (the game's lines are not the test's: see check_game)
        try:
            check_game(game, invs, ctx)
            while True:
                if source is not None:
                    action = next(source, None)
                    if action is None:
                        break
                    if skip_illegal and game.explain_illegal(action) is not None:
                        continue
                else:
                    if game.over:
                        break
                    if len(applied) >= max_actions:
                        return fail(InvariantViolation(GAME_ENDS, GAME_ENDS.message,
                                                       f"the game is not over after {max_actions} actions",
                                                       game, _history(game)))
                    action = game.random_action(rng)
                known = len(game.state.history)
                try:
                    game.apply(action)
                except IllegalAction:
                    if source is not None:
                        raise
                    return fail(InvariantViolation(ENGINE_ERROR, ENGINE_ERROR.message,
                                                   f"random_action offered `{action}`, which apply() refuses",
                                                   game, _history(game)[:known], action))
                except Exception as exc:  # noqa: BLE001 - the engine crashed or ran away: that is the finding
                    return fail(crash_violation(exc, game, _history(game)[:known], action))
                applied.append(action)
                check_game(game, invs, ctx)
            if game.over or source is not None:
                check_only(game, invs, ctx, "end")   # (its step invariants were checked after the last action)
        except InvariantViolation as v:
            return fail(v)
    return CheckedRun(game, applied, None)
