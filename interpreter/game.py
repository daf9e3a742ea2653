"""The turn/trigger interpreter.  It runs compiled blocks and offers the generic verbs the
compiled closures call (`gain_coins`, `build`, `choose`, `shields`, `deal`, ...).  It knows no
card, wonder or token by name: everything specific comes from `Content`.
"""

from __future__ import annotations

import random
from itertools import product
from typing import Any, Iterable

import attrs

from rulesdsl.model import STRUCTURE, STRUCTURE_ALL, Content, Selector
from rulesdsl.names import check_options

from . import chance
from .actions import (CHOOSE, CHOOSE_OPTION, CHOOSE_PLAYER, CHOOSE_SPACE, PASS, Action, IllegalAction, malformed,
                      player_label)
from .budget import DEFAULT_MAX_STEPS, MAX_REPEAT, BudgetExceeded, chain_of
from .costs import Stats, cheapest_trade, compute_stats
from .state import DRAW, NOWHERE, Decision, Frame, State


def _creation_args(seed: object, options: object, script: object) -> tuple[list[str], dict[str, list[str]]]:
    """What creates a game, type-checked (ValueError): the values come from users and files."""
    if not chance.is_seed(seed):
        raise ValueError(f"the seed must be an integer from {chance.SEED_MIN} to {chance.SEED_MAX}, not {seed!r}")
    if isinstance(options, str):
        options = [options]  # one option, not a list of letters
    names = [] if isinstance(options, bytes) else _iterable(options, "options")
    if isinstance(options, bytes):
        raise ValueError(f"options must be a list of names, not {options!r}")
    # A name that is not a string is refused by check_options as an unknown option (UnknownName).
    if script is None:
        return names, {}
    if not isinstance(script, dict) or not all(
            type(k) is str and isinstance(v, (list, tuple)) and all(type(n) is str for n in v) for k, v in script.items()):
        raise ValueError("a script maps zone names to lists of item names")
    return names, {k: list(v) for k, v in script.items()}


def _iterable(value: object, what: str) -> list:
    try:
        return list(value)  # type: ignore[call-overload]
    except TypeError:
        raise ValueError(f"{what} must be a list, not {value!r}") from None


