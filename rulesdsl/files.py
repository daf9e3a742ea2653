"""Reading and writing the files users hand us: only regular files are read, with a size limit,
and files are written atomically (a temporary file beside the target, then a rename), so an
interrupted or failed write leaves the old file intact."""

from __future__ import annotations

import errno
import os
import secrets
import stat
from pathlib import Path

# Saves, traces and scenarios are small (a long game's trace is tens of kB); anything past this
# is not one of ours, and reading it whole could exhaust memory.
MAX_INPUT_BYTES = 64 * 1024 * 1024


class FileProblem(OSError):
    """A file that cannot be read or written, with a message for one `error:` line."""


def read_regular(path: Path, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of a regular file, refusing folders, FIFOs, devices and files over `limit`."""
    try:
        info = os.stat(path)
    except OSError as exc:
        raise FileProblem(f"cannot read {path}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(info.st_mode):
        raise FileProblem(f"cannot read {path}: not a regular file")
    if info.st_size > limit:
        raise FileProblem(f"cannot read {path}: {info.st_size} bytes, more than the limit of {limit}")
    # O_NONBLOCK: a file swapped for a FIFO between the stat and the open must not hang us.
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise FileProblem(f"cannot read {path}: {exc.strerror or exc}") from None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise FileProblem(f"cannot read {path}: not a regular file")
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise FileProblem(f"cannot read {path}: more than the limit of {limit} bytes")
    return data


def check_writable(path: Path) -> None:
    """Fail early, before any work, when `path` cannot be written (its folder is missing or not
    writable, or it is a folder or other non-regular file)."""
    folder = path.parent if str(path.parent) else Path(".")
    if path.exists() and not path.is_file():
        raise FileProblem(f"cannot write {path}: not a regular file")
    if not folder.is_dir():
        raise FileProblem(f"cannot write {path}: no folder {folder}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise FileProblem(f"cannot write {path}: folder {folder} is not writable")


def write_atomic(path: Path, text: str) -> None:
    """Write `text` (UTF-8) to `path` through a temporary file in the same folder and a rename.
    The file ends with the permissions an ordinary write would leave: a new one as the umask
    allows, one written over keeps its own (a formatted card file stays as readable, or as
    executable, as it was), and a symbolic link keeps pointing where it did, at the new text."""
    path = Path(path)
    if path.is_symlink():
        # (a rename would put a file where the link was: write what it points at instead)
        path = Path(os.path.realpath(path))
    folder = path.parent if str(path.parent) else Path(".")
    try:
        fd, tmp = _create_beside(path, folder)
    except OSError as exc:
        raise FileProblem(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            _keep_mode(handle.fileno(), path)
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise FileProblem(f"cannot write {path}: {exc.strerror or exc}") from None
        raise


def _create_beside(path: Path, folder: Path) -> tuple[int, Path]:
    """A new, empty temporary file next to `path`, open for writing.  Made with mode 0o666, as
    `open` makes a file, so the kernel applies the umask (`tempfile.mkstemp` makes every file
    0o600, whatever the umask says, and reading the umask means setting it: not thread-safe)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        tmp = folder / f".{path.name}.{secrets.token_hex(4)}.tmp"
        try:
            return os.open(tmp, flags, 0o666), tmp
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary name", str(folder))


def _keep_mode(fd: int, path: Path) -> None:
    """Give the temporary file the permission bits of the file it will replace, if any."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return
    if stat.S_ISREG(info.st_mode) and hasattr(os, "fchmod"):
        os.fchmod(fd, stat.S_IMODE(info.st_mode))
