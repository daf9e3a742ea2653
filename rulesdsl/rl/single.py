"""A Gymnasium single-agent environment: the learner plays one seat of the AEC environment and an
agent of interpreter/agents.py plays every other seat."""

from __future__ import annotations

from typing import Any

import gymnasium as gym

from rulesdsl.interpreter.agents import make_agent
from rulesdsl.pipeline import integer_given

from .aec import RulesEnv


class SingleAgentEnv(gym.Env):
    metadata = {"render_modes": ["ansi", "human"]}

    def __init__(self, aec: RulesEnv, seat: int = 0, opponent: str = "random"):
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(aec.possible_agents):
            # (True was taken as seat 1)
            raise ValueError(f"seat must be an int from 0 to {len(aec.possible_agents) - 1}, not {seat!r}")
        self.aec = aec
        self.seat = seat
        self.agent = aec.possible_agents[seat]
        self.opponent_name = opponent
        self.opponent = make_agent(opponent, 0)
        self.observation_space = aec.observation_space(self.agent)
        self.action_space = aec.action_space(self.agent)
        self.render_mode = aec.render_mode

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            # (gymnasium's own generator takes a Python int of at least 0 alone: numpy's integers
            # and the game's negative seeds, which the AEC environment takes, failed in gymnasium)
            seed = integer_given(seed, "the seed")
        super().reset(seed=None if seed is None else seed % 2**64)
        self.aec.reset(seed=seed, options=options)
        # The opponents' own generator follows the game seed, so a seed replays the same game.
        self.opponent = make_agent(self.opponent_name, self.aec.game.state.seed)
        self._others()
        return self.aec.observe(self.agent), {}

    def step(self, action: Any):
        aec = self.aec
        aec.require_reset("step()")
        if self._done():
            raise RuntimeError("the episode has ended: call reset()")
        before = aec._cumulative_rewards[self.agent]
        aec.step(action)
        reward = aec._cumulative_rewards[self.agent] - before if not self._done() else 0.0
        reward += self._others()
        if self._done():
            reward = aec._cumulative_rewards[self.agent]
        info = dict(aec.infos.get(self.agent, {}))
        return (aec.observe(self.agent), float(reward), bool(aec.terminations[self.agent]),
                bool(aec.truncations[self.agent]), info)

    def _done(self) -> bool:
        return self.aec.terminations[self.agent] or self.aec.truncations[self.agent]

    def _others(self) -> float:
        """The other seats play until the learner must act or the game ends."""
        aec = self.aec
        while not self._done() and aec.agent_selection != self.agent:
            aec.play(self.opponent.act(aec.game))
        return 0.0

    def action_masks(self):
        """The learner's mask (the name sb3-contrib's MaskablePPO looks for)."""
        return self.aec.observe(self.agent)["action_mask"].astype(bool)

    def render(self):
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()