class Game:
    """One game: the compiled content (shared, read-only) and a state (owned, mutable)."""

    def __init__(self, content: Content, state: State, max_steps: int = DEFAULT_MAX_STEPS):
        """A game of `content` from a state, checked against the content first (a state from
        another card set, or one that points outside this content, raises SaveFileError).
        `max_steps`: the step budget of each action (interpreter/budget.py)."""
        from .persistence import check_state
        check_state(state, content)
        self._adopt(content, state, max_steps)

    def _adopt(self, content: Content, state: State, max_steps: int = DEFAULT_MAX_STEPS) -> None:
        self.content = content
        self.state = state
        self._budget(max_steps)
        self._slots(content)
        self._stats: list[Stats | None] = [None] * content.players
        self._prices: list[list[int] | None] = [None] * content.players
        self._price_cache: list[dict[int, tuple[int, int, bool]]] = [{} for _ in range(content.players)]
        self._accessible: list[int] | None = None
        self._cover_count: list[int] | None = None

    # -- creation ---------------------------------------------------------------------------------
    @classmethod
    def create(cls, content: Content, seed: int = 0, options: Iterable[str] = (),
               script: dict[str, list[str]] | None = None, max_steps: int = DEFAULT_MAX_STEPS) -> "Game":
        """A new game, set up.  `max_steps`: the step budget of the setup and of each action
        (see interpreter/budget.py); a runaway setup raises BudgetExceeded."""
        options, script = _creation_args(seed, options, script)
        options = check_options(content.options, options)  # an unknown option would be ignored silently
        for label, names in script.items():
            if label not in content.zone_index:
                raise ValueError(f"scripted draw from {label}: there is no zone {label!r}")
            unknown = next((n for n in names if n not in content.item_index), None)
            if unknown is not None:
                raise ValueError(f"scripted draw from {label}: {unknown!r} is not an item of this game")
        players = content.players
        game = cls.__new__(cls)
        game.content = content
        game._budget(max_steps)
        game._slots(content)
        zones: list[list[int]] = [[] for _ in range(game.n_slots)]
        loc = [NOWHERE] * len(content.items)
        for it in content.items:
            if it.deck >= 0:
                slot = game.zone_base[it.deck]
                zones[slot].append(it.id)
                loc[it.id] = slot
        state = State(layers=list(content.layers), options=options, seed=seed, players=players, loc=loc,
                      zones=zones, coins=[0] * players, rng=chance.seed_state(seed), script={k: list(v) for k, v in (script or {}).items()},
                      setup_script={k: list(v) for k, v in (script or {}).items()}, fingerprint=content.fingerprint())
        for z in content.zones:
            if z.counters:
                state.cubes[z.name] = [[0] * z.spaces for _ in range(players)]
                state.supply[z.name] = [z.counters] * players
                state.control[z.name] = [-1] * z.spaces
        game.state = state
        game._stats = [None] * players
        game._prices = [None] * players
        game._price_cache = [{} for _ in range(players)]
        game._accessible = None
        game._cover_count = None
        game._start()
        return game

    def _budget(self, max_steps: int) -> None:
        self.max_steps = max_steps
        self.steps_left = max_steps
        # The state at this game's first action and its history length then (see `_snapshot`).
        self._origin_of: State | None = None
        self._origin: tuple[State, int] | None = None

    def _slots(self, content: Content) -> None:
        self.zone_base: list[int] = []
        self.slot_zone: list[int] = []
        self.slot_owner: list[int] = []
        for z in content.zones:
            self.zone_base.append(len(self.slot_zone))
            for p in range(content.players if z.per_player else 1):
                self.slot_zone.append(z.id)
                self.slot_owner.append(p if z.per_player else -1)
        self.structure_slot = len(self.slot_zone)
        self.slot_zone += [-1]
        self.slot_owner += [-1]
        tz = content.track.zone
        self.track_slot = self.zone_base[tz] if tz >= 0 else -1
        self.n_slots = len(self.slot_zone)
        self._resource_index = {r: i for i, r in enumerate(content.resources)}
        self.slot_active = [z >= 0 and content.zones[z].active for z in self.slot_zone]
        self.active_slots = [[self.zone_base[z.id] + p for z in content.zones if z.active and z.per_player]
                             for p in range(content.players)]
        discard = content.discard_zone
        # Whether a slot is (a seat of) the discard pile: items arriving there are `discarded`.
        self.slot_discard = [discard >= 0 and z == discard for z in self.slot_zone]
        # Zones whose items work for whoever controls their space in another zone.
        self.ruled = {self.zone_base[z.id]: content.zones[z.ruled_by].name for z in content.zones if z.ruled_by >= 0}

    def _start(self) -> None:
        st = self.state
        st.flow = "setup"
        self.push(self.content.setup, 0, {})
        self.advance()

    # -- public queries ---------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.state.flow == "over"

    def to_move(self) -> int:
        """The player whose decision it is."""
        st = self.state
        return st.pending.player if st.pending is not None else st.current

    def opponent(self, p: int) -> int:
        return (p + 1) % self.content.players

    def name(self, item: int) -> str:
        return self.content.items[item].name

    def slot(self, zone: int, owner: int) -> int:
        return self.zone_base[zone] + (owner if self.content.zones[zone].per_player else 0)

    def items_in(self, zone: str, owner: int = 0) -> list[str]:
        """Names of the items in a zone (`structure` for the cards still laid out)."""
        if zone == "structure":
            return [self.name(i) for i in self.state.structure if i >= 0]
        return [self.name(i) for i in self.state.zones[self.slot(self.content.zone_index[zone], owner)]]

    # -- the run loop -----------------------------------------------------------------------------
    def push(self, block: int, me: int, env: dict[str, Any]) -> None:
        self.state.frames.append(Frame(block, 0, len(self.content.blocks[block].steps), me, env))

    def schedule(self, frames: list[Frame]) -> None:
        """Run these frames next, in list order."""
        stack = self.state.frames
        stack.extend(reversed(frames))
        # Events may set off several triggers each: bound what waits to run, not only what runs.
        if len(stack) > self.max_steps:
            raise self._runaway(f"{len(stack)} effects are waiting to run, more than the budget of "
                                f"{self.max_steps} steps")

    def run(self) -> None:
        st = self.state
        blocks = self.content.blocks
        frames = st.frames
        left = self.steps_left
        while frames and st.pending is None and st.flow != "over":
            f = frames[-1]
            if f.pc >= f.stop:
                frames.pop()
                continue
            left -= 1
            if left < 0:
                self.steps_left = left
                raise self._runaway(f"its effects did not end within {self.max_steps} steps")
            step = blocks[f.block].steps[f.pc]
            f.pc += 1
            step(self, f)
        self.steps_left = left

    def repeat(self, rounds: int, count: int, f: Frame) -> None:
        """Start a `repeat` of `count` rounds (its frame counts them down, one step each)."""
        if count > MAX_REPEAT:
            raise self._runaway(f"`repeat` asked for {count} rounds, more than the limit of {MAX_REPEAT}")
        self.state.frames.append(Frame(rounds, 0, count, f.me, f.env))

    def _runaway(self, what: str) -> BudgetExceeded:
        origins = self.content.block_origins
        stack = self.state.frames
        # Frames not started yet (pc 0) are waiting, not running: they are left out of the chain.
        frames = [(f.block, origins[f.block] if f.block < len(origins) else "?") for i, f in enumerate(stack)
                  if f.pc > 0 or i == len(stack) - 1]
        return BudgetExceeded(what, chain_of(frames))

    def advance(self) -> None:
        """Run until a player must decide something or the game ends."""
        st = self.state
        while True:
            self.run()
            if st.pending is not None or st.flow == "over":
                return
            flow = st.flow
            if flow == "setup":
                self._begin_age(0)
            elif flow == "between":
                self._begin_age(st.age + 1)
            elif flow == "age_setup":
                st.flow = "turn"
                st.current = st.next_starter
                st.play_again = False
                st.before_used = False
                return
            elif flow == "action":
                self._end_turn()
                if st.flow == "turn":
                    return
            elif flow == "before_action":
                if self._reveal():
                    continue  # what the first action uncovered is turned up before the normal action
                st.flow = "turn"
                st.before_used = True
                if st.structure and all(i < 0 for i in st.structure):
                    st.flow = "action"   # nothing left to take: the turn (and the age) ends
                    continue
                return
            else:
                return

    def _begin_age(self, age: int) -> None:
        st = self.state
        st.age = age
        st.flow = "age_setup"
        self.push(self.content.ages[age], st.next_starter, {})

    def _end_turn(self) -> None:
        st = self.state
        if self._reveal():
            st.flow = "action"  # effects of uncovering run first; the turn ends when they are done
            return
        if st.structure and all(i < 0 for i in st.structure):
            st.play_again = False  # an extra turn is lost when the age ends
            st.before_used = False
            if st.age + 1 >= len(self.content.ages):
                self._finish()
                return
            st.flow = "between"
            st.next_starter = st.last_actor
            if self.content.between_ages >= 0:
                self.push(self.content.between_ages, st.last_actor, {})
            return
        if not st.play_again:
            st.current = self.opponent(st.current)
        st.play_again = False
        st.before_used = False
        st.flow = "turn"

    def _reveal(self) -> bool:
        """Turn up the face-down cards nothing covers any more; True if `uncovered` triggers run."""
        st = self.state
        if not st.layout:
            return False
        covering = self._covering()
        face_up = st.face_up
        frames: list[Frame] = []
        for slot, item in enumerate(st.structure):
            if item >= 0 and not face_up[slot] and not covering[slot]:
                face_up[slot] = True
                frames += self.event_frames("uncovered", st.current, item)
                self._accessible = None
        if frames:
            self.schedule(frames)
            return True
        return False

    def _finish(self) -> None:
        st = self.state
        st.flow = "over"
        st.frames.clear()
        st.pending = None
        totals = [sum(self.score(p).values()) for p in range(st.players)]
        best = max(totals)
        leaders = [p for p, t in enumerate(totals) if t == best]
        if len(leaders) > 1 and self.content.tiebreak:
            tb = [self.score(p).get(self.content.tiebreak, 0) for p in leaders]
            top = max(tb)
            leaders = [p for p, t in zip(leaders, tb) if t == top]
        st.winner = leaders[0] if len(leaders) == 1 else DRAW
        st.victory = "civilian"

    # -- actions ----------------------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        st = self.state
        if st.flow == "over":
            return []
        if st.pending is not None:
            d = st.pending
            if d.kind == "player":
                return [Action(CHOOSE_PLAYER, (player_label(o),)) for o in d.options]
            if d.kind == "space":
                return [Action(CHOOSE_SPACE, (str(o),)) for o in d.options]
            if d.kind == "option":
                return [Action(CHOOSE_OPTION, (label,)) for label in d.labels]
            out = [Action(CHOOSE, (self.name(o),)) for o in d.options]
            if d.optional:
                out.append(Action(PASS))
            return out
        out = []
        for act, binding in self._bindings():
            out.append(Action(act.name, tuple(self.name(i) for i in binding)))
        return out

    def _open_actions(self, me: int):
        """The actions whose turn-wide conditions hold now, each with its parameters' candidates."""
        st = self.state
        guard_frame = Frame(0, 0, 0, me, {})
        for act in self.content.actions:
            if act.before_turn and st.before_used:
                continue
            if act.guards and not all(g(self, guard_frame) for g in act.guards):
                continue
            yield act, [self.candidates(p.selector, me) for p in act.params]

    def _bindings(self):
        st = self.state
        me = st.current
        coins = st.coins[me]
        for act, pools in self._open_actions(me):
            combos = ((x,) for x in pools[0]) if len(pools) == 1 else product(*pools)
            check = bool(act.requires or act.paid or act.pays)
            for binding in combos:
                if act.shared_pools and len(set(binding)) != len(binding):
                    continue
                if check and not self._allowed(act, binding, me, coins):
                    continue
                yield act, binding

    def random_action(self, rng: random.Random) -> Action:
        """A legal action drawn uniformly at random, without listing them all: candidate
        bindings are drawn uniformly and the illegal ones rejected (never drawn twice)."""
        st = self.state
        if st.pending is not None or st.flow == "over":
            actions = self.legal_actions()
            return actions[rng.randrange(len(actions))]
        me = st.current
        coins = st.coins[me]
        spaces = []
        total = 0
        for act, pools in self._open_actions(me):
            size = 1
            for pool in pools:
                size *= len(pool)
            if size:
                spaces.append((act, pools, size))
                total += size
        tried: set[int] = set()
        while len(tried) < total:
            r = rng.randrange(total)
            if r in tried:
                continue
            tried.add(r)
            k = r
            for act, pools, size in spaces:
                if k < size:
                    break
                k -= size
            binding = []
            for pool in reversed(pools):
                k, j = divmod(k, len(pool))
                binding.append(pool[j])
            binding.reverse()
            if act.shared_pools and len(set(binding)) != len(binding):
                continue
            if (act.requires or act.paid or act.pays) and not self._allowed(act, binding, me, coins):
                continue
            return Action(act.name, tuple(self.name(i) for i in binding))
        raise RuntimeError("no legal action")

    def _allowed(self, act, binding, me: int, coins: int) -> bool:
        if act.requires:
            f = Frame(act.block, 0, 0, me, {p.name: i for p, i in zip(act.params, binding)})
            for req in act.requires:
                if not req(self, f):
                    return False
        if act.paid or act.pays:
            total = 0
            for idx in act.paid:
                total += self.price(me, binding[idx])[0]
            if act.pays:
                f = Frame(act.block, 0, 0, me, {p.name: i for p, i in zip(act.params, binding)})
                total += sum(max(0, fn(self, f)) for fn in act.pays)
            if total > coins and total > self.available_coins(me):
                return False
        return True

    def explain_illegal(self, action: Action) -> str | None:
        """Why an action is not legal now, or None when it is."""
        st = self.state
        if st.flow == "over":
            return "the game is over"
        problem = malformed(action)
        if problem is not None:
            return problem
        if st.pending is not None:
            d = st.pending
            if action.name not in (CHOOSE, CHOOSE_PLAYER, CHOOSE_SPACE, CHOOSE_OPTION, PASS):
                return f"player {d.player} must first answer a choice ({d.prompt or 'choose'})"
            if action in self.legal_actions():
                return None
            options = ", ".join(str(a) for a in self.legal_actions())
            return f"not one of the options: {options}"
        act = next((a for a in self.content.actions if a.name == action.name), None)
        if act is None:
            names = ", ".join(a.name for a in self.content.actions)
            return f"unknown action `{action.name}` (actions: {names})"
        if act.before_turn and st.before_used:
            return f"`{act.name}` comes only first in a turn, once"
        if len(action.args) != len(act.params):
            return f"`{act.name}` takes {len(act.params)} argument(s): {', '.join(p.name for p in act.params)}"
        binding = []
        for p, arg in zip(act.params, action.args):
            item = self.content.item_index.get(arg)
            if item is None:
                return f"there is no item named {arg!r}"
            if item not in self.candidates(p.selector, st.current):
                where = "accessible in the structure" if p.selector.zone == STRUCTURE else f"in {p.selector.text}"
                return f"{arg} is not {where}"
            binding.append(item)
        if len(set(binding)) != len(binding):
            return "the same item twice"
        me = st.current
        f = Frame(act.block, 0, 0, me, {p.name: i for p, i in zip(act.params, binding)})
        for req in act.guards + act.requires:
            if not req(self, f):
                return "a requirement of this action does not hold now"
        if act.paid or act.pays:
            total = sum(self.price(me, binding[i])[0] for i in act.paid)
            total += sum(max(0, fn(self, f)) for fn in act.pays)
            have = self.available_coins(me)
            if total > have:
                return f"it costs {total} coins and player {me} has {have}"
        return None

    def apply(self, action: Action) -> None:
        """Apply a legal action; an illegal one raises IllegalAction and changes nothing."""
        reason = self.explain_illegal(action)
        if reason is not None:
            raise IllegalAction(action, reason)
        if self._origin_of is not self.state:
            self._snapshot()
        self._apply(action)

    def _apply(self, action: Action) -> None:
        """Apply an action known to be legal (agents, simulations: no check, no snapshot)."""
        self.steps_left = self.max_steps
        try:
            self._run_action(action)
        except BudgetExceeded as exc:
            self._undo_last()
            raise exc.for_action(action) from None

    def _snapshot(self) -> None:
        """Keep a copy of the state before this game's first checked action (or after `state`
        was replaced): a runaway action is undone by replaying the actions applied since, so a
        position set up by hand before it is kept."""
        from .persistence import copy_state
        self._origin_of = self.state
        self._origin = (copy_state(self.state), len(self.state.history))

    def _undo_last(self) -> None:
        """Put the state back as it was before the last action: replay the actions before it (a
        game is deterministic) on a copy of the snapshot, or without one from the game's seed."""
        from .persistence import copy_state
        st = self.state
        unlimited = 2**62
        if self._origin_of is st:
            saved, known = self._origin
            again = Game(self.content, copy_state(saved), max_steps=unlimited)
        else:
            known = 0
            again = Game.create(self.content, seed=st.seed, options=st.options, script=st.setup_script or None,
                                max_steps=unlimited)
        redo = [Action(h[0], tuple(h[1:])) for h in st.history[known:-1]]
        for a in redo:
            again._run_action(a)
        for field in attrs.fields(State):
            setattr(st, field.name, getattr(again.state, field.name))
        self._stats = [None] * self.content.players
        self._prices = [None] * self.content.players
        self._price_cache = [{} for _ in range(self.content.players)]
        self._accessible = None
        self._cover_count = None

    def _run_action(self, action: Action) -> None:
        st = self.state
        st.history.append([action.name, *action.args])
        if st.pending is not None:
            d = st.pending
            st.pending = None
            if action.name == PASS:
                self.advance()
                return
            if d.kind == "option":
                self.push(d.bodies[d.labels.index(action.args[0])], d.player, dict(d.env))
                self.advance()
                return
            if d.kind == "player":
                chosen = int(action.args[0][1:])
            elif d.kind == "space":
                chosen = int(action.args[0])
            else:
                chosen = self.content.item_index[action.args[0]]
            if d.remaining > 1:
                env = dict(d.env)
                env["_remaining"] = d.remaining - 1
                st.frames.append(Frame(d.again_block, d.again_pc, d.again_pc + 1, d.again_me, env))
            env = dict(d.env)
            env["chosen"] = chosen
            alias = env.pop("_alias", None)
            if alias:
                env[alias] = chosen
            self.push(d.body, d.player, env)
            self.advance()
            return
        act = next(a for a in self.content.actions if a.name == action.name)
        binding = [self.content.item_index[a] for a in action.args]
        self._start_action(act, binding)

    def _start_action(self, act, binding: list[int]) -> None:
        st = self.state
        st.turn += 1
        st.last_actor = st.current
        st.flow = "before_action" if act.before_turn else "action"
        self.push(act.block, st.current, {p.name: i for p, i in zip(act.params, binding)})
        self.advance()

    # -- selection --------------------------------------------------------------------------------
    def accessible(self) -> list[int]:
        """Structure cards no other card covers, in slot order (cached until the structure changes)."""
        cached = self._accessible
        if cached is not None:
            return cached
        covering = self._covering()
        structure, face_up = self.state.structure, self.state.face_up
        # A card uncovered during a turn is turned up at its end: until then it cannot be chosen.
        self._accessible = [item for slot, item in enumerate(structure)
                            if item >= 0 and not covering[slot] and face_up[slot]]
        return self._accessible

    def _covering(self) -> list[int]:
        """For each structure slot, how many cards still lie on it (derived; rebuilt on load)."""
        if self._cover_count is None:
            st = self.state
            lay = self.content.layouts.get(st.layout)
            self._cover_count = [sum(1 for c in cov if st.structure[c] >= 0) for cov in lay.covered_by] if lay else []
        return self._cover_count

    def owners(self, owner, me: int) -> list[int]:
        if owner == "me":
            return [me]
        if owner == "opponent":
            return [self.opponent(me)]
        if owner in ("all", "most", "any"):
            return list(range(self.content.players))
        return [owner(self, Frame(0, 0, 0, me, {}))] if callable(owner) else [int(owner)]

    def candidates(self, sel: Selector, me: int, env: dict | None = None) -> list[int]:
        if sel.more_zones or sel.where is not None:
            return self._candidates_slow(sel, me, env)
        return self._pool(sel, sel.zone, me)

    def _candidates_slow(self, sel: Selector, me: int, env: dict | None) -> list[int]:
        pool = [i for z in (sel.zone, *sel.more_zones) for i in self._pool(sel, z, me)]
        if sel.where is None:
            return pool
        f = Frame(0, 0, 0, me, dict(env) if env else {})
        out = []
        for i in pool:
            f.env["it"] = i
            if sel.where(self, f):
                out.append(i)
        return out

    def _pool(self, sel: Selector, zone: int, me: int) -> list[int]:
        items = self.content.items
        if zone == STRUCTURE:
            pool = self.accessible()
        elif zone == STRUCTURE_ALL:
            pool = [i for i in self.state.structure if i >= 0]
        elif self.content.zones[zone].per_player:
            pool = [i for o in self.owners(sel.owner, me) for i in self.state.zones[self.zone_base[zone] + o]]
        else:
            pool = self.state.zones[self.zone_base[zone]]
        if sel.colors is None and sel.kind is None and sel.age is None and sel.deck is None:
            return pool  # read-only for callers: copying it is the hot path
        return [i for i in pool if sel.matches(items[i])]

    def count(self, sel: Selector, me: int) -> int:
        if sel.owner == "most" and sel.zone >= 0 and self.content.zones[sel.zone].per_player:
            items = self.content.items
            zones = self.state.zones
            base = self.zone_base[sel.zone]
            return max(sum(1 for i in zones[base + p] if sel.matches(items[i]))
                       for p in range(self.content.players))
        return len(self.candidates(sel, me))

    # -- moving items -----------------------------------------------------------------------------
    def relocate(self, item: int, slot: int) -> None:
        st = self.state
        old = st.loc[item]
        if old >= 0:
            st.zones[old].remove(item)
            if old == self.structure_slot and item in st.structure:
                position = st.structure.index(item)
                st.structure[position] = -1
                self._accessible = None
                if self._cover_count is not None:
                    for under in self.content.layouts[st.layout].covers[position]:
                        self._cover_count[under] -= 1
            if self.slot_active[old]:
                self._dirty(self.slot_owner[old])
        st.attached.pop(item, None)
        st.positions.pop(item, None)
        if st.hidden and item in st.hidden:
            st.hidden.remove(item)
        if old in self.ruled or slot in self.ruled:
            for p in range(self.content.players):
                self._dirty(p)
        st.loc[item] = slot
        if slot >= 0:
            st.zones[slot].append(item)
            if self.slot_active[slot]:
                self._dirty(self.slot_owner[slot])

    def _dirty(self, p: int) -> None:
        # Prices depend on both players' cities, so any change clears every price cache.
        self._stats[p] = None
        for q in range(self.content.players):
            self._prices[q] = None
            self._price_cache[q].clear()

    def arrive(self, item: int, slot: int, by: int, frames: list[Frame]) -> None:
        """Move an item as player `by`'s doing (-1: nobody's, as when a test sets a position up).
        The one place that notices items reaching the discard pile, however they are moved
        there: their `discarded` triggers are added to `frames`, which the caller schedules."""
        if by < 0 or not self.slot_discard[slot] or "discarded" not in self.content.triggers_by_event:
            self.relocate(item, slot)
            return
        owner = self.owner_of(item)  # the player whose zone it leaves
        self.relocate(item, slot)
        frames += self.event_frames("discarded", by, item, owner=owner)

    def move(self, item: int, zone: int, owner: int, onto: int | None = None, bottom: bool = False,
             by: int = -1) -> None:
        frames: list[Frame] = []
        self.arrive(item, self.slot(zone, owner), by, frames)
        if frames:
            self.schedule(frames)
        if bottom:
            pile = self.state.zones[self.slot(zone, owner)]
            pile.insert(0, pile.pop())
        if onto is not None:
            self.state.attached[item] = onto
            it = self.content.items[item]
            if it.copy_science and self.slot_active[self.state.loc[item]]:
                # A copied symbol counts like any other: announce it (pairs, supremacy).
                holder = self.owner_of(item)
                self._dirty(holder)
                frames = []
                for sym in self.content.items[onto].science:
                    frames += self.event_frames("gained_science", holder, symbol=sym)
                self.schedule(frames)

    def move_all(self, src: int, dst: int, owner, me: int, bottom: bool = False, claim: bool = False) -> None:
        zones = self.content.zones
        owners = self.owners(owner, me) if (zones[src].per_player or zones[dst].per_player) else [0]
        frames: list[Frame] = []
        for o in owners:
            moving = list(self.state.zones[self.slot(src, o)])
            for item in moving:
                if claim:
                    self.claim(item, dst, o, me)
                else:
                    self.arrive(item, self.slot(dst, o), me, frames)
            if bottom and moving:
                pile = self.state.zones[self.slot(dst, o)]
                pile[:] = pile[-len(moving):] + pile[:-len(moving)]
        if frames:
            self.schedule(frames)

    def discard(self, me: int, item: int) -> None:
        """To the discard pile, with whatever lies on the item (tokens on a structure card)."""
        pile = self.zone_base[self.content.discard_zone]
        riders = [x for x, host in self.state.attached.items() if host == item]
        frames: list[Frame] = []
        self.arrive(item, pile, me, frames)
        for x in riders:
            self.arrive(x, pile, me, frames)
        if frames:
            self.schedule(frames)

    def draw(self, slot: int, count: int, label: str, unseen: bool = False) -> list[int]:
        """A chance step: `count` items at random from a slot (or as the script dictates).
        An `unseen` draw (cards leaving the game face down) is never dictated: it takes items
        the zone's script does not name, so the script describes what players do see."""
        st = self.state
        pool = st.zones[slot]
        scripted = st.script.get(label)
        if unseen and scripted:
            promised = {self.content.item_index.get(n) for n in scripted}
            pool = [i for i in pool if i not in promised]
            scripted = None
        count = min(count, len(pool))
        out = []
        for _ in range(count):
            if scripted:
                name = scripted.pop(0)
                item = self.content.item_index.get(name)
                if item is None or item not in pool or item in out:
                    raise ValueError(f"scripted draw from {label}: {name!r} is not there")
            else:
                rest = [i for i in pool if i not in out]
                st.rng, k = chance.below(st.rng, len(rest))
                item = rest[k]
            out.append(item)
        st.chance.append([label, *(self.name(i) for i in out)])
        return out

    def deal(self, count: int, src: int, dst: int, owner: int, space: int | None = None,
             hidden: bool = False, unseen: bool = False, by: int = -1) -> None:
        frames: list[Frame] = []
        for item in self.draw(self.slot(src, owner), count, self.content.zones[src].name, unseen):
            self.arrive(item, self.slot(dst, owner), by, frames)
            if space is not None:
                self.state.positions[item] = space
            if hidden:
                self.state.hidden.append(item)
        if frames:
            self.schedule(frames)

    def deal_structure(self, src: int, layout: str) -> None:
        st = self.state
        lay = self.content.layouts[layout]
        items = self.draw(self.slot(src, 0), len(lay.face_up), self.content.zones[src].name)
        st.layout = layout
        self._accessible = None
        self._cover_count = None
        st.structure = [-1] * len(lay.face_up)
        st.face_up = list(lay.face_up)
        for slot, item in enumerate(items):
            self.relocate(item, self.structure_slot)
            st.structure[slot] = item
        self.schedule(self.event_frames("structure_dealt", st.next_starter))

    # -- coins, pawn, turns -----------------------------------------------------------------------
    def gain_coins(self, p: int, n: int) -> None:
        if n > 0:
            self.state.coins[p] += n

    def lose_coins(self, p: int, n: int) -> None:
        if n > 0:
            self.state.coins[p] = max(0, self.state.coins[p] - n)

    def grant_play_again(self, p: int) -> None:
        if p == self.state.current:
            self.state.play_again = True

    def set_next_starter(self, p: int) -> None:
        self.state.next_starter = p

    def win(self, p: int, victory: str) -> None:
        st = self.state
        st.flow = "over"
        st.winner = p
        st.victory = victory
        st.frames.clear()
        st.pending = None

    def pawn_distance(self, p: int) -> int:
        return self.state.pawn if p == 0 else -self.state.pawn

    def track_points(self, p: int) -> int:
        d = self.pawn_distance(p)
        pts = self.content.track.points
        if d <= 0 or not pts:
            return 0
        return pts[min(d, len(pts) - 1)]

    def shields(self, p: int, n: int) -> None:
        """Move the pawn n spaces towards p's opponent, one at a time; tokens reached apply; a
        blocking piece stops the pawn before its space and is removed."""
        st = self.state
        capital = self.content.track.capital
        direction = 1 if p == 0 else -1
        side = self.opponent(p)
        frames: list[Frame] = []
        moved = 0
        items = self.content.items
        pieces = st.zones[self.track_slot] if self.track_slot >= 0 else []
        for _ in range(max(0, n)):
            if st.pawn * direction >= capital:
                break
            target = st.pawn + direction
            blocker = next((b for b in pieces if items[b].blocks_pawn and st.positions.get(b) == target), None)
            if blocker is not None:
                self.relocate(blocker, self.zone_base[self.content.zone_index["box"]]
                              if "box" in self.content.zone_index else NOWHERE)
                break
            st.pawn = target
            moved += 1
            dist = st.pawn * direction
            if dist > 0:
                for tok in list(pieces):
                    it = items[tok]
                    if it.side == side and it.space == dist:
                        self.relocate(tok, NOWHERE)
                        if it.effect >= 0:
                            frames.append(Frame(it.effect, 0, len(self.content.blocks[it.effect].steps), p, {}))
        if moved:
            frames += self.event_frames("pawn_moved", p, amount=moved)
        self.schedule(frames)

    # -- building ---------------------------------------------------------------------------------
    def stats(self, p: int) -> Stats:
        s = self._stats[p]
        if s is None:
            zones = self.state.zones
            mine = [i for slot in self.active_slots[p] for i in zones[slot]]
            for slot in self.ruled:
                mine += [i for i in zones[slot] if self.ruled_owner(i, slot) == p]
            s = self._stats[p] = compute_stats(self.content, mine, self.state.attached)
        return s

    def production(self, p: int, resource, colors) -> int:
        r = self._resource_index[resource] if isinstance(resource, str) else resource
        s = self.stats(p)
        if colors is None:
            return s.produce[r]
        return sum(row[r] for color, row in s.by_color.items() if color in colors)

    def trade_prices(self, p: int) -> list[int]:
        """The bank price of each resource for player p."""
        return [self.trade_price(p, r) for r in range(len(self.content.resources))]

    def trade_price(self, p: int, r: int) -> int:
        """The bank price of one resource, computed when first needed after a city changes."""
        prices = self._prices[p]
        if prices is None:
            prices = self._prices[p] = [-1] * len(self.content.resources)
        price = prices[r]
        if price < 0:
            s = self.stats(p)
            fn = self.content.trade_price
            price = fn(self, Frame(0, 0, 0, p, {"resource": self.content.resources[r]})) if fn else 2
            fixed = s.fixed[r]
            if fixed is not None:
                price = min(price, fixed)
            if s.trade_discount[r]:
                price = max(1, price - s.trade_discount[r])
            prices[r] = price
        return price

    def price(self, p: int, item: int) -> tuple[int, int, bool]:
        """(coins to pay in all, of which for trading, whether free by chain)."""
        cache = self._price_cache[p]
        hit = cache.get(item)
        if hit is not None:
            return hit
        it = self.content.items[item]
        s = self.stats(p)
        if it.chain_from and (any(sym in s.chains for sym in it.chain_from) or s.borrow_chains and any(
                sym in self.stats(self.opponent(p)).chains for sym in it.chain_from)):
            result = (0, 0, True)
        elif it.chain_from and s.chain_price is not None and (it.cost is None or self._cost(p, it, s)[0] > s.chain_price):
            result = (s.chain_price, 0, False)
        elif it.cost is None:
            result = (0, 0, False)
        else:
            result = self._cost(p, it, s)
        cache[item] = result
        return result

    def _cost(self, p: int, it, s: Stats) -> tuple[int, int, bool]:
        cost = it.cost
        coins = cost.coins + (max(0, cost.coins_fn(self, Frame(0, 0, 0, p, {}))) if cost.coins_fn else 0)
        need = [max(0, c - q) for c, q in zip(cost.resources, s.produce)]
        discount = waive = 0
        for n, kind, color, or_coins in s.discounts:
            if (kind is None or kind == it.kind) and (color is None or color == it.color):
                discount += n
                waive += or_coins
        prices = [self.trade_price(p, r) if q else 0 for r, q in enumerate(need)] if any(need) else None
        trade = cheapest_trade(need, prices, s.one_of, discount) if prices else 0
        total = coins + trade
        if waive and coins:
            # "Ignore one cost symbol": the coin cost instead of a resource, whichever is cheaper.
            without = cheapest_trade(need, prices, s.one_of, discount - waive) if prices else 0
            if without < total:
                return (without, without, False)
        return (total, trade, False)

    def available_coins(self, p: int) -> int:
        """Treasury plus coins lying on the player's items in play (spendable, not losable)."""
        st = self.state
        if not st.item_coins:
            return st.coins[p]
        return st.coins[p] + sum(n for i, n in st.item_coins.items() if self.owner_of(i) == p and self.slot_active[st.loc[i]])

    def spend(self, p: int, amount: int) -> None:
        """Pay the bank: treasury first, then coins lying on the player's items."""
        st = self.state
        amount = max(0, amount)
        from_treasury = min(amount, st.coins[p])
        st.coins[p] -= from_treasury
        amount -= from_treasury
        for i in sorted(st.item_coins):
            if amount <= 0:
                break
            if self.owner_of(i) == p and self.slot_active[st.loc[i]]:
                take = min(amount, st.item_coins[i])
                st.item_coins[i] -= take
                amount -= take

    def build(self, p: int, item: int, free: bool = False) -> None:
        via = "free"
        frames: list[Frame] = []
        if not free:
            total, trade, chain = self.price(p, item)
            via = "chain" if chain else "paid"
            self.spend(p, total)
            if trade:
                frames += self.event_frames("traded", p, amount=trade)
        self._into_play(p, item, "built", via, frames)

    def acquire(self, p: int, item: int) -> None:
        self._into_play(p, item, "acquired", None, [])

    def _into_play(self, p: int, item: int, event: str, via: str | None, frames: list[Frame]) -> None:
        it = self.content.items[item]
        self.relocate(item, self.slot(self.content.build_zone[it.kind], p))
        # What happens because the item is now in play (the rules' and other items' `built`
        # triggers, e.g. "once 7 wonders are built") comes first, then the item's own effect.
        frames += self.event_frames(event, p, item, via=via)
        if it.effect >= 0:
            frames.append(Frame(it.effect, 0, len(self.content.blocks[it.effect].steps), p, {}))
        for sym in it.science:
            frames += self.event_frames("gained_science", p, symbol=sym)
        self.schedule(frames)

    # -- events -----------------------------------------------------------------------------------
    def event_frames(self, name: str, actor: int, item: int = -1, only: int = -1, **fields) -> list[Frame]:
        """Frames for the triggers an event sets off (`only`: just that item's triggers, and the
        item's controller as `me` even before the event reaches the rules)."""
        triggers = self.content.triggers_by_event.get(name)
        if not triggers:
            return []
        if only >= 0:
            blocks = self.content.blocks
            event = {"name": name, "by": actor, **fields}
            return [Frame(t.block, 0, len(blocks[t.block].steps), actor, {"event": event})
                    for t in triggers if t.item == only and (t.zone is None or t.zone == fields.get("zone"))]
        st = self.state
        items = self.content.items
        it = items[item] if item >= 0 else None
        event = {"name": name, "by": actor, "item": item, **fields}
        out = []
        for t in triggers:
            if t.zone is not None and t.zone != fields.get("zone"):
                continue
            if t.item >= 0:
                slot = st.loc[t.item]
                if slot in self.ruled:
                    me = self.ruled_owner(t.item, slot)
                    # A ruled item hears the events of its own space of the zone that rules it.
                    if me < 0 or ("space" in fields and (st.positions.get(t.item) != fields["space"]
                                                         or fields.get("zone") != self.ruled[slot])):
                        continue
                elif slot < 0 or not self.slot_active[slot]:
                    continue
                else:
                    me = self.slot_owner[slot]
            else:
                me = actor
            if t.by == "me" and actor != me or t.by == "opponent" and actor == me:
                continue
            if t.colors is not None and (it is None or it.color not in t.colors):
                continue
            if t.kind is not None and (it is None or it.kind != t.kind):
                continue
            if t.via is not None and fields.get("via") != t.via:
                continue
            out.append(Frame(t.block, 0, len(self.content.blocks[t.block].steps), me, {"event": event}))
        return out

    def event_field(self, event: dict, name: str):
        if name == "kind" or name == "color":
            # Read from the event's item when asked: most events never need them.
            item = event.get("item", -1)
            return getattr(self.content.items[item], name) if item >= 0 else None
        return event.get(name)

    def item_attr(self, item: int, name: str):
        if not isinstance(item, int) or not 0 <= item < len(self.content.items):
            return None
        value = getattr(self.content.items[item], name, None)
        if value is None and name in ("age", "value", "side", "space"):
            return 0  # an item without an age compares as age 0, never as a crash
        return value

    # -- decisions --------------------------------------------------------------------------------
    def choose(self, by: int, count: int, sel: Selector, body: int, f: Frame, alias: str | None = None,
               optional: bool = False) -> None:
        count = f.env.get("_remaining", count)
        options = self.candidates(sel, f.me, f.env)
        if count <= 0 or not options:
            return
        env = {k: v for k, v in f.env.items() if k != "_remaining"}
        if alias:
            env["_alias"] = alias
        self.state.pending = Decision(by, "item", list(options), body, env, f.block, f.pc - 1, f.me, count,
                                      f"choose from {sel.text}", optional)

    def choose_space(self, by: int, zone: int, empty: bool, body: int, f: Frame, where=None,
                     alias: str | None = None) -> None:
        st = self.state
        z = self.content.zones[zone]
        if zone == self.content.track.zone:
            cap = self.content.track.capital
            options = list(range(-cap, cap + 1))
        else:
            options = list(range(z.spaces))
        if empty:
            taken = {st.positions.get(i) for i in st.zones[self.slot(zone, by)]}
            options = [o for o in options if o not in taken]
        if where is not None:
            probe = Frame(0, 0, 0, f.me, dict(f.env))
            kept = []
            for o in options:
                probe.env["space"] = o
                if where(self, probe):
                    kept.append(o)
            options = kept
        env = dict(f.env)
        if alias:
            env["_alias"] = alias
        if options:
            st.pending = Decision(by, "space", options, body, env, prompt=f"choose a space of {z.name}")

    def choose_option(self, by: int, options: list[tuple[str, int]], f: Frame) -> None:
        if options:
            self.state.pending = Decision(by, "option", list(range(len(options))), -1, dict(f.env),
                                          prompt="choose one", labels=[o[0] for o in options],
                                          bodies=[o[1] for o in options])

    def choose_player(self, by: int, body: int, f: Frame) -> None:
        self.state.pending = Decision(by, "player", list(range(self.content.players)), body, dict(f.env),
                                      prompt="choose a player")

    # -- ordered decks, spaces, things lying on items ----------------------------------------------
    def owner_of(self, item: int) -> int:
        slot = self.state.loc[item]
        return self.slot_owner[slot] if slot >= 0 else -1

    def place(self, item: int, zone: int, owner: int, space: int, hidden: bool = False, by: int = -1) -> None:
        st = self.state
        old = st.loc[item]
        before = self.ruled_owner(item, old) if old in self.ruled else -1
        fields = {"zone": self.ruled[old], "space": st.positions.get(item, -1)} if old in self.ruled else {}
        frames: list[Frame] = []
        self.arrive(item, self.slot(zone, owner), by, frames)
        st.positions[item] = space
        if hidden:
            st.hidden.append(item)
        new = st.loc[item]
        after = self.ruled_owner(item, new) if new in self.ruled else -1
        if before != after:
            # A ruled item changing hands: its own lost/gained triggers, as if control had changed
            # (of the space it left, then of the space it came to).
            if before >= 0:
                frames += self.event_frames("control_lost", before, only=item, **fields)
            if after >= 0:
                frames += self.event_frames("control_gained", after, only=item, zone=self.ruled[new], space=space)
        if frames:
            self.schedule(frames)

    def claim(self, item: int, zone: int, owner: int, by: int = -1) -> None:
        frames: list[Frame] = []
        self.arrive(item, self.slot(zone, owner), by, frames)
        block = self.content.items[item].claim_block
        if block >= 0 and owner < 0:
            owner = self.owner_of(item)
        if block >= 0:
            self.push(block, owner, {})
        if frames:
            self.schedule(frames)

    def reveal(self, zone: int, space: int | None) -> None:
        st = self.state
        if not st.hidden:
            return
        here = set(st.zones[self.slot(zone, 0)])
        st.hidden = [i for i in st.hidden if not (i in here and (space is None or st.positions.get(i) == space))]

    def marked_slots(self, mark: str) -> list[int]:
        lay = self.content.layouts.get(self.state.layout)
        return list(lay.marks.get(mark, [])) if lay else []

    def structure_row(self, item: int) -> int:
        st = self.state
        lay = self.content.layouts.get(st.layout)
        if lay is None or item not in st.structure:
            return -1
        return lay.row_of[st.structure.index(item)]

    # -- cubes on spaces, and who controls them ---------------------------------------------------
    def cubes(self, zone: int, player: int, space: int | None = None) -> int:
        grid = self.state.cubes.get(self.content.zones[zone].name)
        if grid is None or not 0 <= player < len(grid):
            return 0
        row = grid[player]
        if space is None:
            return sum(row)
        return row[space] if 0 <= space < len(row) else 0

    def cube_supply(self, zone: int, player: int) -> int:
        return self.state.supply.get(self.content.zones[zone].name, [0] * self.content.players)[player]

    def control(self, zone: int) -> list[int]:
        return self.state.control.get(self.content.zones[zone].name, [])

    def controller(self, zone: int, space: int) -> int:
        c = self.control(zone)
        return c[space] if 0 <= space < len(c) else -1

    def add_cube(self, zone: int, player: int, space) -> None:
        name = self.content.zones[zone].name
        st = self.state
        if name not in st.cubes or not isinstance(space, int) or not 0 <= space < len(st.cubes[name][player]) \
                or st.supply[name][player] <= 0:
            return
        st.supply[name][player] -= 1
        st.cubes[name][player][space] += 1
        frames = self.event_frames("cube_added", player, zone=name, space=space)
        self._update_control(zone, frames)

    def remove_cube(self, zone: int, player: int, space) -> None:
        name = self.content.zones[zone].name
        st = self.state
        if name not in st.cubes or not isinstance(space, int) or not 0 <= space < len(st.cubes[name][player]) \
                or st.cubes[name][player][space] <= 0:
            return
        st.cubes[name][player][space] -= 1
        st.supply[name][player] += 1
        self._update_control(zone, [])

    def move_cube(self, zone: int, player: int, src, dst) -> None:
        name = self.content.zones[zone].name
        st = self.state
        row = st.cubes.get(name, [[]])[player] if name in st.cubes else []
        if not (isinstance(src, int) and isinstance(dst, int) and 0 <= src < len(row) and 0 <= dst < len(row)) \
                or row[src] <= 0 or src == dst:
            return
        row[src] -= 1
        row[dst] += 1
        # A cube arriving on a space, placed or moved, is a cube added there.
        self._update_control(zone, self.event_frames("cube_added", player, zone=name, space=dst))

    def _update_control(self, zone: int, frames: list[Frame]) -> None:
        """Recompute who controls each space; items ruled by those spaces change hands, and the
        players concerned get `control_lost` (first) and `control_gained` events."""
        z = self.content.zones[zone]
        st = self.state
        grid = st.cubes[z.name]
        control = st.control[z.name]
        lost: list[Frame] = []
        gained: list[Frame] = []
        for space in range(z.spaces):
            counts = [grid[p][space] for p in range(st.players)]
            top = max(counts)
            new = counts.index(top) if top > 0 and counts.count(top) == 1 else -1
            old = control[space]
            if new == old:
                continue
            if old >= 0:
                lost += self.event_frames("control_lost", old, zone=z.name, space=space)
            control[space] = new
            for p in range(st.players):
                self._dirty(p)
            if new >= 0:
                gained += self.event_frames("control_gained", new, zone=z.name, space=space)
        self.schedule(frames + lost + gained)

    def ruled_owner(self, item: int, slot: int) -> int:
        """The controller of the space a ruled item stands on (-1: nobody)."""
        ctrl = self.state.control.get(self.ruled[slot])
        space = self.state.positions.get(item, -1)
        return ctrl[space] if ctrl and 0 <= space < len(ctrl) else -1

    def first_empty(self, zone: int) -> int:
        taken = {self.state.positions.get(i) for i in self.state.zones[self.slot(zone, 0)]}
        return next((s for s in range(max(self.content.zones[zone].spaces, 1)) if s not in taken), -1)

    def shuffle(self, zone: int) -> None:
        """A chance step: put a zone in random order (the last item is the top)."""
        slot = self.slot(zone, 0)
        order = self.draw(slot, len(self.state.zones[slot]), self.content.zones[zone].name)
        self.state.zones[slot][:] = list(reversed(order))  # the first drawn is the top

    def take_top(self, count: int, src: int, dst: int, me: int) -> None:
        """The top `count` items, keeping their order (the top one last, as in the deck)."""
        pile = self.state.zones[self.slot(src, me)]
        frames: list[Frame] = []
        for item in pile[len(pile) - min(count, len(pile)):]:
            self.arrive(item, self.slot(dst, me), me, frames)
        if frames:
            self.schedule(frames)

    def return_to_deck(self, zone: int, me: int) -> None:
        """Every item back on top of its own deck, in the order they lie (the last ends on top)."""
        items = self.content.items
        frames: list[Frame] = []
        for item in list(self.state.zones[self.slot(zone, me)]):
            deck = items[item].deck
            if deck >= 0:
                self.arrive(item, self.slot(deck, me), me, frames)
        if frames:
            self.schedule(frames)

    def deal_onto_structure(self, count: int, src: int, slots: list[int]) -> None:
        st = self.state
        spots = [s for s in slots if 0 <= s < len(st.structure) and st.structure[s] >= 0][:count]
        for item, spot in zip(self.draw(self.slot(src, 0), len(spots), self.content.zones[src].name), spots):
            self.relocate(item, self.structure_slot)
            st.attached[item] = st.structure[spot]

    def take_attached(self, me: int, host: int) -> None:
        riders = [x for x, h in self.state.attached.items() if h == host]
        for x in reversed(riders):
            self.acquire(me, x)

    def trigger(self, me: int, item: int) -> None:
        it = self.content.items[item]
        if it.effect >= 0:
            self.push(it.effect, me, {})

    def put_coins(self, amount: int, item: int) -> None:
        if amount > 0:
            self.state.item_coins[item] = self.state.item_coins.get(item, 0) + amount

    # -- science and scoring ----------------------------------------------------------------------
    def science_count(self, p: int, symbol: str) -> int:
        return self.stats(p).science.get(symbol, 0)

    def distinct_science(self, p: int) -> int:
        return sum(1 for n in self.stats(p).science.values() if n > 0)

    def has_option(self, name: str) -> bool:
        return name in self.state.options

    def score(self, p: int) -> dict[str, int]:
        """VP by category: card colours, `wonder`, `token`, and the game's own categories."""
        out: dict[str, int] = {}
        items = self.content.items
        zones = self.state.zones
        frame = Frame(0, 0, 0, p, {})
        for slot in self.active_slots[p]:
            for i in zones[slot]:
                it = items[i]
                if it.points:
                    cat = it.color if it.kind == "card" and it.color else it.kind
                    out[cat] = out.get(cat, 0) + sum(fn(self, frame) for fn, _ in it.points)
        for cat, fn in self.content.scores:
            out[cat] = out.get(cat, 0) + fn(self, frame)
        return out

    # -- copies -----------------------------------------------------------------------------------
    def clone(self) -> "Game":
        from .persistence import copy_state
        copy = Game.__new__(Game)  # a copy of a state this game made: no need to check it again
        copy._adopt(self.content, copy_state(self.state), self.max_steps)
        if self._origin_of is self.state:
            # The saved state is never changed: the copy may undo from it too (no second copy).
            copy._origin_of, copy._origin = copy.state, self._origin
        return copy
