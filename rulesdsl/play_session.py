"""A game being played by people against agents, apart from any screen: who plays each seat,
the moves made (so the last own move can be taken back by replaying the others: a seed and a
list of actions reproduce a game exactly), what the other seats did last (each move as each
seat may see it: an item it never saw is named only by its kind), and saving."""

from __future__ import annotations

from pathlib import Path

import attrs

from .safe_text import printable


@attrs.define(frozen=True)
class Move:
    """A move as the seats see it once it is public: `shown[v]` is the action as seat v may see
    it (its own seat's in full; another's with each item v saw neither before it nor after it
    named by its kind only, `sell (a card)`)."""
    seat: int
    who: str
    shown: tuple[str, ...]

    def line(self, viewer: int, plain: bool = False) -> str:
        """`p1 (greedy): build Quarry` (plain: `player 1 (greedy): ...`) as seat `viewer` sees it."""
        return printable(f"{'player ' if plain else 'p'}{self.seat} ({self.who}): {self.shown[viewer]}")

    def __str__(self) -> str:   # (as its own seat sees it)
        return self.line(self.seat)


@attrs.define
class Session:
    rules: object                       # rulesdsl.pipeline.Ruleset
    seed: int
    who: list[str]                      # per seat: "human" or an agent's name
    options: tuple[str, ...] = ()
    max_steps: int = 0
    script: dict | None = None          # a saved game's set-up script (rulesdsl.trace)
    game: object = None                 # rulesdsl.interpreter.Game
    bots: dict[int, str] = attrs.Factory(dict)            # seat -> the agent that plays it
    moves: list[tuple[int, object]] = attrs.Factory(list)   # (seat, Action) in the order applied
    last: dict[int, Move] = attrs.Factory(dict)             # seat -> its last move, once public
    log: list[Move] = attrs.Factory(list)                   # what happened, newest last (the last 200)
    logged: int = 0                                         # how many moves the log has ever had
    # Moves applied, not public yet (a simultaneous round's choices, until it resolves): (seat,
    # action, the items each argument names, what each seat saw before the turn it belongs to).
    _held: list[tuple] = attrs.Factory(list)
    _seen: list = attrs.Factory(list)   # what each seat saw as the last turn began
    _lineup: object = None              # the bots' agents, resolved (rulesdsl.agents.Lineup)

    def start(self) -> "Session":
        """A new game from the seed and options, and the seats the agents play."""
        kwargs = {"max_steps": self.max_steps} if self.max_steps else {}
        self.game = self.rules.new_game(seed=self.seed, options=list(self.options), script=self.script, **kwargs)
        self.bots = {p: name for p, name in enumerate(self.who) if name != "human"}
        if self._lineup is None or self._lineup.names != tuple(self.bots.values()):
            from .agents import lineup
            self._lineup = lineup(self.bots.values())
        self.moves, self.last, self.log, self.logged, self._held, self._seen = [], {}, [], 0, [], []
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
        EffectFailed) where the seat to move has nothing it may do; an AgentError naming the
        agent, its seat and the game's seed where a custom agent raises, answers an illegal
        action or changes the game (`agents.answer`): the game is as it was before it."""
        from .interpreter.legality import not_stuck
        g = self.game
        while not g.over:
            p = g.to_move()
            not_stuck(g, p)
            if p not in self.bots:
                return
            self._apply(p, self.agent_for(p).act(g))

    def agent_for(self, seat: int):
        """The agent that makes seat's next decision, seeded from the game's seed, the seat and
        how many moves were made before it: a game saved and loaded (`--load`), or taken back
        (`u`) and played the same way again, goes on with the agents choosing exactly as they
        would have (an agent kept from the start would draw from a generator that the replayed
        moves never advanced)."""
        from .interpreter.chance import derive
        k = list(self.bots).index(seat)
        # (a custom agent comes with the check of its answers: `agents.Vetted`)
        return self._lineup.made(k, derive("play", self.seed, seat, len(self.moves)), seat,
                                 f"the game of seed {self.seed}")

    def _apply(self, seat: int, action) -> None:
        from .play_view import bound_items, seen_by_all
        g = self.game
        if g.state.pending is None or not self.moves or self.moves[-1][0] != seat:
            # A turn begins (or a round's choice, or a seat takes over): what each seat sees now
            # is what it saw of the items the moves from here name, until the next.  An item the
            # mover's own decisions bring out and put away again (gods turned up to be placed
            # face down) was never before the others.
            self._seen = seen_by_all(g)
        items = bound_items(g, seat, action)
        g.apply(action, seat)
        self.moves.append((seat, action))
        self._held.append((seat, action, items, self._seen))
        self._flush()

    def _flush(self) -> None:
        from .play_view import action_seen, round_open, seen_by_all
        g = self.game
        pending = g.state.pending
        # A round's choices show once it resolves; a move, once its seat has made the decisions
        # it leads to (what a god chosen becomes is known once it is placed, face down or not).
        if round_open(g) or pending is not None and self._held and pending.player == self._held[-1][0]:
            return
        after = seen_by_all(g) if self._held else []
        for seat, action, items, seen in self._held:
            shown = tuple(printable(str(action)) if v == seat else action_seen(g, action, items, seen[v], after[v])
                          for v in range(g.state.players))
            move = Move(seat, self.who[seat], shown)
            self.last[seat] = move
            self.log.append(move)
            self.logged += 1
        self._held.clear()
        del self.log[:-200]

    def told_since(self, count: int) -> list[Move]:
        """The moves made public after the first `count` the log has had (`logged` then)."""
        new = self.logged - count
        return self.log[len(self.log) - min(new, len(self.log)):] if new > 0 else []

    def resume(self, actions, chosen=()) -> None:
        """Play a saved game's moves (each by the seat to move then), then `chosen`, (seat,
        action) pairs of a round under way (a trace's `round`: seats that chose before a seat
        ahead of them), as if made here: a human's can be undone.  One that is not legal raises
        IllegalAction (ValueError)."""
        for action in actions:
            self._apply(self.game.to_move(), action)
        for seat, action in chosen:
            self._apply(seat, action)

    def _undo_cut(self, seat: int) -> int | None:
        """Where an undo by `seat` cuts the moves: at its own last move, unless another person
        (a human seat) has moved since (that move is theirs to take back, not this seat's)."""
        cut = max((i for i, (p, _) in enumerate(self.moves) if p == seat), default=None)
        if cut is None or any(p != seat and p in self.humans for p, _ in self.moves[cut + 1:]):
            return None
        return cut

    def can_undo(self, seat: int | None = None) -> bool:
        return self._undo_cut(self.viewer() if seat is None else seat) is not None

    def undo(self, seat: int | None = None) -> bool:
        """Take back `seat`'s last move (default: the seat the screen shows) and every agent's
        move after it: the game is replayed from its seed without them (the agents then play
        on, to the human's turn).  False when that seat has not moved yet, or another human
        seat has moved since: no one takes back another person's move."""
        cut = self._undo_cut(self.viewer() if seat is None else seat)
        if cut is None:
            return False
        kept = self.moves[:cut]
        self.start()
        for seat_, action in kept:
            self._apply(seat_, action)
        return True

    def save(self, path: Path) -> None:
        """The game's trace (rulesdsl.trace), written atomically; FileProblem if it cannot be."""
        from .trace import save_trace
        save_trace(self.game, path)

    def result(self) -> str:
        g = self.game
        st = g.state
        scores = [g.total_score(p) for p in range(st.players)]
        winner = (f"a shared victory ({', '.join(f'p{p}' for p in g.winners())})"
                  if st.winner is None or st.winner < 0 else f"p{st.winner} wins")
        return f"game over: {winner} ({st.victory}); scores " + ", ".join(f"p{p} {s}" for p, s in enumerate(scores))
