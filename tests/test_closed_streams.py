"""A standard stream closed (`<&-`, `>&-`), or an output that cannot be written (`>/dev/full`):
one `error:` line and exit status 1, never a traceback (rulesdsl.streams.with_standard_streams).
Each case runs the real command in its own process, the stream closed in that process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CLOSED_INPUT = "error: standard input is closed\n"
CLOSED_OUTPUT = "error: cannot write the output: standard output is closed\n"
FULL_OUTPUT = "error: cannot write the output: No space left on device\n"


def rulesdsl(*args: str, close: tuple[int, ...] = (), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
             stderr=subprocess.PIPE, data: bytes | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """`python -m rulesdsl ARGS` with the descriptors in `close` closed in the child (as `<&-` does:
    subprocess.DEVNULL is open, not closed)."""
    def closing() -> None:
        for fd in close:
            os.close(fd)
    if data is not None:
        stdin = subprocess.PIPE
    result = subprocess.run([sys.executable, "-m", "rulesdsl", *args], input=data, stdin=None if data is not None
                            else stdin, stdout=stdout, stderr=stderr, cwd=cwd, timeout=60,
                            preexec_fn=closing if close else None,
                            env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    if stderr == subprocess.PIPE:
        assert b"Traceback" not in result.stderr, result.stderr.decode(errors="replace")
    return result


def error_of(result: subprocess.CompletedProcess) -> str:
    return result.stderr.decode()


# -- standard input closed -------------------------------------------------------------------------

@pytest.mark.parametrize("args", [("check", "-"), ("fmt", "-")])
def test_reading_a_closed_standard_input_is_one_line(args):
    result = rulesdsl(*args, close=(0,))
    assert (result.returncode, error_of(result), result.stdout) == (1, CLOSED_INPUT, b"")


def test_play_with_standard_input_closed_says_so_at_the_first_decision():
    result = rulesdsl("play", "--plain", "--seed", "3", close=(0,))
    assert result.returncode == 1
    assert error_of(result) == CLOSED_INPUT
    assert result.stdout.startswith(b"seed 3\n")   # (the game was shown; the answer could not be read)


def test_lsp_with_standard_input_closed_does_not_start():
    pytest.importorskip("pygls")
    result = rulesdsl("lsp", close=(0,))
    assert (result.returncode, error_of(result)) == (1, CLOSED_INPUT)


# -- standard output closed ------------------------------------------------------------------------

@pytest.mark.parametrize("args", [("explain", "Quarry"), ("balance", "-n", "2"), ("list",), ("--version",)])
def test_writing_a_closed_standard_output_is_one_line(args):
    result = rulesdsl(*args, close=(1,), stdout=None)
    assert (result.returncode, error_of(result)) == (1, CLOSED_OUTPUT)


def test_a_command_writing_nothing_there_does_not_mind_a_closed_standard_output(tmp_path):
    # fmt in place writes the file and reports on standard error: the file is whole, exit 0.
    card = tmp_path / "x.rules"
    card.write_text('card "X" {\n  age 1\n      color brown\n}\n', encoding="utf-8")
    result = rulesdsl("fmt", str(card), close=(1,), stdout=None)
    assert result.returncode == 0, error_of(result)
    assert card.read_text(encoding="utf-8") == 'card "X" {\n    age 1\n    color brown\n}\n'
    assert "1 file reformatted" in error_of(result)


# -- standard output that cannot be written --------------------------------------------------------

@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("args", [("list",), ("check", "cards/duel/age1.rules"), ("--version",)])
def test_a_full_output_is_one_line(args):
    with open("/dev/full", "wb") as full:
        result = rulesdsl(*args, stdout=full)
    assert (result.returncode, error_of(result)) == (1, FULL_OUTPUT)


def test_a_reader_that_stops_reading_ends_the_command_quietly():
    # (EPIPE, as `| head` makes it: exit 1 and nothing said, as before)
    read, write = os.pipe()
    os.close(read)
    try:
        result = rulesdsl("list", "cards", stdout=write)
    finally:
        os.close(write)
    assert (result.returncode, error_of(result)) == (1, "")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_standard_error_that_cannot_be_written_loses_the_message_not_the_status():
    with open("/dev/full", "wb") as full:
        result = rulesdsl("list", "nosuchkind", stderr=full)
    assert result.returncode == 2   # (the usage error it is; it was 1, a traceback nobody saw)
    result = rulesdsl("list", "nosuchkind", close=(2,), stderr=None)
    assert result.returncode == 2


# -- the language server's input -------------------------------------------------------------------

def test_lsp_refuses_a_message_larger_than_its_limit():
    pytest.importorskip("pygls")
    result = rulesdsl("lsp", data=b"Content-Length: 99999999999\r\n\r\n")
    assert result.returncode == 1
    assert error_of(result).startswith("error: a message of 99999999999 bytes (its Content-Length) is more than "
                                       "the limit of ")
    assert error_of(result).count("\n") == 1
