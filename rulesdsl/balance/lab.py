"""Running a balance study: one content set (`balance`) or two on the same seeds (`ab`), with
the run's metadata (seeds, content hash, agents, versions) in the report."""

from __future__ import annotations

import hashlib
import os
import platform
import time
from importlib.metadata import PackageNotFoundError, version
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

import attrs

from ..agents import SearchOptions
from ..diagnostics import Span
from .analysis import Holdings, Tally, common_end, compare, definitions_of, games_compared, summarise
from .checkpoint import Checkpoint, CheckpointProblem, identity
from .outcomes import Outcomes
from .runner import Plan, RunResult, labels, load, replay, run, total_games, unplayed, with_options_checked




def content_hash(plan: Plan) -> str:
    """A hash of every card file the plan's content reads (paths within each layer and bytes):
    two reports with the same hash played the same rules."""
    from ..loader import resolve_layers
    h = hashlib.sha256()
    for layer in resolve_layers(list(plan.expansions), plan.base):
        files = sorted(layer.rglob("*.rules")) if layer.is_dir() else [layer]
        for f in files:
            h.update(str(f.relative_to(layer) if layer.is_dir() else f.name).encode("utf-8") + b"\0")
            h.update(f.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def _shape(node: Any) -> Any:
    """A syntax tree's node without where it stands (its spans): what it says."""
    if isinstance(node, Span):
        return None
    if attrs.has(type(node)):
        return (type(node).__name__, *(_shape(getattr(node, f.name)) for f in attrs.fields(type(node))
                                       if not f.name.endswith("span")))
    if isinstance(node, (tuple, list)):
        return tuple(_shape(x) for x in node)
    return node


def definition_texts(plan: Plan) -> dict[tuple[str, str], Any]:
    """(kind, name) -> what the definition says once every layer is merged: its statements,
    those of a `replace` in a later layer, and those every `extend` adds (a definition
    extended keeps the span of its first text, so its text alone missed what an `extend`
    added), as syntax trees without their spans: spacing, comments and where the definition
    stands in the files do not count."""
    from ..loader import load_paths, resolve_layers
    merged = load_paths(resolve_layers(list(plan.expansions), plan.base))
    return {(d.kind, d.name): _shape(d.block) for d in merged.definitions}


def changed_definitions(plan_a: Plan, plan_b: Plan) -> list[dict]:
    """What B changes: the definitions that say something else once the layers are merged
    (`replace`, `extend`), and those only one side has (`remove`, a new one)."""
    a, b = definition_texts(plan_a), definition_texts(plan_b)
    out = []
    for key in sorted(set(a) | set(b)):
        if key not in b:
            out.append({"kind": key[0], "name": key[1], "change": "only in A"})
        elif key not in a:
            out.append({"kind": key[0], "name": key[1], "change": "only in B"})
        elif a[key] != b[key]:
            out.append({"kind": key[0], "name": key[1], "change": "changed"})
    return out


class _Kept:
    """What a run's sides read from, and append to, a checkpoint (none: nothing)."""

    def __init__(self, cp: Checkpoint | None, plans: list[Plan]) -> None:
        self.cp = cp
        self.resumed = [len(saved.outcomes) for saved in (cp.saved if cp is not None else [])]
        for saved, plan in zip(cp.saved if cp is not None else [], plans):
            total = total_games(plan, load(plan).content.players)
            if len(saved.outcomes) > total:
                raise CheckpointProblem(f"{cp.path} holds {len(saved.outcomes)} games of this study, more than "
                                        f"the {total} this run plays: give -n {len(saved.outcomes)} or more")

    def side(self, k: int, tally: Tally | None = None, every: int | None = None) -> tuple:
        """`run`'s `saved` and `joining` for side k; `tally`: told of each batch joined, `every`:
        a line of the checkpoint ends at every multiple of this many games (`mark_every`)."""
        cp = self.cp

        def joining(got: Outcomes, held: Holdings) -> None:
            if tally is not None:
                tally.add(got.end, held)
            if cp is not None:
                cp.append(k, got, held)
                if every and got.end % every == 0:
                    cp.write()
        if cp is None:
            return None, (joining if tally is not None else None)
        saved = cp.saved[k]
        return (saved.outcomes, saved.holdings), joining

    def run(self, k: int, plan: Plan, jobs: int, progress: Callable[[int, int], None] | None,
            tally: Tally | None = None, every: int | None = None) -> RunResult:
        """`run` of side k, its games written to the checkpoint when it ends.  A write that fails
        (a full disk) ends the side there, as ^C does: its result holds the games joined so far
        (the checkpoint's `saved`, which the run adds to) and the write's error as its failure,
        so that they are reported (the file holds those written before)."""
        start = time.perf_counter()
        try:
            result = run(plan, jobs, progress, *self.side(k, tally, every), marks=every)
            if self.cp is not None:
                self.cp.write()
        except CheckpointProblem as exc:
            saved = self.cp.saved[k]
            return RunResult(saved.outcomes, str(exc), time.perf_counter() - start, saved.holdings,
                             self.resumed[k])
        return result

    @property
    def failed(self) -> bool:
        """Whether a write of the checkpoint failed (`run`)."""
        return self.cp is not None and self.cp.failed

    def tally(self, k: int) -> Tally:
        """Side k's tally of the games the checkpoint holds, a batch a line (none: empty)."""
        return self.cp.saved[k].tally if self.cp is not None else Tally()


@contextmanager
def _checkpoint(path: Path | None, plans: list[Plan], note: Callable[[str], None] | None) -> Iterator[_Kept]:
    if path is None:
        yield _Kept(None, plans)
        return
    cp = Checkpoint.open(path, [identity(p, content_hash(p), _version(), load(p).content.players) for p in plans])
    with cp:
        kept = _Kept(cp, plans)
        if cp.dropped and note is not None:
            note(f"the last line of {path} was cut short ({cp.dropped} bytes: a run stopped, or a full disk, "
                 "as it was written): left out, its games are played again")
        held = [len(saved.outcomes) for saved in cp.saved]
        if any(held) and note is not None:
            games = (f"{held[0]} games of A and {held[1]} of B" if len(held) == 2
                     else f"{held[0]} games")
            note(f"{path} holds {games} of this study: going on from there")
            # (the earlier games are not played again for their traces: said once, before any game)
            lacking = [(p.traces, gone) for p, n in zip(plans, held) if p.traces and (gone := _untraced(p.traces, n))]
            if lacking:
                said = " and ".join(f"{folder} {'those of' if k else 'lacks the traces of'} {_spans(gone)}"
                                    for k, (folder, gone) in enumerate(lacking))
                note(f"{said}, played by an earlier run: {path} keeps their outcomes, not their actions; "
                     "this run writes only the traces of the games it plays")
        yield kept


def _untraced(folder: str, games: int) -> list[int]:
    """Which of games 0 to `games - 1` have no trace in `folder` (read once, not a look a game)."""
    try:
        there = set(os.listdir(folder))
    except OSError:
        there = set()
    return [i for i in range(games) if f"game-{i}.json" not in there]


def _spans(games: list[int]) -> str:
    """Game indexes (in order) said as spans: `games 0 to 39`, `game 7`, at most three spans."""
    spans: list[list[int]] = []
    for i in games:
        if spans and spans[-1][1] == i - 1:
            spans[-1][1] = i
        else:
            spans.append([i, i])
    said = [f"{a}" if a == b else f"{a} to {b}" for a, b in spans[:3]]
    more = f" and {len(spans) - 3} more spans ({len(games)} games in all)" if len(spans) > 3 else ""
    return f"game{'s' if len(games) > 1 else ''} {', '.join(said)}{more}"


def _version() -> str:
    try:
        return version("rulesdsl")
    except PackageNotFoundError:
        return "unknown"


def meta_of(plan: Plan, source: str) -> dict:
    content = load(plan).content
    return {"source": source, "game": content.name, "players": content.players, "base": plan.base,
            "expansions": list(plan.expansions), "options": list(plan.options), "agents": labels(plan.agents), "agent_specs": list(plan.agents),
            "seed": plan.seed, "games_requested": plan.games, "games_scheduled": total_games(plan, content.players),
            "content_hash": content_hash(plan), "version": _version(), "python": platform.python_version(),
            "search": attrs.asdict(plan.search), "max_steps": plan.max_steps,
            "deal_seeds": "derive('balance', seed, index // players)"}


def _report(plan: Plan, source: str, result: RunResult, early: int, jobs: int, rows: bool = True) -> dict:
    meta = meta_of(plan, source)
    meta["error"] = result.failure
    meta["partial"] = result.failure is not None
    report = summarise(result.outcomes, meta, definitions_of(load(plan).content), early, result.holdings, rows)
    played = len(result.outcomes) - result.resumed
    report["run"] = {"jobs": jobs, "seconds": round(result.seconds, 3), "resumed": result.resumed,
                     "games_per_second": round(played / result.seconds, 2) if played and result.seconds > 0 else None}
    return report


def balance(plan: Plan, source: str = "", jobs: int = 1, early: int = 5,
            progress: Callable[[int, int], None] | None = None, rows: bool = True,
            checkpoint: Path | None = None, note: Callable[[str], None] | None = None) -> tuple[dict, Outcomes]:
    """Play the plan and report on it: (report, the games' outcomes: a sequence of their records
    in game order, each without the items its seats took and built, which the report adds up).
    A failure is in report["meta"]["error"] and the report covers the games before it.
    `rows`: the report lists each game (`games`).  `checkpoint`: a file that keeps the games
    as they are played, and from which a run of the same study goes on (`checkpoint.py`;
    CheckpointProblem where it cannot; a write that fails ends the run as a failure does, in
    report["meta"]["error"]); `note(text)` is told how many games it holds, and of a
    last line a crash cut short.  The plan's game options (`Plan.options`) are checked before
    any game or checkpoint is opened (ValueError, UnknownName)."""
    plan = with_options_checked(plan)
    with _checkpoint(checkpoint, [plan], note) as kept:
        result = kept.run(0, plan, jobs, progress)
    return _report(plan, source or plan.base, result, early, jobs, rows), result.outcomes


def mark_every(total: int) -> int:
    """How often (in games) an A/B's sides end a batch whatever else ends them: 100 times a power
    of 2, at least a 64th of the run (so runs of other lengths end batches at multiples of one
    another's).  A checkpoint ends a line there too, so that a side of a study resumed from it
    and cut short again has a batch end at most this many games before the games compared: no
    more than that is played again to count its definitions there (`_built_over`)."""
    every = 100
    while every * 64 < total:
        every *= 2
    return every


def ab(plan_a: Plan, plan_b: Plan, source_a: str, source_b: str, jobs: int = 1, early: int = 5,
       progress: Callable[[int, int], None] | None = None,
       rows: bool = True, checkpoint: Path | None = None,
       note: Callable[[str], None] | None = None) -> tuple[dict, tuple[Outcomes, Outcomes]]:
    """Both plans (the same agents, games and seed; two content sets) and their differences:
    ({"a": report, "b": report, "compare": ...}, the games' outcomes of A and of B).  Each
    side's report covers the games it played; the comparison, the first N games of each, the
    most whole rotations both played (`analysis.games_compared`: the same N for any `jobs`; a
    side whose batches do not end there plays its games after its last batch end again, to
    count what its seats built up to game N: `_built_over`).
    `checkpoint`, `note`: as `balance`'s, for both plans; each plan's options checked as there."""
    plan_a, plan_b = with_options_checked(plan_a), with_options_checked(plan_b)
    seats = load(plan_a).content.players
    total = total_games(plan_a, seats) + total_games(plan_b, load(plan_b).content.players)
    every = mark_every(total_games(plan_a, seats))
    with _checkpoint(checkpoint, [plan_a, plan_b], note) as kept:
        tallies = [kept.tally(0), kept.tally(1)]
        first = kept.run(0, plan_a, jobs, (lambda d, t: progress(d, total)) if progress else None, tallies[0],
                         every)
        done = len(first.outcomes)
        if first.failure is not None and (first.failure.startswith("interrupted") or kept.failed):
            # ^C, or a checkpoint that cannot be written, stops the whole command: B plays nothing
            # more (what a checkpoint holds of it counts).
            second = unplayed(plan_b, kept.side(1)[0])
        else:
            second = kept.run(1, plan_b, jobs, (lambda d, t: progress(done + d, total)) if progress else None,
                              tallies[1], every)
    a = _report(plan_a, source_a, first, early, jobs, rows)
    b = _report(plan_b, source_b, second, early, jobs, rows)
    changed = changed_definitions(plan_a, plan_b)
    played = (first.outcomes, second.outcomes)
    n = games_compared(len(first.outcomes), len(second.outcomes), seats)
    # (each side's counts over its first n games, deal by deal: `Holdings.counts`)
    built = (n, first.holdings.counts(), second.holdings.counts())
    if not n == len(first.outcomes) == len(second.outcomes):
        # (cut short, or a deal at some of its seatings only: each side's counts over its first n games)
        got = [_built_over(plan, tally, outcomes, n, jobs) for plan, tally, outcomes in
               zip((plan_a, plan_b), tallies, played)]
        if got[0] is None or got[1] is None:   # (games that did not play alike again: where both end a batch)
            n = common_end(tallies[0], tallies[1], n, seats)
            got = [tallies[0].at(n), tallies[1].at(n)]
        built = (n, got[0], got[1])
    result = compare(a, b, *played, changed, built)
    result["changed"] = changed
    return {"a": a, "b": b, "compare": result}, played


def _built_over(plan: Plan, tally: Tally, outcomes: Outcomes, n: int,
                jobs: int) -> dict[str, tuple[int, ...]] | None:
    """Name -> (seat-games that built it, those that won, and their sums of squares over the
    deals: `Holdings.counts`) over a side's first `n` games (whole deals): its tally's where a
    batch of its games ends at game n; else the tally's at the last end before it, and the games
    after that end played again (`runner.replay`: at most a batch, or a line of a checkpoint, no
    more than `mark_every` games), which make whole the deal that end cuts, if any.  None where
    those games do not play as they did (an agent not seeded by its game, or one that failed
    this time)."""
    counts = tally.at(n)
    if counts is not None:
        return counts
    end = tally.before(n)
    again = replay(plan, range(end, n), jobs)
    if again.failure is not None or list(again.outcomes) != [outcomes[k - outcomes.first] for k in range(end, n)]:
        return None
    deals = tally.cut(end)
    deals.merge(again.holdings.deals)
    sums = {name: list(c) for name, c in (tally.at(end) or {}).items()}
    for (name, _turn, won), k in again.holdings.built.items():
        c = sums.setdefault(name, [0] * Tally.WIDTH)
        c[0] += k
        c[1] += k if won else 0
    for name in deals.bb:
        c = sums.setdefault(name, [0] * Tally.WIDTH)
        for j, v in enumerate(deals.squares(name)):
            c[2 + j] += v
    return {name: tuple(c) for name, c in sums.items()}
