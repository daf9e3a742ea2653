"""A balance run's checkpoint: the games played so far, kept in a file as they are joined, so
that a run cut short (^C, a crash, a machine switched off) or a study grown with a larger `-n`
goes on from where the file stops instead of from its first game.

The file is JSON Lines.  Its first line names the study (`identity`: for each content set of
the run, what decides its games: the card files' hash, the line-up, the seed, the search
options where an agent of the line-up reads them, the step budget and the rulesdsl version; not the number of games, which may grow).
Each further line holds a batch of consecutive games of one side of the run, as the runner
joined them in game order: their outcomes' columns and what their seats took and built
(`Holdings`, which add up).  Lines are only ever appended, each written whole and flushed, so a
crash can only cut the last one short: that line is left out when the file is read, and cut off
before anything is appended.  Every value of every other line is checked against the study it
belongs to (`_batch_of`: types, seats, the names its content defines, counts consistent with the
games, each deal's seed, each seat's total): any damage is an error naming the line, and the
file is left as it is (never a traceback, nor games that are not the study's)."""

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

from ..agents import reads_search
from ..files import FileProblem
from .analysis import Holdings, Tally
from .deals import DealSums
from .outcomes import ABSENT, Outcomes
from .runner import deal_seed, labels

FORMAT = "rulesdsl balance checkpoint"
# 2: a batch's holdings keep its sums over the deals (`deals`), which an A/B's definition rows
# are clustered by; a file of format 1 has none, and is refused by its format, not as damaged.
# 3: those sums cover the seat-games that did not build a name too (each deal's games won, and
# their products with a name's counts), which a single run's definition rows are clustered by.
VERSION = 3

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
    tally: Tally = attrs.Factory(Tally)   # (what each line's seats built, at its end: an A/B cut short reads it)


