"""Benchmark: `rulesdsl check` of all bundled content, process start included (not a test).

    python benchmarks/check_speed.py [--runs N]

The first run fills the parse cache; the figure that matters is the median of the others."""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    # The command installed beside this Python (`.venv/bin/python benchmarks/check_speed.py`
    # times that environment's rulesdsl, not whichever one PATH finds first).
    beside = Path(sys.executable).parent / "rulesdsl"
    command = [str(beside), "check"] if beside.is_file() else [sys.executable, "-m", "rulesdsl.cli", "check"]
    times = []
    for _ in range(args.runs + 1):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    cold, warm = times[0], times[1:]
    print(f"rulesdsl check: first run {cold:.3f} s; then median {statistics.median(warm):.3f} s, "
          f"best {min(warm):.3f} s over {len(warm)} runs")


if __name__ == "__main__":
    main()
