"""Reader for the reference game records in tests/data/reference/games (a test helper).

Format: see that folder's README.  A record gives the scripted setup (structures, tokens,
wonders), the draft picks and one move per line; `# EXPECT` gives the final result."""

from __future__ import annotations

import re
from pathlib import Path

import attrs

from rulesdsl.interpreter import Action, Game, load_ruleset

GAMES_DIR = Path(__file__).resolve().parent / "data" / "reference" / "games"


@attrs.define
class Record:
    name: str
    setup: dict[str, list[str]]
    picks: list[str]
    moves: list[str]
    expect: str


def read(path: Path) -> Record:
    setup: dict[str, list[str]] = {}
    picks: list[str] = []
    moves: list[str] = []
    expect = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line:
            continue
        if line.startswith("# EXPECT"):
            expect = line[len("# EXPECT"):].strip()
        elif line.startswith("#"):
            continue
        elif re.match(r"^[A-Z0-9]+:", line):
            key, _, rest = line.partition(":")
            values = [v.strip() for v in rest.split("|") if v.strip()]
            if key == "PICKS":
                picks = values
            else:
                setup[key] = values
        else:
            moves.append(line)
    return Record(path.stem, setup, picks, moves, expect)


def script_for(record: Record, guild_names: list[str]) -> dict[str, list[str]]:
    s = record.setup
    guilds = [c for c in s["AGE3"] if c in guild_names]
    guilds += [g for g in guild_names if g not in guilds][: 3 - len(guilds)]
    return {"progress_deck": s["TOKENS"] + s["BOX"], "wonder_deck": s["WONDERS"],
            "age1": s["AGE1"], "age2": s["AGE2"], "age3": s["AGE3"], "guilds": guilds}


def move_action(move: str) -> Action:
    code, _, arg = move.partition(" ")
    if code == "B":
        return Action("build", (arg,))
    if code == "D":
        return Action("discard", (arg,))
    if code == "W":
        wonder, _, card = arg.partition("/")
        return Action("wonder", (card, wonder))
    if code in ("T", "L", "Z", "M"):
        return Action("choose", (arg,))
    if code == "F":
        return Action("choose_player", (arg,))
    raise ValueError(f"unknown move {move!r}")


def play(record: Record) -> Game:
    rules = load_ruleset()
    guilds = [it.name for it in rules.content.items if it.kind == "card" and it.color == "purple"]
    game = rules.new_game(seed=0, script=script_for(record, guilds))
    for pick in record.picks:
        option = Action("choose", (pick,))
        if option in game.legal_actions():
            game.apply(option)
    for move in record.moves:
        game.apply(move_action(move))
    return game


def expected(record: Record) -> dict:
    """Per player total, coins and blue VP, and the result code for p0."""
    out: dict = {}
    for p in (0, 1):
        m = re.search(rf"p{p} total=(\d+) coins=(\d+)", record.expect)
        out[p] = {"total": int(m.group(1)), "coins": int(m.group(2))}
        seg = record.expect.split(f"p{p} ", 1)[1].split(";")[0]
        b = re.search(r"blue=(\d+)", seg)
        if b:
            out[p]["blue"] = int(b.group(1))
    r = re.search(r"result_p0=(-?\d+)", record.expect)
    out["result_p0"] = int(r.group(1)) if r else None
    return out
