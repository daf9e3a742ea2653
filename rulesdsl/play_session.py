"""A game being played by people against agents, apart from any screen: who plays each seat,
the moves made (so the last own move can be taken back by replaying the others: a seed and a
list of actions reproduce a game exactly), what the other seats did last, and saving."""

from __future__ import annotations

from pathlib import Path

import attrs

from .safe_text import printable


@attrs.define
class Session:
    rules: object                       # rulesdsl.pipeline.Ruleset
    seed: int
    who: list[str]                      # per seat: "human" or an agent's name
    options: tuple[str, ...] = ()
    max_steps: int = 0
    script: dict | None = None          # a saved game's set-up script (rulesdsl.trace)
    game: object = None                 # rulesdsl.interpreter.Game
    bots: dict = attrs.Factory(dict)
    moves: list[tuple[int, object]] = attrs.Factory(list)   # (seat, Action) in the order applied
    last: dict[int, str] = attrs.Factory(dict)              # seat -> its last move, once public
    log: list[str] = attrs.Factory(list)                    # what happened, newest last
    _held: list[tuple[int, str]] = attrs.Factory(list)      # a simultaneous round's choices, hidden until it resolves

    def start(self) -> "Session":
        """A new game from the seed and options (and the agents, seeded from the seed)."""
        from .interpreter.agents import make_agent
        from .simulate import agent_seed
        kwargs = {"max_steps": self.max_steps} if self.max_steps else {}
        self.game = self.rules.new_game(seed=self.seed, options=list(self.options), script=self.script, **kwargs)
        self.bots = {p: make_agent(name, agent_seed(self.seed, p)) for p, name in enumerate(self.who)
                     if name != "human"}
        self.moves, self.last, self.log, self._held = [], {}, [], []
        return self

    @property
    def humans(self) -> list[int]:
        return [p for p, name in enumerate(self.who) if name == "human"]

    def viewer(self) -> int:
        """The seat the screen shows: the human to move, else the first human seat."""
        g = self.game
        if not g.over and g.to_move() in self.humans:
            return g.to_move()
        return self.humans[0] if self.humans else 0

    def human_to_move(self) -> int | None:
        g = self.game
        if g.over:
            return None
        p = g.to_move()
        return p if p not in self.bots else None

    def play(self, action) -> None:
        """The human to move plays `action` (IllegalAction if it is not legal: nothing changes),
        then the agents play until a human must choose or the game ends."""
        self._apply(self.game.to_move(), action)
        self.run_agents()

    def run_agents(self) -> None:
        """The agents play until a human must choose or the game ends; GameStuck (an
        EffectFailed) where the seat to move has nothing it may do."""
        from .interpreter.legality import not_stuck
        g = self.game
        while not g.over:
            p = g.to_move()
            not_stuck(g, p)
            if p not in self.bots:
                return
            self._apply(p, self.bots[p].act(g))

    def _apply(self, seat: int, action) -> None:
        g = self.game
        g.apply(action, seat)
        self.moves.append((seat, action))
        self._held.append((seat, printable(f"p{seat} ({self.who[seat]}): {action}")))
        self._flush()

    def _flush(self) -> None:
        from .play_view import round_open
        if not round_open(self.game):   # a round's choices show once it resolves
            for p, line in self._held:
                self.last[p] = line
                self.log.append(line)
            self._held.clear()
            del self.log[:-200]

    def resume(self, actions, chosen=()) -> None:
        """Play a saved game's moves (each by the seat to move then), then `chosen`, (seat,
        action) pairs of a round under way (a trace's `round`: seats that chose before a seat
        ahead of them), as if made here: a human's can be undone.  One that is not legal raises
        IllegalAction (ValueError)."""
        for action in actions:
            self._apply(self.game.to_move(), action)
        for seat, action in chosen:
            self._apply(seat, action)

    def can_undo(self) -> bool:
        return any(p in self.humans for p, _ in self.moves)

    def undo(self) -> bool:
        """Take back the last move a human made and every move after it: the game is replayed
        from its seed without them (the agents then play on, to the human's turn).  False when
        no human has moved yet."""
        cut = max((i for i, (p, _) in enumerate(self.moves) if p in self.humans), default=None)
        if cut is None:
            return False
        kept = self.moves[:cut]
        bots = self.bots
        self.start()
        self.bots = bots   # the agents keep playing from where they are
        for seat, action in kept:
            self._apply(seat, action)
        self.log.append("(undone)")
        return True

    def save(self, path: Path) -> None:
        """The game's trace (rulesdsl.trace), written atomically; FileProblem if it cannot be."""
        from .trace import save_trace
        save_trace(self.game, path)

    def result(self) -> str:
        g = self.game
        st = g.state
        scores = [g.total_score(p) for p in range(st.players)]
        winner = "a shared victory" if st.winner is None or st.winner < 0 else f"p{st.winner} wins"
        return f"game over: {winner} ({st.victory}); scores " + ", ".join(f"p{p} {s}" for p, s in enumerate(scores))
