"""A balance run's checkpoint: the games played so far, kept in a file as they are joined, so
that a run cut short (^C, a crash, a machine switched off) or a study grown with a larger `-n`
goes on from where the file stops instead of from its first game.

The file is JSON Lines.  Its first line names the study (`identity`: for each content set of
the run, what decides its games: the card files' hash, the line-up, the seed, the search
options, the step budget and the rulesdsl version; not the number of games, which may grow).
Each further line holds a batch of consecutive games of one side of the run, as the runner
joined them in game order: their outcomes' columns and what their seats took and built
(`Holdings`, which add up).  Lines are only ever appended, each written whole and flushed, so a
crash can only cut the last one short: that line is left out when the file is read, and cut off
before anything is appended.  Anything else that does not read is an error naming the line, and
the file is left as it is."""

from __future__ import annotations

import json
import os
import stat
import time
from array import array
from collections import Counter
from pathlib import Path
from typing import IO, Any

import attrs

from ..files import FileProblem
from .analysis import Holdings
from .outcomes import ABSENT, Outcomes
from .runner import labels

FORMAT = "rulesdsl balance checkpoint"
VERSION = 1

# At most this many seconds of games are lost to a crash: they are written this often.
EVERY = 10.0

# The columns of a batch, one number a game (the per-seat ones, `totals` and `scores`, follow).
GAME_COLUMNS = ("seeds", "winners", "victories", "turns", "actions")


class CheckpointProblem(FileProblem):
    """A checkpoint that cannot be used for this run, with a message for one `error:` line."""


@attrs.define
class Saved:
    """One side's games read from a checkpoint, in game order from game 0."""

    outcomes: Outcomes
    holdings: Holdings = attrs.Factory(Holdings)


def identity(plan, content_hash: str, version: str, players: int) -> dict[str, Any]:
    """What decides a plan's games, but for how many (`runner.Plan`; `players`: the count its
    content seats, whether the plan gave it or took the game's fewest): a checkpoint goes on
    only the study that wrote it."""
    return {"base": plan.base, "expansions": list(plan.expansions), "players": players,
            "agents": list(plan.agents), "seed": plan.seed, "search": attrs.asdict(plan.search),
            "max_steps": plan.max_steps, "content_hash": content_hash, "rulesdsl": version}


