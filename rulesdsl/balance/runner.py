"""Playing the games of a balance run: the schedule (seeds and seat rotation), one game with its
record, and a process pool whose tasks' outcomes are joined in game order as they come back.

Game `i` deals from the seed of its *deal* `i // seats` and seats the line-up rotated by
`i % seats`: every agent of the line-up sits in every seat on the same deals, which cancels the
advantage of a seat.  A game depends only on its index, so any number of jobs gives the same
outcomes.  An agent that raises or answers an illegal action ends the run with a GameFailure
naming the agent, the seat and the game's seed; the games before it are kept."""

from __future__ import annotations

import functools
import gc
import heapq
import itertools
import time
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

import attrs

from ..agents import AgentError, SearchOptions, answer, defined_interactively, lineup, lineup_again
from ..collector import skipping_what_exists
from ..interpreter.budget import DEFAULT_MAX_STEPS, MAX_GAME_ACTIONS, EffectFailed, GameStuck, complete_deals
from ..interpreter.chance import derive
from ..interpreter.creation import checked_options
from ..interpreter.core import watch
from ..interpreter.legality import not_stuck
from ..interpreter.playout import play_out, too_long
from ..interpreter.random_agent import RandomAgent
from ..interpreter.state import DRAW
from ..workers import Window, start_method, worker_pool
from .analysis import Holdings
from .outcomes import Outcomes, seating


@attrs.frozen
class Plan:
    """What a run plays: the content (a base game name or folder, expansions, a player count),
    one agent per seat (the line-up, rotated over the games), how many games from which seed,
    and the game options every game is created with (`with_options_checked`)."""

    base: str
    expansions: tuple[str, ...]
    players: int | None
    agents: tuple[str, ...]
    games: int
    seed: int = 0
    search: SearchOptions = SearchOptions()
    max_steps: int = DEFAULT_MAX_STEPS
    traces: str | None = None          # a folder: each game's trace is written there (rulesdsl replay)
    options: tuple[str, ...] = ()


@attrs.frozen
class GameFailure(Exception):
    """An agent raised, answered something not legal, or an action ran away: the message names
    the agent, its seat, the game and its seed."""

    index: int
    message: str

    def __str__(self) -> str:
        return self.message


@attrs.define
class RunResult:
    """The games played, in game order: each one's outcome, in columns (`Outcomes`, about 0.2 KB
    a Duel game), and what their seats took and built added up (`holdings`): what a run keeps
    does not hold every item of every game, nor a dict per game, so a run of a million games
    stays in memory."""

    outcomes: Outcomes
    failure: str | None = None
    seconds: float = 0.0
    holdings: Holdings = attrs.Factory(Holdings)
    resumed: int = 0   # (the first games, read from a checkpoint: not played in `seconds`)

    @property
    def records(self) -> list[dict]:
        """Each game's record (`play_game`'s, without `taken` and `built`), made now: a dict per
        game, which a long run's `outcomes` does without."""
        return list(self.outcomes)


def deal_seed(seed: int, deal: int) -> int:
    return derive("balance", seed, deal)


def labels(agents: tuple[str, ...]) -> list[str]:
    """A name for each line-up position: the agent's name, numbered where it appears twice."""
    out = []
    for i, a in enumerate(agents):
        out.append(f"{a}#{agents[:i].count(a) + 1}" if agents.count(a) > 1 else a)
    return out


def load(plan: Plan):
    from ..pipeline import load_ruleset
    return load_ruleset(plan.expansions, plan.base, plan.players)


def with_options_checked(plan: Plan) -> Plan:
    """The plan with its options as its games take them (sorted, each once), checked against its
    content (ValueError, UnknownName): a run refuses them before its first game, and a
    checkpoint or a report names them alike however they were given."""
    options = tuple(dict.fromkeys(checked_options(load(plan).content, plan.options)))
    return plan if options == plan.options else attrs.evolve(plan, options=options)


