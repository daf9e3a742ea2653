"""The standard streams of the `rulesdsl` command, as `rulesdsl.cli.main` sets them up: a closed
one, or an output that cannot be written (a full disk, /dev/full), is one `error:` line and exit
status 1, never a traceback."""

from __future__ import annotations

import sys
from typing import Callable, NoReturn

import click


class InputClosed(Exception):
    """Standard input is closed (`<&-`) and the command reads it (`check -`, `fmt -`, `play`, `lsp`)."""


class OutputFailed(OSError):
    """Writing standard output failed (errno and reason: the system's), or it is closed."""


def _closed_output() -> OutputFailed:
    import errno
    return OutputFailed(errno.EBADF, "standard output is closed")


class _Closed:
    """What a closed standard stream answers like a file object (`which`: "input" or "output"):
    no descriptor, no terminal, nothing to close."""
    encoding, errors, closed, newlines = "utf-8", "strict", False, None
    which = ""

    def fileno(self) -> int:
        import io
        raise io.UnsupportedOperation(f"standard {self.which} is closed")

    def isatty(self) -> bool:
        return False

    def close(self) -> None:
        pass


class _ClosedInput(_Closed):
    """sys.stdin when standard input is closed: reading it (or its `buffer`) raises InputClosed."""
    which, name = "input", "<stdin>"

    def _closed(self, *args, **kwargs):
        raise InputClosed("standard input is closed")

    read = readline = readlines = __iter__ = _closed
    buffer = property(_closed)

    def readable(self) -> bool:
        return True


class _ClosedOutput(_Closed):
    """sys.stdout when standard output is closed (`>&-`): writing anything raises OutputFailed;
    so does taking its `buffer` (`rulesdsl lsp` writes there: it says so before it starts)."""
    which, name, line_buffering = "output", "<stdout>", False

    def write(self, text: str) -> int:
        if not isinstance(text, str):   # (as a text stream does: click tells text from binary so)
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        if text:
            raise _closed_output()
        return 0

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    @property
    def buffer(self):
        raise _closed_output()

    def flush(self) -> None:   # (nothing is held back: nothing to lose)
        pass

    def writable(self) -> bool:
        return True


class _Guarded:
    """Standard output or error as the command writes it: the stream itself for everything but
    writing.  On standard output a write (or flush) that fails raises OutputFailed, but a reader
    gone (EPIPE: `| head`), which click ends quietly with exit 1 as it did; on standard error
    (`quiet`) a failure is dropped: what it would have said is lost, the exit status is not."""

    def __init__(self, stream, quiet: bool):
        self._stream, self._quiet = stream, quiet

    def __getattr__(self, name: str):
        return getattr(self._stream, name)

    def _guard(self, call, *args):
        import errno
        try:
            return call(*args)
        except OSError as exc:
            if self._quiet:
                return None
            if exc.errno == errno.EPIPE or isinstance(exc, OutputFailed):
                raise
            raise OutputFailed(exc.errno, exc.strerror or str(exc)) from None   # (errno and reason kept)

    def write(self, text):
        return self._guard(self._stream.write, text) or 0

    def writelines(self, lines) -> None:
        self._guard(self._stream.writelines, lines)

    def flush(self) -> None:
        self._guard(self._stream.flush)

    @property
    def buffer(self):
        return _Guarded(self._stream.buffer, self._quiet)


def _fill_closed_descriptors() -> None:
    """A closed descriptor 0, 1 or 2 is opened on /dev/null: else the next file opened (a card
    file written in place, a saved trace) would take its number, and whatever writes to it (a
    worker process's standard output) would write into that file."""
    import os
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
            continue
        except OSError:
            pass
        new = os.open(os.devnull, os.O_RDWR)
        if new != fd:
            os.dup2(new, fd)
            os.close(new)
        else:
            os.set_inheritable(fd, True)


def _drop_output(fd: int = 1) -> None:
    """Standard output is given up: what is still held for it goes to /dev/null (so that the
    interpreter's last flush does not fail once more, with `Exception ignored` and status 120)."""
    import os
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, fd)
        os.close(null)
    except OSError:
        pass


def _flush_output() -> None:
    """What print() or rich still holds for standard output, written: its failure is the
    command's too (EPIPE: exit 1 quietly, as click ends it).  A stream closed (`lsp` closes it at
    `exit`) is left, as the interpreter leaves it at its end."""
    if sys.stdout.closed:
        return
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _drop_output()
        sys.exit(1)


def with_standard_streams(run: Callable[[], object]) -> NoReturn:
    """Runs the `rulesdsl` command (`run`, click's standalone main: it ends in SystemExit) with
    the standard streams guarded: standard input closed where the command reads it is `error:
    standard input is closed`; standard output closed or failing (ENOSPC, EIO) is `error: cannot
    write the output: REASON`; both exit status 1 (a failure of the run: docs/cli.md, exit
    statuses).  A reader that stopped reading (EPIPE) ends quietly with 1, as click ends it.
    Standard error closed or failing loses the messages, not the exit status."""
    _fill_closed_descriptors()
    import os
    sys.stdin = _ClosedInput() if sys.stdin is None else sys.stdin
    sys.stdout = _ClosedOutput() if sys.stdout is None else _Guarded(sys.stdout, quiet=False)
    sys.stderr = _Guarded(sys.stderr if sys.stderr is not None else open(os.devnull, "w", encoding="utf-8"),
                          quiet=True)
    try:
        try:
            run()
        finally:
            _flush_output()
    except InputClosed as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    except OutputFailed as exc:
        _drop_output()
        click.echo(f"error: cannot write the output: {exc.strerror}", err=True)
        sys.exit(1)
    sys.exit(0)