class Checkpoint:
    """A checkpoint file opened for a run of one or more sides (`identities`, in order):
    `saved[side]` holds what the file had, and `append` adds the batches joined since."""

    def __init__(self, path: Path, identities: list[dict[str, Any]], every: float | None = None) -> None:
        self.path = Path(path)
        self.identities = identities
        self.every = EVERY if every is None else every
        self.saved = [Saved(Outcomes(tuple(labels(tuple(i["agents"]))))) for i in identities]
        self.dropped = 0   # (bytes of a last line a crash cut short, left out)
        self._handle: IO[bytes] | None = None
        self._pending: tuple[int, Outcomes, Holdings] | None = None   # (side, games, holdings) not written yet
        self._written = time.monotonic()

    @classmethod
    def open(cls, path: Path, identities: list[dict[str, Any]], every: float | None = None) -> "Checkpoint":
        """Open the file (a missing or empty one starts the study), locked, read what it holds,
        and hold it open to append; what is appended is written at least every `every` seconds
        (default `EVERY`), and when it is closed.  (Locked before it is read: two runs starting
        the same new study at once cannot both write it.)"""
        cp = cls(path, identities, every)
        handle = _opened(cp.path)
        try:
            _lock(handle, cp.path)
            header = json.dumps({"format": FORMAT, "version": VERSION, "sides": identities},
                                sort_keys=True).encode("utf-8") + b"\n"
            first = handle.readline(1 << 20)   # (a header is a few lines' worth: a stray big file is not read whole)
            if not first or first == header[:len(first)] and not first.endswith(b"\n") and not handle.read(1):
                # A new study (or one whose header a crash cut short: it holds no game yet).
                handle.seek(0)
                handle.truncate()
                handle.write(header)
                handle.flush()
            else:
                cp._check_header(first)
                cp._read(handle)
                if cp.dropped:   # (the cut line goes, so that the next batch starts a line of its own)
                    handle.truncate(os.fstat(handle.fileno()).st_size - cp.dropped)
            handle.seek(0, os.SEEK_END)
        except CheckpointProblem:   # (an OSError too: said already, not to be wrapped again)
            handle.close()
            raise
        except OSError as exc:
            handle.close()
            raise CheckpointProblem(f"cannot use {cp.path}: {exc.strerror or exc}") from None
        except BaseException:
            handle.close()
            raise
        cp._handle = handle
        return cp

    def append(self, side: int, outcomes: Outcomes, holdings: Holdings) -> None:
        """Batch `outcomes` (the next games of `side`) and what their seats took and built: kept
        to be written with the batches after it, up to `every` seconds after the last write (a
        line of many games is smaller than as many lines: their holdings add up)."""
        if self._handle is None or not len(outcomes):
            return
        if self._pending is not None and self._pending[0] != side:
            self.write()
        if self._pending is None:
            self._pending = (side, Outcomes(outcomes.labels, outcomes.first), Holdings())
        self._pending[1].extend(outcomes)
        self._pending[2].merge(holdings)
        if time.monotonic() - self._written >= self.every:
            self.write()

    def write(self) -> None:
        """Append the batches kept since the last write, as one line."""
        if self._handle is None or self._pending is None:
            return
        side, outcomes, holdings = self._pending
        self._pending = None
        line = json.dumps({"side": side, **_outcomes_json(outcomes), "holdings": _holdings_json(holdings)},
                          sort_keys=True, separators=(",", ":"))
        try:
            self._handle.write(line.encode("utf-8") + b"\n")
            self._handle.flush()
        except OSError as exc:
            raise CheckpointProblem(f"cannot write {self.path}: {exc.strerror or exc}") from None
        self._written = time.monotonic()

    def close(self) -> None:
        if self._handle is not None:
            self.write()
            try:
                os.fsync(self._handle.fileno())
            except OSError:
                pass
            self._handle.close()
            self._handle = None

    def __enter__(self) -> "Checkpoint":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- reading -----------------------------------------------------------------------------------
    def _read(self, handle: IO[bytes]) -> None:
        """Read the games after the header into `saved`."""
        number = 1
        for raw in handle:
            number += 1
            if not raw.endswith(b"\n"):   # (the last line, cut short by a crash)
                self.dropped = len(raw)
                break
            self._take(raw, number)

    def _check_header(self, raw: bytes) -> None:
        path = self.path
        try:
            header = json.loads(raw)
        except ValueError:
            header = None
        if not isinstance(header, dict) or header.get("format") != FORMAT or not raw.endswith(b"\n"):
            raise CheckpointProblem(f"{path} is not a balance checkpoint (its first line does not name one); "
                                    "give a new file name, or remove this file")
        if header.get("version") != VERSION:
            raise CheckpointProblem(f"{path} is a checkpoint of format {header.get('version')!r}; this rulesdsl "
                                    f"reads format {VERSION}")
        sides = header.get("sides")
        if not isinstance(sides, list) or len(sides) != len(self.identities):
            count = len(sides) if isinstance(sides, list) else "?"
            raise CheckpointProblem(f"{path} holds a study of {count} content set(s), this run plays "
                                    f"{len(self.identities)}: give another file name (--compare and a plain run "
                                    "keep separate checkpoints)")
        for k, (theirs, ours) in enumerate(zip(sides, self.identities)):
            if theirs == ours:
                continue
            which = "" if len(sides) == 1 else f" ({'AB'[k] if k < 2 else k})"
            keys = [key for key in ours if not isinstance(theirs, dict) or theirs.get(key) != ours[key]]
            key = keys[0] if keys else "?"
            was = theirs.get(key) if isinstance(theirs, dict) else None
            raise CheckpointProblem(f"{path} holds the games of another study{which}: its {_field(key)}: "
                                    f"{json.dumps(was)}, this run's: {json.dumps(ours.get(key))}. A checkpoint "
                                    "goes on only the study that wrote it (the same content, agents, seed, search "
                                    "options, --max-steps and rulesdsl version); give another file name")

    def _take(self, raw: bytes, number: int) -> None:
        try:
            line = json.loads(raw)
            side = line["side"]
            if type(side) is not int or side < 0:
                raise ValueError(f"side {side!r}")
            saved = self.saved[side]
            batch = _outcomes_of(line, saved.outcomes.labels)
            held = _holdings_of(line["holdings"])
            saved.outcomes.extend(batch)
        except (ValueError, KeyError, TypeError, IndexError, OverflowError) as exc:
            raise CheckpointProblem(f"{self.path}, line {number}: not a batch of games that follows the ones "
                                    f"before it ({type(exc).__name__}: {exc}); the file is damaged and left as "
                                    "it is: give another file name") from None
        saved.holdings.merge(held)