def play_game(rules, plan: Plan, index: int, factories: list[Callable[[int], Any]], bundled: list[bool]) -> dict:
    """Play game `index` of the plan; its record, or GameFailure."""
    n = rules.content.players
    deal = index // n
    seed = deal_seed(plan.seed, deal)
    positions = seating(plan.agents, index)
    names = labels(plan.agents)
    where = f"game {index} (seed {seed})"
    try:
        game = rules.new_game(seed=seed, options=plan.options, max_steps=plan.max_steps)
    except EffectFailed as exc:
        raise GameFailure(index, f"{exc.within(where)}") from None
    agents = []
    for s in range(n):
        a = positions[s]
        try:
            # (seeded by line-up position, not seat: two agents of one kind seeded by seat played
            # the deal's rotated games exactly alike, so every game was counted once per rotation)
            agents.append(factories[a](derive("agent", seed, a)))
        except Exception as exc:
            raise GameFailure(index, f"agent {plan.agents[a]!r} (seat {s}) could not be made in {where}: "
                                     f"{type(exc).__name__}: {exc}") from None
    every_seat_random = all(type(agent) is RandomAgent for agent in agents)
    tracker = Taken(game, watching=every_seat_random)
    if every_seat_random:
        # Every seat the plain random agent: the game the loop below plays, action for action,
        # in `play_out`'s random turns (what `rulesdsl simulate` plays), the tracker after each.
        try:
            play_out(game, agents, after=tracker.arrived)
        except EffectFailed as exc:
            raise GameFailure(index, f"{exc.within(where)}") from None
        except Exception as exc:   # (as the agent raising it is named below)
            s = game.to_move()
            raise GameFailure(index, f"agent {plan.agents[positions[s]]!r} (seat {s}) raised {type(exc).__name__}: "
                                     f"{exc} in {where}") from None
    for _ in range(MAX_GAME_ACTIONS):
        if game.over:
            break
        s = game.to_move()
        a = positions[s]
        try:
            not_stuck(game, s)
        except GameStuck as exc:   # (the game's, not the agent's)
            raise GameFailure(index, f"{exc.within(where)}") from None
        try:
            action = answer(agents[s], game, plan.agents[a], s, where, bundled[a])
        except AgentError as exc:
            raise GameFailure(index, str(exc)) from None
        try:
            game._apply(action)
        except EffectFailed as exc:
            raise GameFailure(index, f"{exc.within(where)}") from None
        tracker.update(game)
    else:
        try:
            too_long(game)
        except EffectFailed as exc:
            raise GameFailure(index, f"{exc.within(where)}") from None
    try:
        complete_deals(game)   # (a game dealt short is not a game of these rules: not counted)
    except EffectFailed as exc:
        raise GameFailure(index, f"{exc.within(where)}") from None
    if plan.traces:
        from ..files import FileProblem
        from ..trace import save_trace
        try:
            save_trace(game, Path(plan.traces) / f"game-{index}.json")
        except FileProblem as exc:   # (a full disk, a folder of that name: the run ends here, reported)
            raise GameFailure(index, str(exc)) from None
    st = game.state
    # (a game that went to its last age's end was scored then, as `simulate` reads it)
    ended = game._ended_scores or [game.score(p) for p in range(n)]
    scores = [dict(sorted(s.items())) for s in ended]
    return {"index": index, "deal": deal, "seed": seed, "rotation": index % n,
            "agents": [names[positions[s]] for s in range(n)],
            "winner": -1 if st.winner == DRAW or st.winner is None else st.winner,
            "victory": st.victory, "scores": scores, "totals": [sum(s.values()) for s in scores],
            "turns": st.turn, "actions": len(st.history), "taken": tracker.taken, "built": tracker.built}


