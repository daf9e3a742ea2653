"""Benchmark: diagnostics after an edit, as the language server computes them (not a test:
timings vary by machine).  Opens a bundled file, checks its content set once, then makes N
edits (a typo put in and taken out, alternately) and times each re-check; memory is sampled
with tracemalloc to show it stays level.

    python benchmarks/lsp_edits.py [--edits N] [--file cards/duel/age1.rules] [--expansion NAME ...]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
import tracemalloc
from pathlib import Path

from rulesdsl.loader import CARDS_ROOT
from rulesdsl.lsp.project import Project


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=1000)
    parser.add_argument("--file", type=Path, default=CARDS_ROOT / "duel" / "age1.rules")
    parser.add_argument("--expansion", action="append", default=[])
    args = parser.parse_args()
    project = Project(args.expansion)
    path = args.file.absolute()
    text = path.read_text(encoding="utf-8")
    start = time.perf_counter()
    project.update(path, text)
    project.diagnostics(path)
    first = time.perf_counter() - start
    lines = text.split("\n")
    target = next(i for i, line in enumerate(lines) if line.strip() and not line.startswith("#"))

    def edit(i: int) -> None:
        edited = list(lines)
        edited[target] = lines[target] + (" x" if i % 2 == 0 else "")  # every other edit is broken
        project.update(path, "\n".join(edited))
        project.diagnostics(path)

    times = []
    for i in range(args.edits):
        t = time.perf_counter()
        edit(i)
        times.append(time.perf_counter() - t)
    # Memory: the same edits again under tracemalloc (which slows them, hence apart).
    tracemalloc.start()
    samples = []
    for i in range(args.edits):
        edit(i)
        if i % max(1, args.edits // 10) == 0:
            gc.collect()
            samples.append(tracemalloc.get_traced_memory()[0])
    tracemalloc.stop()
    layers = project.layers_for(path) or ()
    print(f"content set: {' + '.join(p.name for p in layers)} ({sum(len(project.files_in(p)) for p in layers)} files)")
    print(f"first check: {first * 1000:.0f} ms")
    print(f"after an edit ({args.edits} edits): median {statistics.median(times) * 1000:.1f} ms, "
          f"95th percentile {sorted(times)[int(len(times) * 0.95) - 1] * 1000:.1f} ms, max {max(times) * 1000:.1f} ms")
    print("memory allocated since the first check, after every tenth of the edits (kB): " + " ".join(f"{s // 1024}" for s in samples))


if __name__ == "__main__":
    main()
