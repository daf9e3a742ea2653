"""`rulesdsl explain` at a terminal wraps its long lines between words, continuation lines
indented under their line (a senator's or a conspiracy's text is several hundred characters on
one line, which the terminal broke mid-word at its edge); piped or written to a file, the lines
stay whole, as scripts and the language server read them."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from rulesdsl.cli import cli
from rulesdsl.explain import explain, wrapped
from rulesdsl.pipeline import load_ruleset


def test_long_lines_break_between_words_and_keep_their_indent():
    text = explain("Blackmail", load_ruleset(("agora",)).content)
    assert max(len(line) for line in text.split("\n")) > 300
    out = wrapped(text, 80)
    lines = out.split("\n")
    assert all(len(line) <= 80 for line in lines)
    assert " ".join(out.split()) == " ".join(text.split())   # (every word kept, in order, none broken)
    assert lines[0] == text.split("\n")[0] and lines[2].startswith("  When triggered: ")
    assert lines[3].startswith("      ") and not lines[3].startswith("       ")
    short = explain("Chamber of Commerce", load_ruleset(()).content)
    assert wrapped(short, 80) == short
    assert all(len(line) <= 40 or " " not in line.strip() for line in wrapped(text, 10).split("\n"))


def test_piped_output_keeps_lines_whole():
    result = CliRunner().invoke(cli, ["explain", "Blackmail", "-e", "agora"])
    assert result.exit_code == 0
    assert max(len(line) for line in result.output.split("\n")) > 300


def test_a_terminal_gets_the_lines_wrapped_to_its_width():
    pty = pytest.importorskip("pty")   # (a pseudo-terminal: POSIX only)
    leader, follower = pty.openpty()
    env = {**os.environ, "COLUMNS": "72", "LINES": "40"}
    done = subprocess.run([sys.executable, "-m", "rulesdsl.cli", "explain", "Blackmail", "-e", "agora"],
                          stdout=follower, stderr=subprocess.PIPE, env=env, timeout=120)
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:   # (the terminal closed: all read)
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    assert done.returncode == 0, done.stderr
    lines = b"".join(chunks).decode("utf-8").replace("\r\n", "\n").rstrip("\n").split("\n")
    assert len(lines) > 5 and all(len(line) <= 71 for line in lines), lines
    assert lines[0].startswith("Blackmail (conspiracy, ")
