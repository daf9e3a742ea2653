"""Reinforcement-learning environments for any rulesdsl game (the optional extra `rulesdsl[rl]`:
pettingzoo, gymnasium, numpy).  docs/rl.md describes the action numbering, the observation
layout, rewards and the wrappers.

    from rulesdsl import rl
    env = rl.env("duel", seed=1)                                 # PettingZoo AEC
    par = rl.parallel_env("tests/data/hands", players=4)         # PettingZoo parallel
    single = rl.single_agent_env("duel", opponent="greedy")      # Gymnasium, one seat
"""

from __future__ import annotations

from pathlib import Path

from .aec import IllegalActionError, RulesEnv, UnknownAgent
from .parallel import RulesParallelEnv
from .single import SingleAgentEnv
from .space import ActionSpace


def env(game: str | Path = "duel", expansions: tuple[str, ...] | list[str] = (), players: int | None = None,
        seed: int | None = None, **kwargs) -> RulesEnv:
    """A PettingZoo AEC environment of a bundled game (`"duel"`) or a game folder, with
    expansions, for `players` seats (None: the game's fewest).  Keyword options: reward
    ("win" | "score"), obs_type ("vector" | "dict"), illegal ("raise" | "terminate" |
    "random"), max_cycles, pay_slots, option_slots, options (game options), render_mode."""
    return RulesEnv(game, expansions, players, seed, **kwargs)


def parallel_env(game: str | Path = "duel", expansions: tuple[str, ...] | list[str] = (),
                 players: int | None = None, seed: int | None = None, **kwargs) -> RulesParallelEnv:
    """The same game through PettingZoo's parallel API: one step is one simultaneous round."""
    return RulesParallelEnv(RulesEnv(game, expansions, players, seed, **kwargs))


def single_agent_env(game: str | Path = "duel", expansions: tuple[str, ...] | list[str] = (),
                     players: int | None = None, seed: int | None = None, *, seat: int = 0,
                     opponent: str = "random", **kwargs) -> SingleAgentEnv:
    """A Gymnasium environment: the learner plays `seat`, the other seats are played by an
    agent of interpreter/agents.py (`opponent`: "random" or "greedy")."""
    return SingleAgentEnv(RulesEnv(game, expansions, players, seed, **kwargs), seat=seat, opponent=opponent)


__all__ = ["env", "parallel_env", "single_agent_env", "RulesEnv", "RulesParallelEnv", "SingleAgentEnv",
           "ActionSpace", "IllegalActionError", "UnknownAgent"]
