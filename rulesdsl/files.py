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


# What os.stat fails with when nothing is there (what Path.exists() calls missing).  Any other
# failure means the path is there, or may be, but cannot be looked at: a folder on the way the
# user may not enter (EACCES), a name longer than the system allows (ENAMETOOLONG), a loop of
# symbolic links (ELOOP).  Path.exists() and is_dir() raise on the first two: the helpers below
# never do.
_MISSING = (errno.ENOENT, errno.ENOTDIR)


def lookup(path: Path | str) -> tuple[os.stat_result | None, str | None]:
    """What `os.stat(path)` finds, without raising: (its result, None) when the path is there,
    (None, None) when it is missing, (None, why) when it cannot be looked at (`why` is the
    system's reason: "Permission denied", "File name too long", ...)."""
    try:
        return os.stat(path), None
    except OSError as exc:
        if exc.errno in _MISSING:
            return None, None
        return None, exc.strerror or str(exc)
    except ValueError as exc:   # an embedded NUL: no such file can exist
        return None, str(exc)


def exists(path: Path | str) -> bool:
    """Path.exists(), but False (not an exception) for a path that cannot be looked at."""
    return lookup(path)[0] is not None


def is_dir(path: Path | str) -> bool:
    """Path.is_dir(), but False (not an exception) for a path that cannot be looked at."""
    info = lookup(path)[0]
    return info is not None and stat.S_ISDIR(info.st_mode)


def is_file(path: Path | str) -> bool:
    """Path.is_file(), but False (not an exception) for a path that cannot be looked at."""
    info = lookup(path)[0]
    return info is not None and stat.S_ISREG(info.st_mode)


def unreachable(path: Path | str) -> str | None:
    """Why `path` cannot be looked at ("Permission denied", ...), or None when it is there or
    simply missing."""
    return lookup(path)[1]


def resolved(path: Path | str) -> Path:
    """Path.resolve(), which raises RuntimeError on a loop of symbolic links: here the loop is
    left as it is (reading it, or writing it, says why it cannot be)."""
    return Path(os.path.realpath(path))


def check_writable(path: Path) -> None:
    """Fail early, before any work, when `path` cannot be written (its folder is missing or not
    writable, it is a folder or other non-regular file, or it cannot be looked at).  A symbolic
    link is judged by what it points at, as `write_atomic` writes there: a dangling link into a
    missing folder, or a loop of links, fails here, not after the work."""
    path = Path(path)
    target = Path(os.path.realpath(path)) if os.path.islink(path) else path
    linked = f" ({path} links to {target})" if target not in (path, Path(os.path.abspath(path))) else ""
    info, why = lookup(target)
    if why is not None:
        raise FileProblem(f"cannot write {path}: {why}{linked}")
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise FileProblem(f"cannot write {path}: not a regular file{linked}")
    folder = target.parent if str(target.parent) else Path(".")
    found, why = lookup(folder)
    if why is not None:
        raise FileProblem(f"cannot write {path}: folder {folder}: {why}")
    if found is None or not stat.S_ISDIR(found.st_mode):
        raise FileProblem(f"cannot write {path}: no folder {folder}{linked}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise FileProblem(f"cannot write {path}: folder {folder} is not writable")


def write_atomic(path: Path, text: str) -> None:
    """Write `text` (UTF-8) to `path` through a temporary file in the same folder and a rename.
    The file ends with the permissions an ordinary write would leave: a new one as the umask
    allows, one written over keeps its own (a formatted card file stays as readable, or as
    executable, as it was), and a symbolic link keeps pointing where it did, at the new text."""
    path = Path(path)
    if os.path.islink(path):   # (False, not an exception, for a path that cannot be looked at)
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
