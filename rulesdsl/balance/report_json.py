"""The balance report as JSON text, its game rows written a batch at a time: a report made
without its rows (`summarise(..., rows=False)`) and the games' outcomes give the text that
`json.dumps(report, sort_keys=True)` gives of the report with its rows, without a dict per
game of a long run held at once."""

from __future__ import annotations

import json
from typing import Iterator

from .outcomes import Outcomes

ROWS_AT_ONCE = 10_000   # (rows made and written together: the C encoder does each batch)


def report_json(value: dict, games: list[tuple[dict, Outcomes]]) -> Iterator[str]:
    """Pieces of `json.dumps(value, sort_keys=True)` where each report of `games` (the report
    dict, identical object, and its outcomes) lists its games under `games`.  `value` is one
    report, or a dict holding reports (the A/B result)."""
    yield from _write(value, {id(report): outcomes for report, outcomes in games})


def _write(value: dict, rows_of: dict[int, Outcomes]) -> Iterator[str]:
    outcomes = rows_of.get(id(value))
    keys = sorted(value if outcomes is None else {*value, "games"})
    if not keys:
        yield "{}"
        return
    yield "{"
    for i, key in enumerate(keys):
        yield (", " if i else "") + json.dumps(key) + ": "
        if outcomes is not None and key == "games":
            yield from _rows(outcomes)
        elif isinstance(value[key], dict) and _holds(value[key], rows_of):
            yield from _write(value[key], rows_of)
        else:
            yield json.dumps(value[key], sort_keys=True)
    yield "}"


def _holds(value: dict, rows_of: dict[int, Outcomes]) -> bool:
    return id(value) in rows_of or any(isinstance(v, dict) and _holds(v, rows_of) for v in value.values())


def _rows(outcomes: Outcomes) -> Iterator[str]:
    yield "["
    for start in range(0, len(outcomes), ROWS_AT_ONCE):
        text = json.dumps(outcomes.rows(start, start + ROWS_AT_ONCE), sort_keys=True)
        yield (", " if start else "") + text[1:-1]
    yield "]"
