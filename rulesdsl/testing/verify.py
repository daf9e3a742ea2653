"""`rulesdsl verify`: play N random games with every invariant checked after every action; on a
failure, shrink the game to a short action sequence that still breaks the same invariant and
write it as a trace that `rulesdsl replay` re-runs.

Games are independent and reproducible: game i uses the seed `game_seed(seed, i)` both for the
game's dice and for the random player, so a failure found by one run is found by every run.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Callable

import attrs

from rulesdsl.files import write_atomic
from rulesdsl.interpreter.actions import Action, IllegalAction
from rulesdsl.interpreter.budget import DEFAULT_MAX_STEPS, EffectFailed
from rulesdsl.interpreter.game import Game
from rulesdsl.simulate import check_run_seed, chunk_size, chunks, game_seed
from rulesdsl.trace import trace_of, trace_start
from rulesdsl.model import Content
from rulesdsl.names import check_options, integer
from rulesdsl.pipeline import Ruleset
from rulesdsl.workers import start_method, stop_now, worker_pool

from .invariants import (CRASHES, DEFAULT_MAX_ACTIONS, GAME_ENDS, Context, InvariantViolation, all_invariants,
                         check_game, check_only, crash_violation, run_checked)


SHOWN_AT_MOST = 40   # actions of a failure listed in full; of a longer one, its first and last 20


@attrs.define
class Failure:
    """A broken invariant, shrunk."""

    invariant: str
    message: str
    detail: str
    game_index: int
    seed: int
    options: list[str]
    script: dict[str, list[str]]
    actions: list[Action]            # the shrunk sequence (replays legally from the seed)
    original_length: int             # actions in the game where it was found
    action: Action | None = None     # the offending action beyond `actions` (refused probe, crash)
    trace: Path | None = None
    max_steps: int = DEFAULT_MAX_STEPS   # the step budget the games were played with
    max_actions: int = DEFAULT_MAX_ACTIONS   # the bound of `game-ends`

    def describe(self) -> str:
        lines = [f"invariant `{self.invariant}` broken: {self.message}",
                 f"  {self.detail}",
                 f"  found in game {self.game_index} (seed {self.seed}) after {self.original_length} actions; "
                 + (f"shrunk to {len(self.actions)} action(s):" if len(self.actions) < self.original_length
                    else f"the {len(self.actions)} action(s) that lead to it:")]
        listed = [f"    {i:3d}. {a}" for i, a in enumerate(self.actions, start=1)] or ["    (none: the start position)"]
        if len(listed) > SHOWN_AT_MOST:
            # (a game that does not end is not shrunk: its thousand moves drowned the message)
            half = SHOWN_AT_MOST // 2
            listed = [*listed[:half], f"    ... {len(listed) - 2 * half} more (the trace holds every one) ...",
                      *listed[-half:]]
        lines += listed
        if self.action is not None:
            lines.append(f"  then: {self.action}")
        return "\n".join(lines)


@attrs.define
class VerifyReport:
    layers: list[str]
    games: int
    actions: int
    seconds: float
    invariants: list[str]
    failure: Failure | None = None

    @property
    def ok(self) -> bool:
        return self.failure is None


# -- one game --------------------------------------------------------------------------------------

def play_checked(content, index: int, seed: int, options=(), max_actions: int = DEFAULT_MAX_ACTIONS,
                 skip: tuple[str, ...] = (), max_steps: int = DEFAULT_MAX_STEPS):
    """Play game `index` with every invariant but those named in `skip`; returns (actions
    played, violation or None)."""
    s = game_seed(seed, index)
    invariants = [i for i in all_invariants(content) if i.name not in skip]
    try:
        game = Game.create(content, seed=s, options=options, max_steps=max_steps)
    except Exception as exc:  # noqa: BLE001 - the setup itself crashed or ran away
        v = crash_violation(exc, None, [], None)
        v.detail = f"creating the game failed: {v.detail}"
        return 0, v
    run = run_checked(game, rng=random.Random(s), invariants=invariants, max_actions=max_actions,
                      raise_on_failure=False)
    return len(run.actions), run.violation


# Worker processes get the content by inheritance (fork) or by loading it again (spawn).
_WORKER: dict = {}


def _worker_init(base: str, expansions: tuple[str, ...], players: int | None = None) -> None:
    if "content" not in _WORKER:
        from rulesdsl.pipeline import load_ruleset
        _WORKER["content"] = load_ruleset(expansions, base, players).content


def _worker_chunk(args) -> list[tuple[int, int, dict | None]]:
    indexes, seed, options, max_actions, skip, max_steps = args
    content = _WORKER["content"]
    out = []
    for i in indexes:
        n, v = play_checked(content, i, seed, options, max_actions, skip, max_steps)
        out.append((i, n, None if v is None else {"invariant": v.invariant}))
        if v is not None:
            break
    return out


def verify(content, games: int, seed: int = 0, options=(), max_actions: int = DEFAULT_MAX_ACTIONS,
           jobs: int = 1, progress: Callable[[int], None] | None = None, shrink_failure: bool = True,
           base: str = "duel", expansions: tuple[str, ...] = (), skip: tuple[str, ...] = (),
           max_steps: int = DEFAULT_MAX_STEPS) -> VerifyReport:
    """Play `games` random games with every invariant checked after every action.  Stops at the
    first game (in order) that breaks one, and shrinks it.  With jobs > 1 games run in worker
    processes, which load the content's own layers again where they cannot inherit `content`
    (the spawn start method: `rulesdsl.workers.start_method`); `base` and `expansions` are
    taken and not read (they said what those workers loaded, and one left at its default
    had them verify Duel for a run of any other game).
    An option the cards do not read is refused (rulesdsl.names.UnknownName) before any game.
    `content`: compiled content, or the `Ruleset` holding it."""
    content = content.content if isinstance(content, Ruleset) else content
    if not isinstance(content, Content):
        raise TypeError(f"content must be compiled content or a Ruleset, not {type(content).__name__}")
    check_run_seed(seed)
    # (a negative count reported -1 games verified, `max_actions` 0 games of no action, and
    # `jobs` 0 played on one process: all silently)
    games = integer(games, "the number of games", least=0)
    max_actions = integer(max_actions, "max_actions", least=1)
    jobs = integer(jobs, "jobs", least=1)
    options = check_options(content.options, options)
    start = time.perf_counter()
    names = [i.name for i in all_invariants(content) if i.name not in skip]
    total_actions = 0
    failing: int | None = None
    if jobs <= 1 or games < 20:
        for i in range(games):
            n, v = play_checked(content, i, seed, options, max_actions, skip, max_steps)
            total_actions += n
            if progress:
                progress(1)
            if v is not None:
                failing = i
                break
    else:
        failing, total_actions = _parallel(content, games, seed, options, max_actions, jobs, progress, skip,
                                           max_steps)
    failure = None
    if failing is not None:
        failure = find_failure(content, failing, seed, options, max_actions, shrink_failure, skip, max_steps)
    return VerifyReport(list(content.layers), games if failing is None else failing + 1, total_actions,
                        time.perf_counter() - start, names, failure)


def _parallel(content, games, seed, options, max_actions, jobs, progress, skip, max_steps):
    method = start_method()
    if method == "fork":
        _WORKER["content"] = content
    size = chunk_size(games, jobs)
    # (made as the pool takes them, a few ahead of the one waited for: a long run holds no
    # task, nor number, per game before it plays it; a billion games asked held 4 GB at once)
    tasks = ((c, seed, tuple(options), max_actions, tuple(skip), max_steps) for c in chunks(games, size))
    failing, total = None, 0
    try:
        with worker_pool(min(jobs, -(-games // size)), _worker_init,
                         (content.layers[0], tuple(content.layers[1:]), content.players), method) as pool:
            results = pool.map(_worker_chunk, tasks)
            for chunk in results:
                for i, n, v in chunk:
                    total += n
                    if progress:
                        progress(1)
                    if v is not None and failing is None:
                        failing = i
                if failing is not None:
                    stop_now(pool)   # (the games after it are not looked at)
                    break
    finally:
        _WORKER.pop("content", None)
    return failing, total


# -- shrinking -------------------------------------------------------------------------------------

def find_failure(content, index: int, seed: int, options=(), max_actions: int = DEFAULT_MAX_ACTIONS,
                 shrink_it: bool = True, skip: tuple[str, ...] = (), max_steps: int = DEFAULT_MAX_STEPS) -> Failure:
    """Replay game `index` in this process, then shrink what breaks."""
    s = game_seed(seed, index)
    n, v = play_checked(content, index, seed, options, max_actions, skip, max_steps)
    assert v is not None, f"game {index} did not fail again: the engine is not deterministic"
    actions = list(v.actions)
    failure = Failure(v.invariant, v.message, v.detail, index, s, list(options), {}, actions, len(actions), v.action,
                      max_steps=max_steps, max_actions=max_actions)
    # (nothing to shrink in a failure before the first action: the set-up's, or the first action's)
    if shrink_it and v.invariant not in (GAME_ENDS.name,) and actions:
        failure = shrink(content, failure)
    return failure


def _as_indexes(content, failure: Failure) -> list[int] | None:
    """The failing game as positions in the list of legal actions at each step."""
    game = _game(content, failure)
    seq = list(failure.actions)
    if failure.invariant in CRASHES and failure.action is not None:
        seq.append(failure.action)
    out = []
    for k, a in enumerate(seq):
        legal = game.legal_actions()
        if a not in legal:
            return None
        out.append(legal.index(a))
        if k < len(seq) - 1 or failure.invariant not in CRASHES:
            game.apply(a)
    return out


def _attempt(content, failure: Failure, indexes: list[int]):
    """Play the sequence of choices (each picks legal_actions()[i % len]) checking only the
    broken invariant; returns (choices used, actions, violation) if the same invariant breaks."""
    target = failure.invariant
    game = _game(content, failure)
    invs = [i for i in all_invariants(content) if i.name == target]
    probes = [failure.action] if failure.action is not None and target not in CRASHES else None
    ctx = Context(rng=random.Random(failure.seed), probes=probes)
    used: list[int] = []
    actions: list[Action] = []
    try:
        check_game(game, invs, ctx)
        for idx in indexes:
            legal = game.legal_actions()
            if not legal:
                break
            a = legal[idx % len(legal)]
            used.append(idx % len(legal))
            try:
                game.apply(a)
            except Exception as exc:  # noqa: BLE001
                v = crash_violation(exc, None, actions, a)
                if v.invariant != target:
                    return None
                return used, actions, v
            actions.append(a)
            check_game(game, invs, ctx)
        check_only(game, invs, ctx, "end")   # (its step invariants were checked after the last action)
    except InvariantViolation as v:
        if v.invariant == target:
            return used, actions, v
    return None


def _attempt_actions(content, failure: Failure, candidate: list[Action]):
    """Replay these actions, skipping those that are not legal any more, checking only the broken
    invariant; returns (actions applied, violation) if the same invariant breaks."""
    target = failure.invariant
    crash = target in CRASHES
    try:
        game = _game(content, failure)
    except Exception:  # noqa: BLE001
        return None
    invs = [i for i in all_invariants(content) if i.name == target]
    probes = [failure.action] if failure.action is not None and not crash else None
    ctx = Context(rng=random.Random(failure.seed), probes=probes)
    try:
        run = run_checked(game, candidate, invariants=invs, skip_illegal=True, raise_on_failure=False, ctx=ctx)
    except Exception:  # noqa: BLE001 - checking a legal action crashed: not this failure
        return None
    v = run.violation
    if v is None or v.invariant != target:
        return None
    return list(v.actions), v


def _ddmin(items: list, attempt, deadline: float) -> list:
    """Delete chunks (halves, quarters, ... single items) while `attempt(candidate)` still gives
    a failure; `attempt` returns the (possibly shorter) list that failed, or None."""
    current = items
    changed = True
    while changed and time.perf_counter() < deadline:
        changed = False
        chunk = max(1, len(current) // 2)
        while chunk >= 1 and time.perf_counter() < deadline:
            k = len(current) - chunk
            while k >= 0 and time.perf_counter() < deadline:
                got = attempt(current[:k] + current[k + chunk:])
                if got is not None and len(got) < len(current):
                    current = got
                    changed = True
                k = min(k, len(current)) - chunk
            chunk //= 2
    return current


def shrink(content, failure: Failure, budget_seconds: float = 60.0) -> Failure:
    """Make the failing game short and simple while it still breaks the same invariant.

    First the actions themselves: chunks of them are deleted (an action that is not legal any
    more is skipped on replay), so the actions that matter keep their meaning.  Then the game as
    a list of choices (the position of each action among the legal actions): chunks of choices
    are deleted and each one is lowered towards 0 (the first legal action).  A step is kept only
    if the same invariant still breaks (a greedy delta debugging); stops after `budget_seconds`.
    The result always replays legally."""
    deadline = time.perf_counter() + budget_seconds
    crash = failure.invariant in CRASHES
    seq = list(failure.actions) + ([failure.action] if crash and failure.action is not None else [])
    found = _attempt_actions(content, failure, seq)
    if found is not None:
        results: dict[int, tuple] = {}

        def by_actions(candidate):
            got = _attempt_actions(content, failure, candidate)
            if got is None:
                return None
            applied, v = got
            full = applied + ([v.action] if crash and v.action is not None else [])
            results[len(full)] = (applied, v)
            return full
        best_seq = _ddmin(seq, by_actions, deadline)
        if len(best_seq) < len(seq):
            applied, v = results[len(best_seq)]
            failure = attrs.evolve(failure, actions=applied, detail=v.detail,
                                   action=v.action if v.action is not None else failure.action)
    start = _as_indexes(content, failure)
    if start is None:
        return failure
    best = _attempt(content, failure, start)
    if best is None:
        return failure

    def simpler(got) -> bool:
        return got is not None and (len(got[0]), got[0]) < (len(best[0]), best[0])

    def by_choices(candidate):
        nonlocal best
        got = _attempt(content, failure, candidate)
        if simpler(got):
            best = got
        return got[0] if got is not None else None

    changed = True
    while changed and time.perf_counter() < deadline:
        before = (len(best[0]), best[0])
        _ddmin(best[0], by_choices, deadline)
        for k in range(len(best[0])):
            if time.perf_counter() >= deadline:
                break
            current = best[0]
            if k < len(current) and current[k] > 0:
                for value in (0, current[k] // 2, current[k] - 1):
                    got = _attempt(content, failure, current[:k] + [value] + current[k + 1:])
                    if value < current[k] and simpler(got):
                        best = got
                        break
        changed = (len(best[0]), best[0]) < before
    used, actions, v = best
    if crash:
        return attrs.evolve(failure, actions=list(actions), detail=v.detail, action=v.action)
    return attrs.evolve(failure, actions=list(actions), detail=v.detail,
                        action=v.action if v.action is not None else failure.action)


# -- traces ----------------------------------------------------------------------------------------

def _game(content, failure: Failure) -> Game:
    return Game.create(content, seed=failure.seed, options=failure.options, script=failure.script or None,
                       max_steps=failure.max_steps)


def failure_game(content, failure: Failure) -> Game:
    game = _game(content, failure)
    for a in failure.actions:
        game.apply(a)
    return game


def write_trace(content, failure: Failure, path: Path) -> Path:
    """The shrunk failure as a trace: `rulesdsl replay` reaches the same (failing) state, and
    `rulesdsl verify --trace` checks the invariants on it again."""
    try:
        data = trace_of(failure_game(content, failure))
    except EffectFailed:
        if failure.actions:
            raise
        # The game's set-up fails: a trace of no action, which `replay` stops at as `verify` did.
        data = trace_start(list(content.layers), content.players, failure.seed, failure.options, failure.script)
    data["verify"] = {"invariant": failure.invariant, "message": failure.message, "detail": failure.detail,
                      "game_index": failure.game_index, "original_length": failure.original_length,
                      "then": None if failure.action is None else [failure.action.name, *failure.action.args],
                      "max_steps": failure.max_steps, "max_actions": failure.max_actions}
    write_atomic(Path(path), json.dumps(data, indent=1) + "\n")  # a failed write leaves any old file intact
    failure.trace = path
    return path


def check_trace(data: dict):
    """Replay a trace with the invariants checked after every action, then try its recorded
    `then` action (a refused action, or the action that crashed); returns (game, violation or None)."""
    from rulesdsl.trace import actions_of, new_game_of, recorded_max_steps, round_of, validate_trace
    data = validate_trace(data)  # a malformed trace: TraceError
    info = data.get("verify") or {}
    game = new_game_of(data, recorded_max_steps(data))
    actions = actions_of(data)
    then = info.get("then")
    probe = Action(then[0], tuple(then[1:])) if then else None
    crash = probe is not None and info.get("invariant") in CRASHES
    ctx = Context(rng=random.Random(game.state.seed), probes=[probe] if probe is not None and not crash else None)
    try:
        run = run_checked(game, actions + ([probe] if crash else []), raise_on_failure=False, ctx=ctx)
    except IllegalAction as exc:
        done = [Action(h[0], tuple(h[1:])) for h in game.state.history]
        return game, InvariantViolation("replay", "the trace replays legally", str(exc), game, done)
    bound = info.get("max_actions")
    if (run.violation is None and info.get("invariant") == GAME_ENDS.name and type(bound) is int
            and not run.game.over and len(run.actions) >= bound):
        # (the driver's own invariant, which replaying the actions does not check by itself)
        done = [Action(h[0], tuple(h[1:])) for h in run.game.state.history]
        return run.game, InvariantViolation(GAME_ENDS, GAME_ENDS.message,
                                            f"the game is not over after {bound} actions", run.game, done)
    if run.violation is None:
        # (a trace saved mid-round: the choices of later seats the history does not hold yet)
        for seat, action in round_of(data):
            try:
                run.game.apply(action, seat)
                check_game(run.game, ctx=ctx)
            except IllegalAction as exc:
                done = [Action(h[0], tuple(h[1:])) for h in run.game.state.history]
                return run.game, InvariantViolation("replay", "the trace replays legally", str(exc), run.game, done)
            except InvariantViolation as violation:
                return run.game, violation
    return run.game, run.violation


