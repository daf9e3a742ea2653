"""The bundled agents, by name: uniformly random (`random_agent`), a one-move look-ahead greedy
agent, and the search (`search`).  All are generic: they read only legal actions, scores and
what items produce."""

from __future__ import annotations

from rulesdsl.names import check_agent, integer

from . import core, economy, legality, scoring, track
from .actions import Action
from .game import Game
from .random_agent import Agent, RandomAgent, playing, seeded
from .search import MCTSAgent, determinize


class GreedyAgent:
    """Tries every legal action on a copy and keeps the one whose position scores best for it:
    VP difference (coins and the conflict track included), a win or loss outweighing all, and
    small credits for production and distinct scientific symbols that pay off later."""

    name = "greedy"
    WIN = 1000.0

    def __init__(self, seed: int = 0):
        self.rng = seeded(seed)

    def act(self, game: Game) -> Action:
        me = playing(game).to_move()
        actions = game.legal_actions()
        if len(actions) == 1:
            return actions[0]
        best, best_value = [], None
        # (each seat's points worked out on the game itself, once: every copy takes them over,
        # `Game.clone`, and works out again only those of the seats its action changes)
        for p in range(game.state.players):
            scoring.total(game, p)
        in_round = game.state.flow == "round"
        if in_round:
            # The others' choices this round are hidden from `me`, and so are their hands: they
            # choose anew, their first legal actions, from hands drawn again as `me` sees the
            # game (`search.determinize`), once for every action tried (`others_chosen`).
            seen = determinize(game, me, self.rng)
            for p in range(seen.state.players):
                scoring.total(seen, p)
            base, drawn = self.others_chosen(seen, me, self.first_choices(seen, me))
        for action in actions:
            if in_round:
                trial = self.tried_in_round(base, drawn, action, me)
            else:
                trial = game.clone()
                trial._apply(action)
            value = self.evaluate(trial, me)
            if best_value is None or value > best_value + 1e-9:
                best, best_value = [action], value
            elif abs(value - best_value) <= 1e-9:
                best.append(action)
        return best[self.rng.randrange(len(best))]

    def first_choices(self, game: Game, me: int) -> dict[int, tuple[Action, tuple] | None]:
        """Each other seat's first legal action in this round, as it stands before anyone
        chose, with the same in numbers (`turns.choose`'s `drawn`): what `finish_round` has it
        choose on every copy, worked out once a round for each seat and kept with the round's
        candidates (`Game._round_pools`, forgotten when anything moves).  (In a round nothing
        moves until every seat has chosen, so what a seat may choose does not depend on the
        others' choices: the round's kept candidates rest on the same.)  `me`'s own is not
        worked out (the agent's copy of the round is drawn again for every decision, and asked
        for one seat's others only): a game asked later for another seat's others works out
        then the seats it lacks."""
        kept = game._round_pools.get(FIRST_CHOICES)
        if kept is None:
            kept = game._round_pools[FIRST_CHOICES] = {}
        acting = game.state.acting
        missing = [p for p in acting if p != me and p not in kept]
        if missing:
            kept.update(_first_choices(game, missing))
        return {p: kept[p] for p in acting if p != me}

    def others_chosen(self, game: Game, me: int, firsts: dict[int, tuple[Action, tuple] | None]
                      ) -> tuple[Game, dict]:
        """A copy of `game` on which the round's other seats have chosen what `finish_round`
        has them choose after `me`'s choice (their first legal actions, `firsts`, lowest seat
        first, up to one that has none), `me` not yet; and the numbers of those choices as the
        copy keeps them for the round (`turns.choose`'s `drawn`).  `me`'s choice then completes
        the round on a copy of it as it would after `me` chose first: choices enter the history
        in seat order, and the round resolves them in seat order, whoever chose first."""
        base = game.clone()
        st = base.state
        st.choices = [c if p == me else None for p, c in enumerate(st.choices)]
        last = None
        for p in st.acting:
            if p != me:
                first = firsts[p]
                if first is None:
                    break
                base._apply(first[0], p, first[1])
                last = p
        else:
            if last is not None:   # (the seat to move when the round resolves: the last to choose after `me`)
                st.current = last
        return base, {k: v for k, v in base._round_pools.items() if k[0] == "drawn"}

    def tried_in_round(self, base: Game, drawn: dict, action: Action, me: int) -> Game:
        """A copy of `base` (`others_chosen`) on which `me` chose `action`, the round resolved
        and the game went on to `me`'s next choice (`finish_round`)."""
        trial = base.clone()
        # (their choices as `base` holds them, with their numbers: a choice is replaced, never
        # changed, and the round reads the numbers kept for the very same choice)
        trial.state.choices = base.state.choices[:]
        trial._round_pools.update(drawn)
        trial._apply(action, me)
        self.finish_round(trial, me)
        return trial

    def finish_round(self, game: Game, me: int, firsts: dict[int, tuple[Action, tuple] | None] | None = None) -> None:
        """A simultaneous round resolves only when every seat has chosen: on the copy, the seats
        still to choose take their first legal action, so that `me`'s choice takes effect and
        can be scored (what the others really chose is not looked at: `act` forgets it).
        `firsts`: those actions as `first_choices` found them for this round."""
        round_turn = game.state.turn   # (a round that resolved counts a turn: a new round is new)
        for _ in range(4 * game.content.players):  # a bound: each seat chooses once a round
            if game.over or me in game.to_act() or game.state.flow != "round":
                return
            if firsts is not None and game.state.turn == round_turn:
                first = firsts[game.to_move()]
                if first is None:
                    return
                game._apply(first[0], None, first[1])
                continue
            action = game.first_legal_action()   # (not the whole list: every way to pay for every build)
            if action is None:   # (a seat of a round always has one: `turns.begin_round`)
                return
            game._apply(action)

    def evaluate(self, game: Game, me: int) -> float:
        st = game.state
        if st.flow == "over" and st.victory != "civilian":
            return self.WIN if st.winner == me else -self.WIN
        # (loops: the agent scores every action it tries, and a comprehension, a generator and a
        # key function are each a function call more)
        total = scoring.total
        # Measured against the strongest other seat (with two seats: the opponent), the first
        # of them on a tie.  (One loop: every seat's total, in seat order, and the rival.)
        rival, most, own = me, None, 0
        for p in range(st.players):
            points = total(game, p)
            if p == me:
                own = points
            elif most is None or points > most:
                rival, most = p, points
        if st.flow == "over":
            lost = st.winner is not None and 0 <= st.winner != me   # another seat won (not a draw)
            return self.WIN if st.winner == me else (-self.WIN if lost else 0.0)
        later = max(0, len(game.content.ages) - 1 - st.age)  # production matters less as the game ends
        value = float(own - (own if most is None else most))
        mine = economy.stats(game, me)
        value += 0.6 * later * (sum(mine.produce) + len(mine.one_of))
        distinct = scoring.distinct_science
        value += 1.5 * distinct(game, me) - 1.5 * distinct(game, rival)
        if st.players == 2:  # the conflict pawn lies between two capitals (0 in a game without a track)
            value += 0.8 * track.pawn_distance(game, me)
        return value