def identity(plan, content_hash: str, version: str, players: int) -> dict[str, Any]:
    """What decides a plan's games, but for how many (`runner.Plan`; `players`: the count its
    content seats, whether the plan gave it or took the game's fewest): a checkpoint goes on
    only the study that wrote it.  The game options are named only where the plan has some: a
    run without any names its study as a file written before runs took options did, and goes
    on from it.  The search options are named only where an agent of the line-up reads them:
    they change no game of another line-up (`Checkpoint` leaves them out of an older file's
    identity, which named them always)."""
    out = {"base": plan.base, "expansions": list(plan.expansions), "players": players,
           "agents": list(plan.agents), "seed": plan.seed,
           "max_steps": plan.max_steps, "content_hash": content_hash, "rulesdsl": version}
    if any(reads_search(a) for a in plan.agents):
        out["search"] = attrs.asdict(plan.search)
    if plan.options:
        out["options"] = list(plan.options)
    return out


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
        self._studies: dict[int, _Study] = {}   # (side -> what its batches are checked against)
        self.failed = False   # (a write failed: nothing more is written after a line it may have cut)

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
        if self._handle is None or self.failed or not len(outcomes):
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
        if self._handle is None or self._pending is None or self.failed:
            return
        side, outcomes, holdings = self._pending
        self._pending = None
        line = json.dumps({"side": side, **_outcomes_json(outcomes), "holdings": _holdings_json(holdings)},
                          sort_keys=True, separators=(",", ":"))
        try:
            self._handle.write(line.encode("utf-8") + b"\n")
            self._handle.flush()
        except OSError as exc:
            # (a line cut short here is left out when the file is read again: what it held before
            # stands, if nothing is appended after it)
            self.failed = True
            raise CheckpointProblem(f"cannot write {self.path}: {exc.strerror or exc}; the games it holds are kept: "
                                    "make room and run the same command to go on from them") from None
        self._written = time.monotonic()

    def close(self) -> None:
        if self._handle is not None:
            self.write()
            try:
                os.fsync(self._handle.fileno())
            except OSError:
                pass
            try:
                self._handle.close()
            except OSError:   # (what a failed write left buffered: said already, as that write's error)
                if not self.failed:
                    raise
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
            if isinstance(theirs, dict) and "search" not in ours:
                # (a file written before `identity` named them only for a line-up that reads them
                # names them always: the same study; a line-up that reads them differs anyway)
                theirs = {key: v for key, v in theirs.items() if key != "search"}
            if theirs == ours:
                continue
            which = "" if len(sides) == 1 else f" ({'AB'[k] if k < 2 else k})"
            # (a key only one side names counts too: a file's options against a run with none)
            named = [*ours, *(key for key in theirs if key not in ours)] if isinstance(theirs, dict) else list(ours)
            keys = [key for key in named if not isinstance(theirs, dict) or theirs.get(key) != ours.get(key)]
            key = keys[0] if keys else "?"
            unnamed = [] if key == "options" else None   # (no options named: none, `identity`)
            was = theirs.get(key, unnamed) if isinstance(theirs, dict) else None
            # (keys sorted: a study's search options were written in one order and a run's in another)
            said = [json.dumps(v, sort_keys=True) for v in (was, ours.get(key, unnamed))]
            raise CheckpointProblem(f"{path} holds the games of another study{which}: its {_field(key)}: "
                                    f"{said[0]}, this run's: {said[1]}. A checkpoint "
                                    "goes on only the study that wrote it (the same content, game options, agents, "
                                    "seed, search options, --max-steps and rulesdsl version); give another file name")

    def _take(self, raw: bytes, number: int) -> None:
        """Line `number` (`raw`, a whole line): a batch of games of one side, the next ones,
        checked against the study (`_batch_of`) before any of it is kept."""
        def damaged(exc: Exception) -> CheckpointProblem:
            return CheckpointProblem(f"{self.path}, line {number}: not a batch of games that follows the ones "
                                     f"before it ({type(exc).__name__}: {exc}); the file is damaged and left as "
                                     "it is: give another file name")
        try:
            line = json.loads(raw)
            side = line.get("side") if type(line) is dict else None
            if type(side) is not int or not 0 <= side < len(self.saved):
                raise ValueError(f"side {side!r}" if type(line) is dict else "not an object")
        except (ValueError, RecursionError) as exc:   # (RecursionError: JSON nested too deep)
            raise damaged(exc) from None
        saved = self.saved[side]
        study = self._study(side)
        try:
            batch, held = _batch_of(line, study, saved.outcomes.end)
            saved.outcomes.extend(batch)
        except (ValueError, KeyError, TypeError, IndexError, OverflowError, AttributeError) as exc:
            raise damaged(exc) from None
        saved.holdings.merge(held)
        saved.tally.add(saved.outcomes.end, held)

    def _study(self, side: int) -> "_Study":
        """What side `side`'s batches are checked against (worked out at its first batch)."""
        if side not in self._studies:
            self._studies[side] = _Study.of(self.identities[side], self.saved[side].outcomes.labels)
        return self._studies[side]


def _field(key: str) -> str:
    return {"content_hash": "content (the card files' hash)", "rulesdsl": "rulesdsl version",
            "max_steps": "--max-steps", "agents": "line-up", "search": "search options",
            "options": "game options (--option)"}.get(key, key)


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


def _holdings_json(h: Holdings) -> dict[str, Any]:
    return {"seat_games": h.seat_games, "wins": h.wins,
            "built": [[name, turn, won, n] for (name, turn, won), n in h.built.items()],
            "taken": [[name, won, n] for (name, won), n in h.taken.items()],
            "deals": {"squares": [[name, *h.deals.squares(name), h.deals.bv[name], h.deals.wv[name]]
                                  for name in h.deals.bb],
                      "whole": [h.deals.whole, h.deals.wins, h.deals.wins2],
                      "open": [[deal, games, won_games, [[name, n, won[name]] for name, n in built.items()]]
                               for deal, (games, won_games, built, won) in h.deals.open.items()]}}


# -- a batch read back, checked against its study --------------------------------------------------
# The fields of a batch's line, and of its holdings: nothing more, nothing less.
FIELDS = frozenset({"side", "first", *GAME_COLUMNS, "totals", "scores", "victory_names", "holdings"})
HOLDINGS_FIELDS = frozenset({"seat_games", "wins", "built", "taken", "deals"})
# What an identity names of its study where it names the content (`identity`'s).
STUDY_KEYS = ("base", "expansions", "players", "seed")


