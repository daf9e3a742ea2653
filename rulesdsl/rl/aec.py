"""The PettingZoo AEC environment: one class for any content set and seat count.

Agents are `player_0` .. `player_{n-1}` (seat order).  The agent to act is always the seat
`Game.to_move()` names: in a simultaneous round the seats choose one after another, lowest seat
first, and a choice is stored without being shown to the seats that choose after it (their
observations never hold another seat's choice); the round resolves when the last seat has
chosen.  Rewards come at the end (docs/rl.md)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from rulesdsl.interpreter.actions import Action, GameOver
from rulesdsl.interpreter.game import Game
from rulesdsl.interpreter.observation import observe
from rulesdsl.interpreter.state import DRAW
from rulesdsl.names import integer, layers_given, names_given
from rulesdsl.pipeline import integer_given, load_ruleset

from .encoding import Encoder
from .reach import analyse
from .render import render_text
from .space import DEFAULT_OPTION_SLOTS, DEFAULT_PAY_SLOTS, ActionSpace

REWARDS = ("win", "score")
OBS_TYPES = ("vector", "dict")
ILLEGAL = ("raise", "terminate", "random")


class IllegalActionError(ValueError):
    """An action number the agent may not play now; the game is unchanged."""


class UnknownAgent(KeyError, ValueError):
    """An agent name the environment does not have (a KeyError, as a dict of agents raises, and a
    ValueError, as the parallel environment's `step` raises for one)."""

    def __str__(self) -> str:   # (a KeyError shows its message quoted)
        return str(self.args[0])


class ViewSpace(spaces.Space):
    """The space of `interpreter.observation.observe` dicts (obs_type="dict")."""

    def __init__(self, keys: frozenset[str]):
        super().__init__(None, None)
        self.keys = keys

    def contains(self, x: Any) -> bool:
        return isinstance(x, dict) and self.keys <= x.keys()

    def sample(self, mask: Any = None, probability: Any = None) -> dict:
        raise NotImplementedError("observations of a game cannot be sampled")

    @property
    def is_np_flattenable(self) -> bool:
        return False


class RulesEnv(AECEnv):
    """A game of rulesdsl content as a PettingZoo AEC environment (see `rulesdsl.rl.env`)."""

    metadata = {"name": "rulesdsl_v0", "render_modes": ["ansi", "human"], "is_parallelizable": True}

    def __init__(self, game: str | Path = "duel", expansions: tuple[str, ...] | list[str] = (),
                 players: int | None = None, seed: int | None = None, *, options: tuple[str, ...] = (),
                 reward: str = "win", obs_type: str = "vector", illegal: str = "raise",
                 max_cycles: int | None = None, pay_slots: int = DEFAULT_PAY_SLOTS,
                 option_slots: int = DEFAULT_OPTION_SLOTS, render_mode: str | None = None):
        super().__init__()
        for value, allowed, what in ((reward, REWARDS, "reward"), (obs_type, OBS_TYPES, "obs_type"),
                                     (illegal, ILLEGAL, "illegal")):
            if value not in allowed:
                raise ValueError(f"{what} must be one of {', '.join(allowed)}, not {value!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {', '.join(self.metadata['render_modes'])}")
        if max_cycles is not None and (isinstance(max_cycles, bool) or not isinstance(max_cycles, int)
                                       or max_cycles < 1):
            raise ValueError(f"max_cycles must be an integer of at least 1 (or None: no limit), not {max_cycles!r}")
        # (numpy's integers too; a float, a string or a bool is refused, as by reset: the
        # constructor took seed=1.5 or "abc" silently)
        seed = integer_given(seed, "the seed") if seed is not None else None
        pay_slots, option_slots = _slots(pay_slots, "pay_slots"), _slots(option_slots, "option_slots")
        # (one name alone is one expansion, not its letters; a game given as anything but a name
        # or a folder is refused before it is read as one)
        expansions, game = layers_given(expansions, game)
        expansions = tuple(expansions)
        self.ruleset = load_ruleset(expansions, base=game, players=players)
        self.content = self.ruleset.content
        self.game_options = tuple(names_given(options))
        self.reward_mode, self.obs_type, self.illegal = reward, obs_type, illegal
        self.max_cycles = max_cycles
        self.render_mode = render_mode
        # PettingZoo's parallel conversion suits the games whose seats choose together.
        self.metadata = dict(self.metadata, is_parallelizable=self.content.simultaneous)
        found = analyse(self.content, expansions, game)
        self.space = ActionSpace.build(self.content, pay_slots, option_slots, found.reach, found.face_down)
        self.game: Game = self.ruleset.new_game(seed=0, options=self.game_options)
        self.encoder = Encoder(self.content, self.game, found.reach, found.face_down, found.victories,
                               found.laid_out)
        n = self.content.players
        self.possible_agents = [f"player_{p}" for p in range(n)]
        self.seat_of = {a: p for p, a in enumerate(self.possible_agents)}
        mask_space = spaces.Box(0, 1, (self.space.n,), dtype=np.int8)
        if obs_type == "vector":
            inner: spaces.Space = spaces.Box(-np.inf, np.inf, (self.encoder.size,), dtype=np.float32)
        else:
            inner = ViewSpace(frozenset(observe(self.game, 0)))
        self.observation_spaces = {a: spaces.Dict({"observation": inner, "action_mask": mask_space})
                                   for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.space.n) for a in self.possible_agents}
        self._rng = random.Random(seed)
        self._legal: dict[int, object] = {}   # number -> ActionSpace.legal_bindings entry
        self._legal_seat = -1
        self._ended = False   # the episode is over for every agent: game over, truncated or terminated
        self.dropped = 0   # legal actions left out of masks (payments or options past their slots)
        self._started = False   # reset() has run: the AEC fields (agents, rewards, ...) exist

    # -- spaces ----------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[self.possible_agents[self.seat(agent)]]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[self.possible_agents[self.seat(agent)]]

    # -- the AEC API -----------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game: with `seed`, that game seed (and the environment's generator reseeded);
        without, the next seed of the environment's generator."""
        if seed is not None:
            game_seed = integer_given(seed, "the seed")   # (numpy's integers too; 1.5 was taken as 1)
            self._rng = random.Random(game_seed)
        else:
            game_seed = self._rng.randrange(2 ** 31)
        self.game = self.ruleset.new_game(seed=game_seed, options=self.game_options)
        self._started = True
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.cycles = 0
        self._acted: set[int] = set()
        self._ended = False
        self.dropped = 0
        self._select()
        if self.game.over:  # a game decided by its set-up alone
            self._finish()

    def seat(self, agent: Any) -> int:
        """The seat of an agent name (`player_2` -> 2); UnknownAgent for any other value (a bare
        KeyError: 0 where a seat was given for the name)."""
        try:
            return self.seat_of[agent]
        except (KeyError, TypeError):
            raise UnknownAgent(f"no agent {agent!r} in this game: its agents are "
                               f"{', '.join(self.possible_agents)}") from None

    def observe(self, agent: str) -> dict:
        seat = self.seat(agent)
        # (bytes set one by one and handed to numpy as its buffer: a few legal numbers cost less
        # so than through an index array)
        marks = bytearray(self.space.n)
        if not self._ended and not self.game.over:   # (a finished agent's mask is all 0, PettingZoo's convention)
            legal = self._legal if seat == self._legal_seat else self.space.legal_bindings(self.game, seat)[0]
            for k in legal:
                marks[k] = 1
        mask = np.frombuffer(marks, dtype=np.int8)
        if self.obs_type == "vector":
            obs: Any = self.encoder.encode(self.game, seat)
        else:
            obs = observe(self.game, seat)
        return {"observation": obs, "action_mask": mask}

    def require_reset(self, what: str) -> None:
        """Before the first reset() the AEC fields do not exist: say so (it read "'RulesEnv'
        object has no attribute 'agents'")."""
        if not self._started:
            raise RuntimeError(f"reset() must be called before {what}")

    def last(self, observe: bool = True):
        self.require_reset("last()")
        return super().last(observe)

    def agent_iter(self, max_iter: int = 2**63):
        self.require_reset("agent_iter()")
        return super().agent_iter(max_iter)

    def step(self, action: Any) -> None:
        self.require_reset("step()")
        if not self.agents:   # (a bare KeyError of the agent stepped last)
            raise GameOver("the game is over and every agent is done: reset() starts another")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.seat_of[agent]
        self._cumulative_rewards[agent] = 0.0
        for a in self.rewards:
            self.rewards[a] = 0.0
        entry = self._legal.get(self._index(action))
        if entry is not None and self.infos[agent].get("illegal"):
            self.infos[agent] = {}   # (the mark is of the step that played a random action, not later ones)
        if entry is None:
            if self.illegal == "raise":
                raise IllegalActionError(self._refusal(action, agent))
            if self.illegal == "terminate":
                self._terminate_illegal(agent)
                return
            legal = list(self._legal.values())
            entry = legal[self._rng.randrange(len(legal))]
            self.infos[agent] = {"illegal": True}
        self._play(self.space.action(self.game, entry), seat)

    def play(self, action: Action) -> None:
        """Step with an `Action` instead of its number (a legal action of the agent to act, as
        an agent of interpreter/agents.py picks it, even one past the payment or option slots);
        an illegal one raises IllegalActionError and changes nothing."""
        self.require_reset("play()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            raise IllegalActionError(f"{agent}: the game has ended for it")
        seat = self.seat_of[agent]
        reason = self.game.explain_illegal(action, seat)
        if reason is not None:
            raise IllegalActionError(f"{agent}: illegal action {action}: {reason}")
        self._cumulative_rewards[agent] = 0.0
        for a in self.rewards:
            self.rewards[a] = 0.0
        self._play(action, seat)

    def _play(self, chosen: Action, seat: int) -> None:
        # Known legal (from this seat's legal actions, or checked): no second check, no undo copy.
        self.game._apply(chosen, seat)
        self._acted.add(seat)
        if self.game.over:
            self._finish()
            return
        self._select()
        if self.game.to_move() in self._acted:   # everyone still to act has acted: a cycle ends
            self.cycles += 1
            self._acted = set()
            if self.max_cycles is not None and self.cycles >= self.max_cycles:
                self.truncations = {a: True for a in self.agents}
                self._end()

    def render(self) -> str | None:
        text = render_text(self.game, self.game.to_move() if not self.game.over else 0, self.content)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    # -- beyond the AEC API ----------------------------------------------------------------------
    def legal_actions(self, agent: str | None = None) -> dict[int, Action]:
        """The numbers an agent may play now, with the action each stands for (none once the
        episode has ended, as its mask)."""
        self.require_reset("legal_actions()")
        seat = self.seat(self.agent_selection if agent is None else agent)
        if self._ended or self.game.over:
            return {}
        legal = self._legal if seat == self._legal_seat else self.space.legal_bindings(self.game, seat)[0]
        return {k: self.space.action(self.game, entry) for k, entry in legal.items()}

    def action_label(self, index: int) -> str:
        """The label of action number `index` (0 to n - 1: a negative number is refused, not
        read from the end; numpy's integers are integers)."""
        k = integer_given(index, "the action number")
        if not 0 <= k < self.space.n:
            raise ValueError(f"{index!r} is not an action number (0 to {self.space.n - 1})")
        return self.space.labels[k]

    def view(self, agent: str) -> dict:
        """What the agent's seat sees, as `interpreter.observation.observe` gives it."""
        return observe(self.game, self.seat(agent))

    def scores(self) -> list[int]:
        return [self.game.total_score(p) for p in range(self.content.players)]

    # -- inside ----------------------------------------------------------------------------------
    def _select(self) -> None:
        seat = self.game.to_move()
        self.agent_selection = self.possible_agents[seat]
        if self.game.over:
            self._legal, self._legal_seat = {}, -1
            return
        self._legal, dropped = self.space.legal_bindings(self.game, seat)
        self._legal_seat = seat
        self.dropped += dropped

    def _index(self, action: Any) -> int:
        if isinstance(action, bool):   # (True played action 1: a flag is no action number)
            return -1
        try:
            index = int(action)
        except (TypeError, ValueError):
            return -1
        return index if index == action else -1

    def _refusal(self, action: Any, agent: str, legal_now: dict | None = None) -> str:
        """Why `action` is refused for `agent`, whose legal numbers are `legal_now` (default: those of
        the agent to act; the parallel step checks every seat of a round before playing any)."""
        if legal_now is None:
            legal_now = self._legal
        if isinstance(action, bool):
            return f"{agent}: the action must be an action number, not {action!r}"
        try:
            index = int(action)
        except (TypeError, ValueError):
            return f"{agent}: the action must be an action number, not {action!r}"
        if not 0 <= index < self.space.n or index != action:
            return f"{agent}: {action!r} is not an action number (0 to {self.space.n - 1})"
        legal = ", ".join(f"{k} ({self.space.action(self.game, a)})" for k, a in sorted(legal_now.items())[:8])
        return (f"{agent}: action {index} ({self.space.labels[index]}) is not legal now (masked); "
                f"legal: {legal}{' ...' if len(legal_now) > 8 else ''}")

    def _terminate_illegal(self, agent: str) -> None:
        """PettingZoo's convention (TerminateIllegalWrapper): the offender loses 1, the game ends."""
        self.rewards = {a: (-1.0 if a == agent else 0.0) for a in self.agents}
        self.terminations = {a: True for a in self.agents}
        self.infos[agent] = {"illegal": True}
        self._end()
        self._accumulate_rewards()

    def _finish(self) -> None:
        self.agent_selection = self.possible_agents[0] if self.possible_agents[0] in self.agents else self.agents[0]
        self._end()
        results = self._results()
        self.rewards = {a: results[self.seat_of[a]] for a in self.agents}
        self.terminations = {a: True for a in self.agents}
        self._accumulate_rewards()

    def _end(self) -> None:
        """The episode is over for every agent (the game over, truncated, or ended by an illegal
        action): no agent has a legal number any more, in its mask or in `legal_actions`."""
        self._ended = True
        self._legal, self._legal_seat = {}, -1

    def _results(self) -> list[float]:
        """The final reward of each seat: "win": +1 the winner, -1 the others; a shared victory
        0 for the seats that share it, -1 for the others.  "score": the seat's total minus the
        best total among the other seats."""
        st, n = self.game.state, self.content.players
        totals = self.scores()
        if self.reward_mode == "score":
            return [float(totals[p] - max(totals[q] for q in range(n) if q != p)) for p in range(n)]
        if st.winner is not None and st.winner != DRAW:
            return [1.0 if p == st.winner else -1.0 for p in range(n)]
        sharing = self.game.winners()
        return [0.0 if p in sharing else -1.0 for p in range(n)]


def _slots(value: object, what: str) -> int:
    """A number of slots (pay_slots, option_slots): an integer of at least 1 (numpy's too); a
    ValueError otherwise, as for the env's other options."""
    return integer(value, what, least=1, wrong_type=ValueError)