class Taken:
    """What each seat took and built, and when: an item entering one of the seat's public zones
    (a wonder drafted, a board dealt, a card built, ...) is *taken*; entering one of its active
    zones (in play for it: a card built, a wonder or stage built, a token won) is *built*.  Each
    is recorded once per seat, with the game turn it came at.

    Two ways to look, after each action, with the same records: `update` compares every
    watched slot with what it held at the last look, for any game; `arrived` reads only the
    items the game noted coming into them (`watching`: `core.watch`), for a game played on
    itself (no copies), and looks at a slot only when something came: a random game's moves
    are its cheapest part, and comparing the slots cost a random Duel game as much as a
    sixth of its own time."""

    def __init__(self, game, watching: bool = False) -> None:
        c = game.content
        self.slots = [(game.slot(z.id, p), p, z.active) for z in c.zones if z.per_player and z.public
                      for p in range(c.players)]
        self.items = c.items
        self.seen: list[set[int]] = [set() for _ in range(c.players)]
        self.seen_built: list[set[int]] = [set() for _ in range(c.players)]
        self.taken: list[list[list]] = [[] for _ in range(c.players)]
        self.built: list[list[list]] = [[] for _ in range(c.players)]
        self.looked: list[list[int] | None] = [None] * len(self.slots)   # each slot's items at the last look
        self.update(game)
        self.whose = {slot: (p, active) for slot, p, active in self.slots}
        self.arrivals = watch(game, set(self.whose)) if watching else None

    def arrived(self, game) -> None:
        """`update`, from the items the game noted coming into the watched slots since."""
        arrivals = self.arrivals
        if not arrivals:
            return
        loc, turn, whose = game.state.loc, game.state.turn, self.whose
        for item in arrivals:
            at = whose.get(loc[item])
            if at is None:   # (it came and went: not there now, as `update` would find)
                continue
            self._came(at[0], at[1], (item,), turn)
        arrivals.clear()

    def update(self, game) -> None:
        zones, turn = game.state.zones, game.state.turn
        looked = self.looked
        for k, (slot, p, active) in enumerate(self.slots):
            held = zones[slot]
            if held == looked[k]:   # (nothing came or went since the last look: most slots, most actions)
                continue
            looked[k] = held[:]
            self._came(p, active, held, turn)

    def _came(self, p: int, active: bool, items, turn: int) -> None:
        """Seat p's slot (in play for it: `active`) holds these items at game turn `turn`:
        those it never held before are taken (and built) now."""
        seen, seen_built = self.seen[p], self.seen_built[p]
        for item in items:
            if item not in seen:
                seen.add(item)
                it = self.items[item]
                self.taken[p].append([it.name, it.kind, turn])
            if active and item not in seen_built:
                seen_built.add(item)
                it = self.items[item]
                self.built[p].append([it.name, it.kind, turn])


def _factories(plan: Plan):
    seats = lineup(plan.agents, plan.search)
    return list(seats.factories), list(seats.bundled)


def _play_many(plan: Plan, indexes: range, again: bool = False) -> tuple[Outcomes, Holdings, GameFailure | None]:
    """Play the games in order; stop at the first failure (the games before it are kept):
    their outcomes, and what their seats took and built added up.  `again`: in a worker, whose
    line-up may not resolve as the command's did (`agents.lineup_again`): the failure of its
    first game then."""
    rules = load(plan)
    if again:
        try:
            seats = lineup_again(plan.agents, plan.search)
        except AgentError as exc:
            return Outcomes(tuple(labels(plan.agents)), indexes[0]), Holdings(), GameFailure(indexes[0], str(exc))
        factories, bundled = list(seats.factories), list(seats.bundled)
    else:
        factories, bundled = _factories(plan)
    outcomes = Outcomes(tuple(labels(plan.agents)), indexes[0] if indexes else 0)
    held = Holdings()
    failure = None
    for i in indexes:
        try:
            record = play_game(rules, plan, i, factories, bundled)
        except GameFailure as exc:
            failure = exc
            break
        held.add(record)
        outcomes.add(record)
    return outcomes, held, failure


# The most games one task of a worker plays (random Duel games: a tenth of a second).
CHUNK = 100