FIRST_CHOICES = "greedy first choices"   # (the key `first_choices` keeps them under in `Game._round_pools`)


def _first_choices(game: Game, seats: list[int]) -> dict[int, tuple[Action, tuple] | None]:
    """Each of these acting seats' first legal action in this round as it stands before anyone
    chose (None: it has none), with the same in numbers, worked out on a copy whose choices are
    forgotten (the copy is never played: the candidate lists it hands out stay as they are)."""
    base = game.clone()
    st = base.state
    st.choices = [None] * len(st.choices)
    firsts: dict[int, tuple[Action, tuple] | None] = {}
    for p in seats:
        action = base.first_legal_action(p)
        if action is None:
            firsts[p] = None
            continue
        act, binding, pay = legality.decode(base, action, p)
        firsts[p] = (action, (act, binding, pay, legality.pools_of(base, act, p)))
    # (what the copy priced for them, the game's own prices too: every copy of the round resolves
    # these actions, and takes the game's prices over)
    core.take_prices(game, base, seats)
    return firsts


AGENTS = {"random": RandomAgent, "greedy": GreedyAgent, "mcts": MCTSAgent}


def make_agent(name: str, seed: int) -> Agent:
    """An agent by name (an unknown name is a rulesdsl.names.UnknownName, a ValueError), drawing
    from `seed`: an integer (numpy's too), so that a run reproduces; anything else (None, which
    seeded from the system, a float, a string, a bool) is a TypeError."""
    agent = AGENTS[check_agent(name, AGENTS)]
    return agent(integer(seed, f"the seed of agent {name!r}"))
