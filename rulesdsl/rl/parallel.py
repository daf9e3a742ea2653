"""PettingZoo's parallel API over the AEC environment: one `step` takes an action from every
seat that acts in it and is one simultaneous round (in a game of alternating turns, or while a
decision is pending, the seats that act one after another until one would act twice: there
a later seat's action was chosen before the earlier seats' actions of the step were played, so
such games are better played through the AEC API; an action that has become illegal meets the
environment's `illegal` policy)."""

from __future__ import annotations

from typing import Any

from pettingzoo import ParallelEnv

from .aec import IllegalActionError, RulesEnv


class RulesParallelEnv(ParallelEnv):
    metadata = {"name": "rulesdsl_parallel_v0", "render_modes": ["ansi", "human"], "is_parallelizable": True}

    def __init__(self, aec: RulesEnv):
        self.aec = aec
        self.possible_agents = aec.possible_agents[:]
        self.agents: list[str] = []
        self.render_mode = aec.render_mode

    def observation_space(self, agent: str):
        return self.aec.observation_space(agent)

    def action_space(self, agent: str):
        return self.aec.action_space(agent)

    def reset(self, seed: int | None = None, options: dict | None = None):
        self.aec.reset(seed=seed, options=options)
        self.agents = self.possible_agents[:]
        return {a: self.aec.observe(a) for a in self.agents}, {a: {} for a in self.agents}

    def step(self, actions: dict[str, Any]):
        """Plays, in turn order, the action of each seat the game asks for, until a seat would
        act a second time in this step or the game ends.  A seat that must act and has no action
        in `actions` is a ValueError (nothing of this step is played before it is found)."""
        self.aec.require_reset("step()")
        if not isinstance(actions, dict):
            raise ValueError(f"step takes a dict of agent -> action, not {type(actions).__name__}")
        unknown = sorted(str(k) for k in actions if k not in self.possible_agents)
        if unknown:
            raise ValueError(f"no agent {unknown[0]!r} in this game: its agents are {', '.join(self.possible_agents)}")
        aec = self.aec
        done = lambda: aec.terminations[aec.agent_selection] or aec.truncations[aec.agent_selection]  # noqa: E731
        rewards = {a: 0.0 for a in self.agents}
        infos: dict[str, dict] = {a: {} for a in self.agents}
        acted: set[str] = set()
        asked = [self.possible_agents[seat] for seat in aec.game.to_act()] if not done() else []
        for agent in asked:   # every seat of a simultaneous round, before any is played
            if actions.get(agent) is None:
                raise ValueError(f"{agent} must act in this step: give it an action")
        if aec.illegal == "raise" and len(asked) > 1:
            # (the seats of a round choose from the round's start, which their choices do not
            # change: all are checked before any is played, so a refusal leaves nothing played;
            # one seat alone is checked by its own step, which refuses before it plays)
            for agent in asked:
                legal = aec.space.legal_bindings(aec.game, aec.seat_of[agent])[0]
                if aec._index(actions[agent]) not in legal:
                    # (as the AEC step says it: the label and some legal numbers, or not a number)
                    raise IllegalActionError(aec._refusal(actions[agent], agent, legal))
        while not done():
            agent = aec.agent_selection
            if agent in acted:
                break
            if agent not in asked and aec.game.state.flow == "round":
                # A round the step did not ask for (a decision answered, then a new round): the step
                # ends, whatever number the dict holds for it (a caller gives every live agent one).
                break
            if actions.get(agent) is None:
                if agent in asked:
                    raise ValueError(f"{agent} must act in this step: give it an action")
                break   # (a later seat of a cycle of alternate turns the dict leaves out: the step ends)
            aec.step(actions[agent])
            acted.add(agent)
            for a, r in aec.rewards.items():
                if a in rewards:
                    rewards[a] += r
            infos[agent] = dict(aec.infos.get(agent, {}))
        terminations = {a: bool(aec.terminations.get(a, True)) for a in self.agents}
        truncations = {a: bool(aec.truncations.get(a, False)) for a in self.agents}
        observations = {a: aec.observe(a) for a in self.agents}
        self.agents = [a for a in self.agents if not (terminations[a] or truncations[a])]
        return observations, rewards, terminations, truncations, infos

    def render(self):
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()

    def state(self):
        raise NotImplementedError("a global state would show hidden cards: use each agent's observation")