def total_games(plan: Plan, seats: int) -> int:
    """The games a plan plays: its count rounded up to whole rotations (each deal at every seat)."""
    return -(-plan.games // seats) * seats


def run(plan: Plan, jobs: int = 1, progress: Callable[[int, int], None] | None = None,
        saved: tuple[Outcomes, Holdings] | None = None,
        joining: Callable[[Outcomes, Holdings], None] | None = None, marks: int | None = None) -> RunResult:
    """Play the plan's games on `jobs` processes; outcomes in game order.  A failure (or ^C)
    keeps the games before the first failing one, so the outcomes are the same for any `jobs`.
    `saved`: the plan's first games, played before (a checkpoint's), which the run takes over
    (and adds to): it plays the games after them.  `joining(outcomes, holdings)`: called with
    each batch of games as it joins the run's, in game order (a checkpoint appends it).
    `progress(games, total)`: after each batch, the games joined in game order (those a report
    would hold if the run stopped there; a batch back before an earlier one waits for it).
    `marks`: no task plays across a multiple of this many games, so a batch ends at each (the
    two sides of an A/B end batches together there: `lab.mark_every`)."""
    start = time.perf_counter()
    plan = with_options_checked(plan)
    seats = load(plan).content.players
    total = total_games(plan, seats)
    joined = _joined_from(plan, total, saved, joining)
    begin = joined.outcomes.end
    chunks = _each_chunk(begin, total, jobs, seats, marks)
    if begin and progress:
        try:
            progress(begin, total)
        except KeyboardInterrupt:   # (before any game: the report is of the games played before)
            return _finish(joined, GameFailure(begin, "interrupted"), start, begin)
    with skipping_what_exists() as keep:   # (`keep()`: what the run keeps so far left out of its passes too)
        failure = _play_chunks(plan, chunks, jobs, total, progress, keep, joined)
    return _finish(joined, failure, start, begin)


def _each_chunk(begin: int, total: int, jobs: int, seats: int, marks: int | None = None) -> Iterator[range]:
    """Games `begin` to before `total` cut into tasks, made one at a time as the run takes them
    (a billion games asked once made every cut first: 23 GB before the first game).  About
    eight tasks a job: small enough that a short run (one deal of slow games) uses every job,
    large enough that fast games do not pay a round trip each; at most CHUNK games, so that a
    long run shows its progress and an interrupted one keeps nearly all it played; whole
    rotations (a multiple of the seats), so a batch ends where a deal has been played at every
    seat; and a cut at every multiple of `marks`."""
    size = max(1, min(CHUNK, (total - begin) // (max(1, jobs) * 8)))
    size = max(seats, size - size % seats)
    # (cut at multiples of `size` counted from game 0: a run resumed from a game that is no
    # whole rotation, one cut short before, ends its batches on whole rotations again)
    steps = [size, marks] if marks else [size]
    cuts = heapq.merge([begin] if begin < total else [],
                       *(range(-(-begin // step) * step, total, step) for step in steps))
    starts = (cut for cut, _ in itertools.groupby(cuts))   # (in order, each once: a mark may be a cut too)
    return (range(i, j) for i, j in itertools.pairwise(itertools.chain(starts, [total])))


def _chunks(begin: int, total: int, jobs: int, seats: int, marks: int | None = None) -> list[range]:
    """`_each_chunk`'s, as a list: for a span short enough to hold (a test's)."""
    return list(_each_chunk(begin, total, jobs, seats, marks))


def replay(plan: Plan, games: range, jobs: int = 1) -> RunResult:
    """Play games `games` of the plan again, on `jobs` processes (a game depends only on its
    index: the same outcomes and holdings as when they were first played, with agents seeded by
    the game's seed; no trace written again): what an A/B cut short reads where a side's batches
    do not end at the games it compares (`lab.ab`).  A failure or ^C keeps the games before it,
    as `run`."""
    plan = attrs.evolve(plan, traces=None)
    start = time.perf_counter()
    joined = _Joined(Outcomes(tuple(labels(plan.agents)), games.start))
    chunks = _each_chunk(games.start, games.stop, jobs, load(plan).content.players) if len(games) else []
    with skipping_what_exists() as keep:
        failure = _play_chunks(plan, chunks, jobs, games.stop, None, keep, joined)
    return _finish(joined, failure, start)


# The failure of a run never started (`unplayed`): the side B of an A/B whose A was stopped.
NOT_STARTED = "not started"


def unplayed(plan: Plan, saved: tuple[Outcomes, Holdings] | None = None) -> RunResult:
    """A run of the plan stopped before it started (its failure `NOT_STARTED`, not "interrupted
    after 0 games": it played nothing to interrupt): the games `saved` (`run`'s), if any."""
    joined = _joined_from(plan, total_games(plan, load(plan).content.players), saved, None)
    return _finish(joined, GameFailure(joined.outcomes.end, NOT_STARTED), time.perf_counter(), joined.outcomes.end)


def _joined_from(plan: Plan, total: int, saved: tuple[Outcomes, Holdings] | None,
                 joining: Callable[[Outcomes, Holdings], None] | None) -> "_Joined":
    """The games a run starts from: none, or the plan's first games played before (taken over)."""
    if saved is None:
        return _Joined(Outcomes(tuple(labels(plan.agents))), joining=joining)
    outcomes, holdings = saved
    if outcomes.first != 0 or len(outcomes) > total or outcomes.labels != tuple(labels(plan.agents)):
        raise ValueError(f"games {outcomes.first} to {outcomes.end - 1} of line-up {outcomes.labels} are not "
                         f"the first of this run's {total} games")
    return _Joined(outcomes, holdings, joining=joining)


@attrs.define
class _Joined:
    """The tasks' outcomes, and what their seats took and built, joined in game order as they
    come back (a task that comes early waits for those before it): what a run holds does not
    grow by a task's sums, nor by a dict per game."""

    outcomes: Outcomes
    holdings: Holdings = attrs.Factory(Holdings)
    waiting: dict[int, tuple[Outcomes, Holdings]] = attrs.Factory(dict)
    joining: Callable[[Outcomes, Holdings], None] | None = None   # (told of each batch joined)

    def take(self, got: Outcomes, held: Holdings) -> None:
        self.waiting[got.first] = got, held
        out = self.outcomes
        while out.end in self.waiting:   # (a task cut short by a failure leaves a gap after it)
            got, held = self.waiting.pop(out.end)
            out.extend(got)
            self.holdings.merge(held)
            if self.joining is not None:
                self.joining(got, held)


@attrs.define
class _Collected:
    """How far the tasks whose outcomes came back reach from the first, without a gap: where a
    report interrupted there ends (a task cut short by a failure counts as back; one cancelled
    does not).  Holds only the tasks back beyond the first gap, a window's worth at most."""

    through: int
    beyond: dict[int, int] = attrs.Factory(dict)   # (each such task's first game: its end)

    def add(self, chunk: range) -> None:
        self.beyond[chunk.start] = chunk.stop
        while self.through in self.beyond:
            self.through = self.beyond.pop(self.through)


def _play_chunks(plan: Plan, chunks: Iterable[range], jobs: int, total: int,
                 progress: Callable[[int, int], None] | None, keep: Callable[[], None],
                 joined: _Joined) -> GameFailure | None:
    failure: GameFailure | None = None
    chunks = iter(chunks)
    head = list(itertools.islice(chunks, max(1, jobs)))   # (a pool needs no more workers than tasks)
    chunks = itertools.chain(head, chunks)
    if jobs <= 1 or not head:   # (no game at all: no process to start)
        try:
            for chunk in chunks:
                got, held, failure = _play_many(plan, chunk)
                joined.take(got, held)
                keep()
                if progress:
                    progress(len(joined.outcomes), total)
                if failure:
                    break
        except KeyboardInterrupt:
            failure = GameFailure(joined.outcomes.end, f"interrupted after {joined.outcomes.end} games")
        return failure
    # (a worker lives for the run: what it holds at first, the rules, is left out of the
    # collector's passes, as in `rulesdsl.simulate`)
    collected = _Collected(head[0].start)
    try:
        with worker_pool(min(jobs, len(head)), gc.freeze,
                         method=start_method(fork_only=defined_interactively(plan.agents))) as pool:
            # (submitted a few a worker at a time, in game order, as earlier ones come back: a
            # long run holds no task per game it will play; those back early wait in `joined`)
            window = Window(pool, functools.partial(_play_many, plan, again=True), chunks)
            for chunk, fut in window.finished():
                if fut.cancelled():   # after a failure: a game that never started
                    continue
                got, held, failed = fut.result()
                collected.add(chunk)   # (its result is not held after it is joined)
                joined.take(got, held)
                keep()
                if progress:
                    progress(len(joined.outcomes), total)
                if failed and (failure is None or failed.index < failure.index):
                    failure = failed
                    window.stop()   # (the tasks not submitted, and those not started, come after it)
    except KeyboardInterrupt:   # (the pool has ended its workers: `rulesdsl.workers`)
        # Up to the first chunk whose outcomes did not come back, whether it was cut short,
        # never started (or submitted), or finished unread: the report has no gap.
        failure = GameFailure(collected.through, "interrupted")
    return failure


def _finish(joined: _Joined, failure: GameFailure | None, start: float, resumed: int = 0) -> RunResult:
    outcomes = joined.outcomes
    if failure is not None:
        # Only the games before the first failure, the same whatever the number of jobs: the
        # games joined stop at the first gap (a task cut short by a failure, or one that did not
        # come back before an interruption), and with them what their seats took and built (a
        # task's sums are of its games, ended by its first failure).
        if failure.message == "interrupted":
            failure = GameFailure(failure.index, f"interrupted after {len(outcomes)} games")
    return RunResult(outcomes, str(failure) if failure else None, time.perf_counter() - start, joined.holdings,
                     resumed)
