"""Benchmark: `rulesdsl check` of one big card file full of errors (not a test).

    python benchmarks/render_speed.py [--megabytes 10] [--errors 100000] [--syntax]

Writes a card file of about the given size in which `--errors` cards each have one mistake (an
unknown colour; with --syntax, a syntax error), then times reading and parsing, checking, and
rendering every diagnostic in the human, JSON, GitHub and SARIF formats.  CPU times are
given beside wall-clock times: on a shared machine the latter measure the neighbours too.

Before rendering was made linear (one split of each file, not one per diagnostic), the human
format of a 0.8 MB file with 10,000 errors took 18.8 s; it now takes 0.02 s."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path


def card_file(megabytes: float, errors: int, syntax: bool) -> str:
    good = '    color brown\n    produce wood\n'
    bad = '    color brown)\n' if syntax else '    color purpel\n'
    target = int(megabytes * 1_000_000)
    cards = []
    size = 0
    i = 0
    while size < target or i < errors:
        body = bad if i < errors else good
        text = f'card "Bench Card {i}" {{\n    age 1\n{body}}}\n\n'
        cards.append(text)
        size += len(text)
        i += 1
    return "".join(cards)


def timed(work):
    wall, cpu = time.perf_counter(), time.process_time()
    result = work()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=float, default=10)
    parser.add_argument("--errors", type=int, default=100_000)
    parser.add_argument("--syntax", action="store_true", help="syntax errors instead of unknown colours")
    args = parser.parse_args()
    os.environ["RULESDSL_NO_CACHE"] = "1"
    from rulesdsl.report import check_paths

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.rules"
        path.write_text(card_file(args.megabytes, args.errors, args.syntax), encoding="utf-8")
        size = path.stat().st_size
        report, wall, cpu = timed(lambda: check_paths([path]))
        print(f"{size / 1e6:.1f} MB, {len(report.diagnostics):,} diagnostics")
        print(f"  read, parse and check: {wall:.2f} s ({cpu:.2f} s CPU)")
        for name, render in (("human, all", lambda: report.human(0)),
                             ("human, --max-errors 200", lambda: report.human(200)),
                             ("json", report.to_json), ("github", lambda: report.github(0)),
                             ("sarif", report.sarif)):
            out, wall, cpu = timed(render)
            print(f"  {name}: {wall:.2f} s ({cpu:.2f} s CPU), {len(out) / 1e6:.1f} MB")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
