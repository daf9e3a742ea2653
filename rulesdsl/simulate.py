"""Playing many games between agents and summarising the results."""

from __future__ import annotations

import contextlib
import gc
import time
from typing import Callable, Iterator

import attrs

from .agents import AgentError, Lineup, defined_interactively, known_names, lineup, lineup_again
from .collector import skipping_what_exists
from .interpreter.budget import DEFAULT_MAX_STEPS, EffectFailed, complete_deals
from .interpreter.chance import agent_seed, game_seed   # (re-exported: the seeds of a run's games)
from .interpreter.creation import checked_options
from .interpreter.playout import play_out
from .interpreter.state import DRAW
from .names import integer, names_given
from .pipeline import Ruleset
from .workers import StopAsked, start_method, worker_pool


def play_one(rules: Ruleset, seed: int, agents: list[str] | Lineup, max_steps: int = DEFAULT_MAX_STEPS,
             where: str | None = None, options: tuple[str, ...] = ()):
    """The game of `seed`, created with the game options `options`, played out by `agents`
    (names, one per seat, or a `Lineup` resolved once for many games).  A custom agent's answers are checked (`agents.answer`): one that
    raises, answers an illegal action or changes the game is an AgentError naming it, its seat
    and `where` (default: the game's seed)."""
    seats = agents if isinstance(agents, Lineup) else lineup(agents)
    if where is None and not seats.trusted:   # (only a custom agent's failure names it)
        where = f"the game of seed {seed}"
    game = rules.new_game(seed=seed, options=options, max_steps=max_steps)
    play_out(game, [seats.made(p, agent_seed(seed, p), p, where) for p in range(len(seats.names))],
             trusted=seats.trusted)
    return game


class Stop(Exception):
    """Raised by `simulate`'s `progress` callback to end the run there: the summary covers the
    games played so far (in game order), marked `interrupted`."""


def check_run_seed(seed: object) -> None:
    """ValueError unless a run's seed (`simulate`'s, `verify`'s) is an integer: any integer,
    each game's seed being a hash of it (`game_seed`)."""
    if type(seed) is not int:
        raise ValueError(f"the seed must be an integer, not {seed!r}")


def simulate(rules: Ruleset, games: int, seed: int = 0, agents: list[str] | None = None,
             progress: Callable[[int], None] | None = None, max_steps: int = DEFAULT_MAX_STEPS,
             jobs: int = 1, options: list[str] | tuple[str, ...] = ()) -> dict:
    """Play `games` games between agents (one name per seat; default: random at every seat) and
    summarise them: wins per seat and draws, victories by kind, mean scores per seat.  With
    `jobs` > 1 the games are shared out to worker processes; each game depends only on its own
    seed and the results are added up in game order, so any number of jobs gives the same summary.
    `progress(n)` is called after the n-th game is added up; raising `Stop` there ends the run
    with the summary of those n games, the same as a run asked for n games (`interrupted` true).
    An agent is a bundled one's name, `module:Class` or a registered name (`rulesdsl.agents`;
    one that does not resolve is an AgentError, a ValueError, before any game; one that does
    not resolve again in a spawned worker ends the run at its first game, `error` saying why:
    `agents.lineup_again`); a custom agent that raises, answers an illegal action or changes
    the game ends the run there, as `Stop` does, with `error` naming it, its seat and the
    game's seed (else `error` is None).  `options`: the game options every game is created with
    (`rulesdsl list option`); one the content does not read is an UnknownName, a ValueError,
    before any game, as is a value that is no list of names (a dict, a set)."""
    check_run_seed(seed)
    if not isinstance(rules, Ruleset):   # (a game's name given here failed on `.content`)
        raise TypeError(f"rules must be a Ruleset (`load_ruleset(...)`), not {type(rules).__name__}")
    # (a negative count played nothing, and `jobs` 0 played on one process: both said nothing)
    games = integer(games, "the number of games", least=0)
    jobs = integer(jobs, "jobs", least=1)
    options = tuple(checked_options(rules.content, options))
    players = rules.content.players
    seats = _seats(agents, players)
    agent_names = list(seats.names)
    wins = {str(p): 0 for p in range(players)}
    wins["draw"] = 0
    victories: dict[str, int] = {}
    # (per seat, its points by category over the games: no "seat.category" key made per game and category)
    totals: list[dict[str, int]] = [{} for _ in range(players)]
    start = time.perf_counter()
    outcomes = (_outcomes_parallel(rules, games, seed, agent_names, max_steps, jobs, options)
                if jobs > 1 and games >= 20 else _outcomes(rules, range(games), seed, seats, max_steps, options))
    played = 0
    interrupted = False
    error = None
    # (closed on the way out, whatever ends the loop: an interrupted run ends its workers now,
    # not when the interpreter gets round to it: `rulesdsl.workers`)
    with skipping_what_exists(), contextlib.closing(outcomes):
        try:
            for i, outcome in enumerate(outcomes):
                if outcome is None:  # a worker's game ran away: play it here to raise the same error
                    _outcome(rules, i, seed, seats, max_steps, options)
                if isinstance(outcome, Failed):   # (the games before it are the summary, as `Stop`)
                    error = outcome.message
                    break
                winner, victory, scores = outcome
                wins["draw" if winner == DRAW else str(winner)] += 1
                if winner != DRAW:   # (a shared victory is a draw, counted there: as the balance lab does)
                    victories[victory] = victories.get(victory, 0) + 1
                for p, seat_totals in enumerate(totals):
                    for cat, pts in scores[p].items():
                        seat_totals[cat] = seat_totals.get(cat, 0) + pts
                played = i + 1
                if progress:
                    try:
                        progress(played)
                    except Stop:
                        interrupted = True
                        break
        except StopAsked:   # (Ctrl-C while the workers played slow games: those back before it)
            interrupted = True
    elapsed = time.perf_counter() - start
    mean: dict[str, dict[str, float]] = {str(p): {} for p in range(players)}
    for p, seat_totals in enumerate(totals):
        for cat, total in sorted(seat_totals.items()):
            mean[str(p)][cat] = round(total / played, 3) if played else 0.0
    for p in mean:
        mean[p]["total"] = round(sum(mean[p].values()), 3)
    return {"games": played, "seed": seed, "game": rules.content.name, "players": players,
            "expansions": rules.content.layers[1:], "options": list(options), "agents": agent_names,
            "wins": wins, "victories": dict(sorted(victories.items())), "mean_score": mean,
            "interrupted": interrupted, "error": error, "seconds": round(elapsed, 3),
            "games_per_second": round(played / elapsed, 1) if elapsed > 0 else None}


