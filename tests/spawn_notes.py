"""A `sitecustomize` module for a test's PYTHONPATH that notes every process spawned for a
worker pool (its command line ends with `--multiprocessing-fork`): a file named by its pid in
the folder $NOTES.  A run that left one really spawned its workers."""

from __future__ import annotations

from pathlib import Path

NOTING = '''
import os, sys
if "--multiprocessing-fork" in sys.argv and os.environ.get("NOTES"):
    open(os.path.join(os.environ["NOTES"], str(os.getpid())), "w").close()
'''


def noting(site: Path, notes: Path) -> dict[str, str]:
    """Write the module into `site` (a folder the test puts on PYTHONPATH); the environment
    that has spawned workers noted in `notes` (made empty)."""
    (site / "sitecustomize.py").write_text(NOTING, encoding="utf-8")
    notes.mkdir(exist_ok=True)
    for note in notes.iterdir():
        note.unlink()
    return {"RULESDSL_START_METHOD": "spawn", "NOTES": str(notes)}
