"""The suite's scratch folders go when the process that made them ends, and only then."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _run(code: str) -> list[str]:
    out = subprocess.run([sys.executable, "-c", code], cwd=HERE, capture_output=True, text=True, check=True)
    return out.stdout.split()


def test_a_scratch_folder_is_removed_at_exit():
    path, existed = _run(
        "from scratch import scratch_dir\n"
        "d = scratch_dir('rulesdsl-scratch-test-')\n"
        "(d / 'f').write_text('x')\n"
        "print(d, d.exists())\n")
    assert existed == "True"
    assert not Path(path).exists()


def test_a_forked_child_leaves_its_makers_folder():
    # The child inherits the exit handler; it must not remove a folder its parent still uses.
    path, after_child = _run(
        "import os, sys\n"
        "from scratch import scratch_dir\n"
        "d = scratch_dir('rulesdsl-scratch-test-')\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    sys.exit(0)\n"
        "os.waitpid(pid, 0)\n"
        "print(d, d.exists())\n")
    assert after_child == "True"
    assert not Path(path).exists()