def _field(key: str) -> str:
    return {"content_hash": "content (the card files' hash)", "rulesdsl": "rulesdsl version",
            "max_steps": "--max-steps", "agents": "line-up", "search": "search options"}.get(key, key)


def _opened(path: Path) -> IO[bytes]:
    """The file to read and append, made if missing: a regular file only (a FIFO or a device
    given by mistake is refused without blocking on it)."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NONBLOCK", 0), 0o666)
    except OSError as exc:
        raise CheckpointProblem(f"cannot use {path} as a checkpoint: {exc.strerror or exc}") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise CheckpointProblem(f"cannot use {path} as a checkpoint: not a regular file")
    return os.fdopen(fd, "r+b")


def _lock(handle: IO[bytes], path: Path) -> None:
    """One run at a time appends to a checkpoint (where the system offers locks).  A lock of
    the process (`lockf`), not of the open file (`flock`): the workers a run forks share the
    open file, and one still ending would hold the next run off."""
    try:
        import fcntl
    except ImportError:   # (not on Windows: no lock)
        return
    try:
        fcntl.lockf(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        raise CheckpointProblem(f"{path} is in use by another run") from None


def _outcomes_json(o: Outcomes) -> dict[str, Any]:
    out: dict[str, Any] = {"first": o.first, "victory_names": list(o.victory_names), "totals": list(o.totals),
                           # (a category a seat's score did not list: null, not the 20 digits of `ABSENT`)
                           "scores": {c: [None if v == ABSENT else v for v in column] for c, column in o.scores.items()}}
    for name in GAME_COLUMNS:
        out[name] = list(getattr(o, name))
    return out


def _outcomes_of(line: dict, labels: tuple[str, ...]) -> Outcomes:
    """A batch's outcomes, in columns of 64-bit numbers (lists where a number does not fit)."""
    games, seats = len(line["winners"]), len(labels)
    per_seat = [line["totals"], *line["scores"].values()]
    if any(len(line[name]) != games for name in GAME_COLUMNS) or any(len(c) != games * seats for c in per_seat):
        raise ValueError("its columns differ in length")
    names = line["victory_names"]
    if not all(type(v) is int and 0 <= v < len(names) for v in line["victories"]) or not all(
            type(n) is str for n in names):
        raise ValueError("a victory it names is not listed")
    numbers = [line[name] for name in GAME_COLUMNS] + [line["totals"]]
    if not all(type(v) is int for column in numbers for v in column) or not all(
            type(v) is int or v is None for column in line["scores"].values() for v in column):
        raise ValueError("a column holds something other than whole numbers")
    scores = {c: [ABSENT if v is None else v for v in column] for c, column in line["scores"].items()}
    first = line["first"]
    if type(first) is not int:
        raise ValueError("its first game is not a number")
    try:
        return Outcomes(labels, first, array("Q", line["seeds"]),
                        *(array("q", line[name]) for name in GAME_COLUMNS[1:]), array("q", line["totals"]),
                        {c: array("q", column) for c, column in scores.items()}, list(names))
    except OverflowError:   # (a number beyond 64 bits: as `Outcomes` holds it, in lists)
        return Outcomes(labels, first, list(line["seeds"]), *(list(line[name]) for name in GAME_COLUMNS[1:]),
                        list(line["totals"]), scores, list(names))


def _holdings_json(h: Holdings) -> dict[str, Any]:
    return {"seat_games": h.seat_games, "wins": h.wins,
            "built": [[name, turn, won, n] for (name, turn, won), n in h.built.items()],
            "taken": [[name, won, n] for (name, won), n in h.taken.items()]}


def _holdings_of(data: dict) -> Holdings:
    built: Counter = Counter()
    for name, turn, won, n in data["built"]:
        built[str(name), int(turn), bool(won)] += int(n)
    taken: Counter = Counter()
    for name, won, n in data["taken"]:
        taken[str(name), bool(won)] += int(n)
    return Holdings(int(data["seat_games"]), int(data["wins"]), built, taken)