def _seats(agents: list[str] | None, players: int) -> Lineup:
    """One agent per seat (default: random at every seat), each resolved."""
    seats = lineup(names_given(agents) if agents else ["random"] * players)
    if len(seats.names) != players:
        n = len(seats.names)
        raise ValueError(f"{n} agent{'s' if n != 1 else ''} given, the game has {players} seats: one agent per "
                         f"seat, each one of: {', '.join(known_names())}, or module:Class")
    return seats


Outcome = tuple[int, str, list[dict[str, int]]]   # winner, victory, scores by seat


@attrs.frozen
class Failed:
    """A custom agent failed in this game (`agents.answer`): the run ends there."""

    message: str


def _outcomes(rules: Ruleset, indexes: range, seed: int, seats: Lineup, max_steps: int,
              options: tuple[str, ...] = ()) -> Iterator[Outcome | Failed]:
    """The games' outcomes in order, up to the first whose agent failed (then `Failed`)."""
    for i in indexes:
        try:
            yield _outcome(rules, i, seed, seats, max_steps, options)
        except AgentError as exc:
            yield Failed(str(exc))
            return


def _outcome(rules: Ruleset, i: int, seed: int, seats: list[str] | Lineup, max_steps: int,
             options: tuple[str, ...] = ()) -> Outcome:
    if not isinstance(seats, Lineup):
        seats = lineup(seats)
    this = game_seed(seed, i)
    try:
        g = play_one(rules, this, seats, max_steps, None if seats.trusted else f"game {i} (seed {this})", options)
        complete_deals(g)   # (a game dealt short would count in the results as a game of the rules)
    except EffectFailed as exc:
        raise exc.within(f"game {i} (seed {this})")
    # (a game that went to its last age's end was scored then; nothing changed since)
    scores = g._ended_scores or [g.score(p) for p in range(rules.content.players)]
    return g.state.winner, g.state.victory, scores


# Worker processes get the rules by inheritance (fork) or by loading them again (spawn).
_WORKER: dict = {}


def _worker_init(layers: tuple[str, ...], players: int) -> None:
    if "rules" not in _WORKER:
        from .pipeline import load_ruleset
        _WORKER["rules"] = load_ruleset(layers[1:], layers[0], players)
    gc.freeze()   # (a worker lives for the run: what it holds now is the rules, as above)


def _worker_chunk(args) -> list[Outcome | Failed | None]:
    indexes, seed, agent_names, max_steps, options = args
    rules = _WORKER["rules"]
    # (resolved in the worker, by name: a custom agent's module is imported here under spawn,
    # inherited under fork; a factory of the search agent is a closure, which no pipe carries)
    try:
        seats = lineup_again(agent_names)
    except AgentError as exc:   # (the run ends at this task's first game, as at an agent's failure)
        return [Failed(str(exc))]
    out: list[Outcome | Failed | None] = []
    for i in indexes:
        try:
            out.append(_outcome(rules, i, seed, seats, max_steps, options))
        except EffectFailed:
            out.append(None)
        except AgentError as exc:   # (the games after it are not part of the run)
            out.append(Failed(str(exc)))
            break
    return out


def chunk_size(games: int, jobs: int) -> int:
    """Games a worker's task plays (`simulate`'s, `verify`'s): about eight tasks a job, of 5 to
    50 games."""
    return max(5, min(50, games // (jobs * 8) or 1))


def chunks(games: int, size: int) -> Iterator[range]:
    """Games 0 to `games` - 1 in runs of `size`, made one at a time (ranges: no number held per game)."""
    return (range(a, min(games, a + size)) for a in range(0, games, size))


def _outcomes_parallel(rules: Ruleset, games: int, seed: int, agent_names: list[str], max_steps: int, jobs: int,
                       options: tuple[str, ...] = ()):
    method = start_method(fork_only=defined_interactively(agent_names))
    if method == "fork":
        _WORKER["rules"] = rules
    size = chunk_size(games, jobs)
    # (made as the pool takes them, a few ahead of the one waited for: a long run holds no
    # task, nor number, per game before it plays it; a billion games asked held 4 GB at once)
    tasks = ((c, seed, agent_names, max_steps, options) for c in chunks(games, size))
    layers = tuple(rules.content.layers)
    try:
        with worker_pool(min(jobs, -(-games // size)), _worker_init, (layers, rules.content.players),
                         method) as pool:
            for chunk in pool.map(_worker_chunk, tasks):
                yield from chunk
    finally:
        _WORKER.pop("rules", None)
