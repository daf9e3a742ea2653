"""Scratch folders of a test run (the parse cache, the fuzz tests' card copies), removed when
the process that made them ends: a run of the suite used to leave a dozen megabytes in the
system's temporary folder each time."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path


def scratch_dir(prefix: str) -> Path:
    """A new folder under the system's temporary folder, removed at this process's exit."""
    path = Path(tempfile.mkdtemp(prefix=prefix))
    maker = os.getpid()

    def remove() -> None:
        # A forked worker inherits the handler but not the folder: only its maker removes it.
        if os.getpid() == maker:
            shutil.rmtree(path, ignore_errors=True)

    atexit.register(remove)
    return path