@attrs.frozen
class _Study:
    """What a side's batches are checked against: its line-up's labels (the seats), and where
    its identity names the content, the seed its deals' seeds come from, the item names, score
    categories and victories that content defines (None: not checked)."""

    labels: tuple[str, ...]
    seed: int | None = None
    items: frozenset[str] | None = None
    categories: frozenset[str] | None = None
    victories: frozenset[str] | None = None

    @classmethod
    def of(cls, identity: Any, labels: tuple[str, ...]) -> "_Study":
        if not isinstance(identity, dict) or not all(key in identity for key in STUDY_KEYS):
            return cls(labels)   # (an identity that names no content: the format alone is checked)
        from ..loader import load_paths, resolve_layers
        from ..pipeline import load_ruleset
        from ..playable import statements
        base, expansions, players = identity["base"], tuple(identity["expansions"]), identity["players"]
        # (the content as the run loaded it, compiled once per process: its count given or not)
        content = load_ruleset(expansions, base, None).content
        if content.players != players:
            content = load_ruleset(expansions, base, players).content
        items = frozenset(it.name for it in content.items)
        # (`scoring.score`'s categories: a card's colour, another item's kind, the game's own)
        categories = frozenset({it.color if it.kind == "card" and it.color else it.kind for it in content.items}
                               | {category for category, _ in content.scores})
        # (a game ends by its scores, `civilian`, or by a `win WORD` of the rules in force)
        merged = load_paths(resolve_layers(list(expansions), base))
        victories = frozenset({"civilian"} | {getattr(st.args[0], "name", None) for d in merged.definitions
                                              for st in statements(d.block) if st.verb == "win" and st.args})
        return cls(labels, identity["seed"], items, categories, victories)


def _kinds(column: list) -> set:
    return set(map(type, column))


def _unknown(names: Any, known: frozenset[str] | None, what: str) -> None:
    """ValueError naming one of `names` that `known` (the content's) does not hold."""
    if known is not None:
        unknown = set(names) - known
        if unknown:
            raise ValueError(f"{what} {json.dumps(min(unknown))} is not in this study's content")


def _batch_of(line: Any, study: _Study, end: int) -> tuple[Outcomes, Holdings]:
    """A batch's games (the next ones after game `end - 1`) and what their seats took and
    built, every value checked against the study: types, seats, the names its content defines,
    counts not negative and consistent with the games (each game adds its seats' seat-games,
    a win where it has a winner; a seat-game counts a name once, built only where taken); and
    what the outcomes themselves tell (each deal's seed, each seat's total the sum of its
    score).  Any damage: ValueError.  Linear in the games, in a few passes over each column."""
    if type(line) is not dict or set(line) != FIELDS:
        fields = set(line) if type(line) is dict else set()
        raise ValueError(f"its fields differ from a batch's (missing {sorted(FIELDS - fields)}, "
                         f"not a batch's {sorted(fields - FIELDS)})")
    first = line["first"]
    if type(first) is not int or first != end:
        raise ValueError(f"games from {first!r} cannot follow games up to {end - 1}")
    labels, seats = study.labels, len(study.labels)
    scores, totals, names = line["scores"], line["totals"], line["victory_names"]
    columns = [line[name] for name in GAME_COLUMNS]
    if type(scores) is not dict or not all(type(c) is list for c in [*columns, totals, *scores.values()]):
        raise ValueError("a column is not a list")
    seeds, winners, victories, turns, actions = columns
    games = len(winners)
    if not games:
        raise ValueError("it holds no game")
    if any(len(c) != games for c in columns) or any(len(c) != games * seats for c in [totals, *scores.values()]):
        raise ValueError("its columns differ in length")
    if any(_kinds(c) - {int} for c in [*columns, totals]) or any(
            _kinds(c) - {int, type(None)} for c in scores.values()):
        raise ValueError("a column holds something other than whole numbers")
    if type(names) is not list or _kinds(names) - {str} or len(set(names)) != len(names):
        raise ValueError("its victories are not a list of names, each once")
    _unknown(names, study.victories, "victory")
    _unknown(scores, study.categories, "score category")
    if min(victories) < 0 or max(victories) >= len(names):
        raise ValueError("a victory it names is not listed")
    if min(winners) < -1 or max(winners) >= seats:
        raise ValueError(f"a winner is not one of its {seats} seats (nor -1, a shared victory)")
    if min(turns) < 0 or min(actions) < 0:
        raise ValueError("a game's turns or actions are below 0")
    if study.seed is not None:
        n = first // seats
        deals = [deal_seed(study.seed, d) for d in range(n, (first + games - 1) // seats + 1)]
        if seeds != [deals[(first + k) // seats - n] for k in range(games)]:
            raise ValueError(f"a game's seed is not its deal's (from seed {study.seed})")
    elif min(seeds) < 0 or max(seeds) >= 1 << 64:
        raise ValueError("a seed is not a 64-bit number")
    sums = [0] * (games * seats)
    for column in scores.values():
        if ABSENT in column:   # (written as null)
            raise ValueError("a score is out of range")
        sums = [a + (b or 0) for a, b in zip(sums, column)]   # (None: a category the score did not list)
    if sums != totals:
        raise ValueError("a seat's total is not the sum of its score")
    held = _holdings_of(line["holdings"], study, games * seats, games - winners.count(-1), max(turns),
                        range(first // seats, (first + games - 1) // seats + 1))
    listed = {c: [ABSENT if v is None else v for v in column] for c, column in scores.items()}
    try:
        outcomes = Outcomes(labels, first, array("Q", seeds), *(array("q", c) for c in columns[1:]),
                            array("q", totals), {c: array("q", column) for c, column in listed.items()}, list(names))
    except OverflowError:   # (a number beyond 64 bits: as `Outcomes` holds it, in lists)
        outcomes = Outcomes(labels, first, list(seeds), *(list(c) for c in columns[1:]), list(totals), listed,
                            list(names))
    return outcomes, held


def _holdings_of(data: Any, study: _Study, seat_games: int, wins: int, last_turn: int, deals: range) -> Holdings:
    """A batch's holdings, of `seat_games` seat-games of which `wins` won, their games ending
    by turn `last_turn`, of the deals `deals` (ValueError where they cannot be)."""
    if type(data) is not dict or set(data) != HOLDINGS_FIELDS:
        raise ValueError("its holdings' fields differ from holdings'")
    if type(data["seat_games"]) is not int or data["seat_games"] != seat_games:
        raise ValueError(f"its holdings count {data['seat_games']!r} seat-games, its games {seat_games}")
    if type(data["wins"]) is not int or data["wins"] != wins:
        raise ValueError(f"its holdings count {data['wins']!r} wins, its games {wins}")
    built, taken = data["built"], data["taken"]
    if type(built) is not list or type(taken) is not list:
        raise ValueError("its holdings do not list what was built and taken")
    built_columns = _entries(built, (str, int, bool, int), "a built entry is not [name, turn, won, seat-games]")
    taken_columns = _entries(taken, (str, bool, int), "a taken entry is not [name, won, seat-games]")
    names, turns, won_built, counts = built_columns
    if turns and (min(turns) < 0 or max(turns) > last_turn):
        raise ValueError(f"a built entry's turn is not one of its games' (0 to {last_turn})")
    if (counts and min(counts) < 1) or (taken_columns[2] and min(taken_columns[2]) < 1):
        raise ValueError("an entry counts fewer than 1 seat-game")
    _unknown(names, study.items, "item")
    _unknown(taken_columns[0], study.items, "item")
    held = Holdings(seat_games, wins, Counter(dict(zip(zip(names, turns, won_built), counts))),
                    Counter(dict(zip(zip(*taken_columns[:2]), taken_columns[2]))))
    if len(held.built) != len(built) or len(held.taken) != len(taken):
        raise ValueError("its holdings list an entry twice")
    # A seat-game counts a name once, and built it only where it took it (a zone in play is one
    # of its public zones): per name, built <= taken <= the seat-games that won (or did not).
    built_by: dict[tuple[str, bool], int] = {}
    get = built_by.get
    for key, n in zip(zip(names, won_built), counts):
        built_by[key] = get(key, 0) + n
    for key in built_by.keys() | held.taken.keys():
        name, won = key
        if not get(key, 0) <= held.taken[key] <= (wins if won else seat_games - wins):
            raise ValueError(f"its holdings count {name!r} built or taken by more seat-games than can be")
    held.deals = _deals_of(data["deals"], study, deals)
    return held


def _deals_of(data: Any, study: _Study, deals: range) -> DealSums:
    """A batch's sums over its deals (`DealSums`): the sums of squares of names its content
    defines, each once, w <= b and w <= W <= seats in every deal (so 0 <= ww <= bw <= bb, bb >= 1,
    bw <= bv <= seats * bb and ww <= wv <= bv); as many whole deals as it can make whole, with
    0 <= W <= seats each; the deals it cuts among its own, each with fewer games than a deal has,
    and no more won (ValueError where they cannot be)."""
    seats = len(study.labels)
    if (type(data) is not dict or set(data) != {"squares", "whole", "open"}
            or _kinds(list(data.values())) - {list}):
        raise ValueError("its sums over the deals are not {squares, whole, open}")
    names, bb, bw, ww, bv, wv = _entries(data["squares"], (str, int, int, int, int, int),
                                         "a square entry is not [name, bb, bw, ww, bW, wW]")
    _unknown(names, study.items, "item")
    if len(set(names)) != len(names) or not all(0 <= w2 <= wb <= b2 and b2 >= 1 and wb <= bW <= seats * b2
                                                and w2 <= wW <= bW
                                                for b2, wb, w2, bW, wW in zip(bb, bw, ww, bv, wv)):
        raise ValueError("its sums over the deals list a name twice, or sums no deal can make")
    whole = data["whole"]
    if _kinds(whole) - {int} or len(whole) != 3:
        raise ValueError("its whole deals are not [deals, won, won squared]")
    count, won_games, won2 = whole
    if not (0 <= count <= len(deals) and 0 <= won_games <= won2 <= seats * won_games and won_games <= seats * count):
        raise ValueError("its whole deals' games won are more than they can be")
    out = DealSums(seats, Counter(dict(zip(names, bb))), Counter({k: v for k, v in zip(names, bw) if v}),
                   Counter({k: v for k, v in zip(names, ww) if v}), Counter({k: v for k, v in zip(names, bv) if v}),
                   Counter({k: v for k, v in zip(names, wv) if v}), count, won_games, won2)
    cut, games, won, lists = _entries(data["open"], (int, int, int, list),
                                      "a cut deal is not [deal, games, won, entries]")
    if len(set(cut)) != len(cut) or any(d not in deals or not 0 < g < seats or not 0 <= v <= g
                                        for d, g, v in zip(cut, games, won)):
        raise ValueError("a deal it cuts is not one of its own, or has as many games as a deal, or more won")
    for deal, g, v, entries in zip(cut, games, won, lists):
        held, built, won_by = _entries(entries, (str, int, int), "a cut deal's entry is not [name, built, won]")
        _unknown(held, study.items, "item")
        if (built and (min(built) < 1 or max(built) > g * seats or not all(0 <= w <= min(b, v)
                                                                            for b, w in zip(built, won_by)))
                or len(set(held)) != len(held)):
            raise ValueError("a cut deal's entry counts seat-games it cannot have")
        out.open[deal] = [g, v, Counter(dict(zip(held, built))), Counter({k: w for k, w in zip(held, won_by) if w})]
    return out


def _entries(entries: list, types: tuple[type, ...], problem: str) -> tuple[tuple, ...]:
    """A list of holdings' entries (lists of values of `types`), as columns (ValueError: `problem`)."""
    if _kinds(entries) - {list} or set(map(len, entries)) - {len(types)}:
        raise ValueError(problem)
    columns = tuple(zip(*entries)) or ((),) * len(types)
    if any(_kinds(column) - {kind} for column, kind in zip(columns, types)):
        raise ValueError(problem)
    return columns
