"""An on-disk cache of parsed files, so `rulesdsl check` does not re-parse unchanged files.

The cache is an optimisation and is never trusted over the card files:

- it lives in the user's own cache folder (`$RULESDSL_CACHE_DIR`, else
  `$XDG_CACHE_HOME/rulesdsl`, else `~/.cache/rulesdsl`), created private (0700); a folder that
  is a symbolic link, or is not the user's, is not used;
- every access goes through a descriptor of that folder with O_NOFOLLOW, and entries are read
  only when they are the user's own regular files (O_NONBLOCK: a FIFO never blocks), up to a
  size limit;
- an entry is JSON (data only: nothing in it can run code), and holds a SHA-256 of itself, of
  the cache format and of the source it was made from; any mismatch, any decoding problem,
  or a tree that does not validate (every node of the right shape, every name, string and
  number equal to the source text at its position, each token of the source held once) means:
  discard, parse again, rewrite;
- there is one entry per card file (keyed on its resolved path), and at most MAX_ENTRIES
  entries and MAX_BYTES bytes: the least recently used go first.

Any problem with the cache (unwritable, refused, corrupt, stale) just means parsing again.
The checks catch damage, entries made from other files or versions, and trees with a token
changed, left out or copied.  What they cannot see is an entry forged on purpose that keeps
every token but moves them between nodes or changes positions of whole statements and blocks;
that needs write access to this private folder, that is the user's own account."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import secrets
import stat
from pathlib import Path
from typing import Any, Callable

import attrs

from . import ast
from .diagnostics import Span
from .safe_text import canonical, first_control

MAX_ENTRIES = 2000
MAX_BYTES = 64 * 1024 * 1024
# One entry is a few times its source; card files are a few kB.  Anything larger is not stored.
MAX_ENTRY_BYTES = 8 * 1024 * 1024
MAGIC = b"rulesdsl-parse-cache 2\n"
_DIGEST = 32
_ENTRY_NAME = re.compile(r"[0-9a-f]{64}")
_TEMP_PREFIX = ".tmp-"
_HERE = Path(__file__).resolve().parent
# Every open in the folder refuses a link; 0 where the system cannot (then the cache is off).
_FLAGS = (os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)) if hasattr(os, "O_NOFOLLOW") else 0


def cache_dir() -> Path | None:
    """The cache folder, or None when the cache is off (`why_off` says why)."""
    return _where()[0]


def why_off() -> str | None:
    """Why there is no cache folder: RULESDSL_NO_CACHE, or no home folder to keep it in."""
    return _where()[1]


# Values of RULESDSL_NO_CACHE that leave the cache on (`=0` turned it off, as `=1` does).
_NOT_OFF = ("", "0", "false", "no", "off")


def _where() -> tuple[Path | None, str | None]:
    if os.environ.get("RULESDSL_NO_CACHE", "").strip().lower() not in _NOT_OFF:
        return None, "RULESDSL_NO_CACHE is set"
    if os.environ.get("RULESDSL_CACHE_DIR"):
        return Path(os.environ["RULESDSL_CACHE_DIR"]), None
    # (a relative XDG_CACHE_HOME is to be ignored, as the XDG specification says; a home of ""
    # put the cache in the current folder, or at `/.cache`)
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    if os.path.isabs(xdg):
        return Path(xdg) / "rulesdsl", None
    home = os.path.expanduser("~")   # (HOME, else the account's: `/` where HOME is "")
    if os.environ.get("HOME") == "" or not os.path.isabs(home):
        return None, "no home folder (HOME is empty)"
    return Path(home) / ".cache" / "rulesdsl", None


def supported() -> bool:
    """Link-safe access needs O_NOFOLLOW and descriptor-relative calls (not on Windows)."""
    return bool(_FLAGS) and {os.open, os.stat, os.unlink, os.rename, os.utime} <= os.supports_dir_fd \
        and os.scandir in os.supports_fd


class Refused(OSError):
    """The cache folder exists but is not safe to use; the message says why."""


def _open_folder(create: bool) -> int | None:
    """A descriptor of the cache folder, or None (off, missing and not created, or refused)."""
    folder = cache_dir()
    if folder is None or not supported():
        return None
    if create:
        if not os.path.isdir(_made_in(folder)):   # (a home folder that is not there is not made)
            return None
        try:
            os.makedirs(folder, mode=0o700, exist_ok=True)
        except OSError:
            return None
    try:
        return _checked_folder(folder)
    except OSError:
        return None


def _made_in(folder: Path) -> Path:
    """The folder the cache folder is made in, which must be there: the home folder for
    `~/.cache/rulesdsl` (`.cache` is made with it), else the folder it is named in."""
    default = Path(os.path.expanduser("~")) / ".cache" / "rulesdsl"
    return folder.parent.parent if folder == default else folder.parent


def _checked_folder(folder: Path) -> int:
    """Open `folder` without following a link at its last component; the user's own, private."""
    fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _FLAGS)
    try:
        info = os.fstat(fd)
        if not stat.S_ISDIR(info.st_mode):
            raise Refused(f"{folder} is not a folder")
        if hasattr(os, "getuid") and info.st_uid != os.getuid():
            raise Refused(f"{folder} belongs to another user")
        if info.st_mode & 0o077:  # made by an older version, or by hand: make it private
            # (the owner's own bits kept: a folder its owner made read-only stays read-only)
            os.fchmod(fd, stat.S_IMODE(info.st_mode) & 0o700)
        return fd
    except BaseException:
        os.close(fd)
        raise


def _fingerprint() -> str:
    """The cache format: the grammar and the code that parses and (de)serialises."""
    h = hashlib.sha256(MAGIC)
    from .parser import GRAMMAR_PATH
    for part in (GRAMMAR_PATH, _HERE / "ast.py", _HERE / "parser.py", _HERE / "safe_text.py", Path(__file__)):
        try:
            h.update(part.read_bytes())
        except OSError:
            h.update(b"?")
    return h.hexdigest()


_FINGERPRINT: list[str] = []


def fingerprint() -> str:
    if not _FINGERPRINT:
        _FINGERPRINT.append(_fingerprint())
    return _FINGERPRINT[0]


def _resolved(path: Path) -> str:
    try:
        return str(Path(path).resolve())
    except (OSError, RuntimeError):
        return os.path.abspath(path)


def key(path: Path) -> str:
    """The entry name of a card file: one per file (however its path is typed) and cache format."""
    return _key(_resolved(path))


def _key(resolved: str) -> str:
    return hashlib.sha256(f"{fingerprint()}\0{resolved}".encode("utf-8", "surrogateescape")).hexdigest()


def load(path: Path, shown: str, data: bytes, text: str) -> ast.SourceFile | None:
    """The cached tree of `path` (whose bytes are `data`, decoded `text`), with spans naming
    `shown`; None when there is no valid entry."""
    folder = _open_folder(create=False)
    if folder is None:
        return None
    try:
        resolved = _resolved(path)
        name = _key(resolved)
        raw = _read_entry(folder, name)
        if raw is None:
            return None
        tree = _unpack(raw, resolved, data, shown, text)
        if tree is not None:
            try:  # the entry was used: least recently used is judged by the modification time
                os.utime(name, dir_fd=folder, follow_symlinks=False)
            except OSError:
                pass
        return tree
    except OSError:  # an entry that cannot be read is no entry
        return None
    finally:
        os.close(folder)


def store(path: Path, data: bytes, tree: ast.SourceFile) -> None:
    folder = _open_folder(create=True)
    if folder is None:
        return
    try:
        try:
            resolved = _resolved(path)
            entry = _pack(resolved, data, tree)
        except (ValueError, TypeError, RecursionError):
            return
        if len(entry) > MAX_ENTRY_BYTES:
            return
        _write_entry(folder, _key(resolved), entry)
        prune(folder)
    except OSError:
        pass
    finally:
        os.close(folder)


# -- files in the folder (all relative to its descriptor, never following a link) ---------------

def _read_entry(folder: int, name: str) -> bytes | None:
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | _FLAGS, dir_fd=folder)
    except OSError:  # missing, or a symbolic link (ELOOP)
        return None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_ENTRY_BYTES:
            return None
        if hasattr(os, "getuid") and info.st_uid != os.getuid():  # planted while the folder was open
            return None
        return handle.read(MAX_ENTRY_BYTES + 1)


def _write_entry(folder: int, name: str, entry: bytes) -> None:
    tmp = f"{_TEMP_PREFIX}{secrets.token_hex(8)}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _FLAGS, 0o600, dir_fd=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(entry)
        # A rename replaces whatever is at the entry's name (a link, a FIFO) without following it.
        os.replace(tmp, name, src_dir_fd=folder, dst_dir_fd=folder)
    except BaseException:
        try:
            os.unlink(tmp, dir_fd=folder)
        except OSError:
            pass
        raise


@attrs.frozen
class Info:
    folder: Path | None
    state: str            # "on", "off ...", "empty ...", "read-only ..." or why it is not used
    entries: int = 0
    bytes: int = 0


def _entries(folder: int) -> list[tuple[float, int, str]]:
    """(modification time, size, name) of each entry; leftover temporary files count too."""
    found = []
    with os.scandir(folder) as it:
        for e in it:
            if _ENTRY_NAME.fullmatch(e.name) or e.name.startswith(_TEMP_PREFIX):
                try:
                    st = e.stat(follow_symlinks=False)
                except OSError:
                    continue
                found.append((st.st_mtime, st.st_size, e.name))
    return found


def prune(folder: int, max_entries: int | None = None, max_bytes: int | None = None) -> int:
    """Remove the least recently used entries until both limits hold; returns how many."""
    max_entries = MAX_ENTRIES if max_entries is None else max_entries
    max_bytes = MAX_BYTES if max_bytes is None else max_bytes
    found = _entries(folder)
    total = sum(size for _, size, _ in found)
    if len(found) <= max_entries and total <= max_bytes:
        return 0
    removed = 0
    count = len(found)
    for _, size, name in sorted(found):
        if count <= max_entries and total <= max_bytes:
            break
        try:
            os.unlink(name, dir_fd=folder)
            removed += 1
        except FileNotFoundError:
            pass
        except OSError:
            continue
        count -= 1
        total -= size
    return removed


def info() -> Info:
    """What `rulesdsl cache info` shows."""
    folder, off = _where()
    if folder is None:
        return Info(None, f"off ({off})")
    if not supported():
        return Info(folder, "off (not supported on this system)")
    if not os.path.lexists(folder):
        within = _made_in(folder)
        if not os.path.isdir(within):   # (it could never be made: said, not "no folder yet")
            return Info(folder, f"not used: {within} is " + ("not a folder" if os.path.lexists(within) else "not there"))
        # (where making it begins: its parent, else `within`, the one above that is there)
        there = folder.parent if os.path.isdir(folder.parent) else within
        if not _writable(there):   # (`check` would fail to make it, and parse every file every time)
            return Info(folder, f"not used: it cannot be made, {there} is not writable")
        return Info(folder, "empty (no folder yet)")
    try:
        fd = _checked_folder(folder)
    except OSError as exc:
        return Info(folder, f"not used: {_reason(exc, folder)}")
    try:
        found = _entries(fd)
    finally:
        os.close(fd)
    # (entries are still read from a folder its owner made read-only; new ones are not kept)
    state = "on" if _writable(folder) else READ_ONLY
    return Info(folder, state, len(found), sum(size for _, size, _ in found))


READ_ONLY = "read-only (entries are read; new ones are not kept)"


def _writable(folder: Path) -> bool:
    """Whether files can be made and removed in `folder`."""
    return os.access(folder, os.W_OK | os.X_OK)


def clear() -> tuple[Info, int]:
    """Remove every entry; returns the state before and the number of files removed.  A folder
    that is not writable is a PermissionError (its entries cannot be removed)."""
    before = info()
    if before.state == READ_ONLY:
        raise PermissionError(errno.EACCES, f"{before.folder} is not writable")
    if before.state != "on":
        return before, 0
    fd = _checked_folder(before.folder)
    try:
        return before, prune(fd, max_entries=0, max_bytes=0)
    finally:
        os.close(fd)


def _reason(exc: OSError, folder: Path) -> str:
    if isinstance(exc, Refused):
        return str(exc)
    if os.path.islink(folder):
        return f"{folder} is a symbolic link"
    return f"{folder}: {exc.strerror or exc}"


# -- entries -----------------------------------------------------------------------------------------
# An entry is MAGIC, the SHA-256 of the body, then the body: JSON of
# [fingerprint, resolved path, SHA-256 of the source bytes, definitions].

def _pack(resolved: str, data: bytes, tree: ast.SourceFile) -> bytes:
    body = json.dumps([fingerprint(), resolved, hashlib.sha256(data).hexdigest(),
                       [_encode_definition(d) for d in tree.definitions]],
                      ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogateescape")
    return MAGIC + hashlib.sha256(body).digest() + body


def _unpack(raw: bytes, resolved: str, data: bytes, shown: str, text: str) -> ast.SourceFile | None:
    if not raw.startswith(MAGIC) or len(raw) < len(MAGIC) + _DIGEST:
        return None
    digest, body = raw[len(MAGIC):len(MAGIC) + _DIGEST], raw[len(MAGIC) + _DIGEST:]
    if hashlib.sha256(body).digest() != digest:
        return None
    try:
        header = json.loads(body)
        if (not isinstance(header, list) or len(header) != 4 or header[0] != fingerprint()
                or header[1] != resolved or header[2] != hashlib.sha256(data).hexdigest()
                or type(header[3]) is not list):
            return None
        decoder = _Decoder(shown, text)
        tree = ast.SourceFile(shown, text, tuple(decoder.definition(d) for d in header[3]))
        if decoder.leaves != _token_count(text):
            return None
        return tree
    except (ValueError, TypeError, KeyError, IndexError, RecursionError, UnicodeError):
        return None  # any decoding problem or mismatch: parse again


def _span(s: Span) -> list[int]:
    return [s.line, s.column, s.end_line, s.end_column]


def _encode_definition(d: ast.Definition) -> list:
    return [d.modifier, d.kind, _span(d.kind_span), d.name, _span(d.name_span),
            _encode_block(d.block) if d.block else None, _span(d.span)]


def _encode_block(b: ast.Block) -> list:
    return [[_encode_statement(s) for s in b.statements], _span(b.span)]


def _encode_statement(s: ast.Statement) -> list:
    return [s.verb, _span(s.verb_span), [_encode_expr(a) for a in s.args], [_encode_named(k) for k in s.kwargs],
            _encode_block(s.block) if s.block else None, _span(s.span)]


def _encode_named(k: ast.NamedArg) -> list:
    return [k.name, _encode_expr(k.value), _span(k.span)]


def _encode_expr(e: ast.Expr) -> list:
    if isinstance(e, (ast.Int, ast.Str)):
        return [type(e).__name__, e.value, _span(e.span)]
    if isinstance(e, ast.Name):
        return ["Name", e.name, _span(e.span)]
    if isinstance(e, ast.Attribute):
        return ["Attribute", _encode_expr(e.obj), e.name, _span(e.span)]
    if isinstance(e, ast.Alternatives):
        return ["Alternatives", list(e.names), _span(e.span)]
    if isinstance(e, ast.ListExpr):
        return ["ListExpr", [_encode_expr(x) for x in e.items], _span(e.span)]
    if isinstance(e, ast.Call):
        return ["Call", e.func, [_encode_expr(a) for a in e.args], [_encode_named(k) for k in e.kwargs], _span(e.span)]
    if isinstance(e, ast.BinOp):
        return ["BinOp", e.op, _encode_expr(e.left), _encode_expr(e.right), _span(e.span)]
    if isinstance(e, ast.Not):
        return ["Not", _encode_expr(e.operand), _span(e.span)]
    raise TypeError(f"cannot cache {type(e).__name__}")


# The tokens of a card file that become leaves of its tree: quoted names, words (keywords and
# operators `and`, `or`, `not` included), numbers and operator symbols; comments are matched to be
# skipped.  Brackets, braces, `=`, `,`, `;` and `|` leave no leaf of their own.
_TOKEN = re.compile(r'"[^"\n]*"|#[^\n]*|[A-Za-z_][A-Za-z0-9_]*|[0-9]+|==|!=|<=|>=|//|[<>+*%-]')


def _token_count(text: str) -> int:
    return sum(1 for token in _TOKEN.findall(text) if token[0] != "#")


_OPS = frozenset({"+", "-", "*", "//", "%", "==", "!=", "<", "<=", ">", ">=", "and", "or"})
_MODIFIERS = (None, "replace", "extend", "remove")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class _Decoder:
    """JSON -> AST, refusing (ValueError) anything the parser could not have made from `text`:
    a node of the wrong shape, a span outside the text, a name, quoted name or number that is
    not the source text at its span, a control character in a string, nesting past MAX_DEPTH.
    `leaves` counts the words, numbers, quoted names and operators the tree holds: the caller
    compares it with the tokens of the text, so a node left out or copied is noticed too."""

    def __init__(self, shown: str, text: str):
        from .parser import MAX_DEPTH, MAX_INT_DIGITS
        self.shown = shown
        self.lines = text.split("\n")
        self.last_line = len(self.lines) + 1
        self.depth = 0
        self.leaves = 0
        self.claimed: set[tuple[int, int]] = set()
        self.max_depth = MAX_DEPTH
        self.max_digits = MAX_INT_DIGITS

    # -- leaves
    def span(self, raw: Any) -> Span:
        if type(raw) is not list:
            raise ValueError("bad span")
        line, col, end_line, end_col = raw
        if not (type(line) is type(col) is type(end_line) is type(end_col) is int
                and 1 <= line <= end_line <= self.last_line and col >= 1 and end_col >= 1):
            raise ValueError("bad span")
        return Span(self.shown, line, col, end_line, end_col)

    def source(self, span: Span) -> str:
        """The text of the token at a one-line span; no two leaves may claim the same token."""
        if span.end_line != span.line or span.line > len(self.lines):
            raise ValueError("a token spans lines")
        at = (span.line, span.column)
        if at in self.claimed:
            raise ValueError("two leaves at one place")
        self.claimed.add(at)
        return self.lines[span.line - 1][span.column - 1:span.end_column - 1]

    def word(self, raw: Any, span: Span | None = None) -> str:
        if type(raw) is not str or not _WORD.fullmatch(raw):
            raise ValueError("bad name")
        if span is not None and self.source(span) != raw:
            raise ValueError("a name is not its source text")
        self.leaves += 1
        return raw

    def quoted(self, raw: Any, span: Span) -> str:
        if type(raw) is not str or '"' in raw or first_control(raw) is not None:
            raise ValueError("bad string")
        if not self._is_quoted(self.source(span), raw):
            raise ValueError("a string is not its source text")
        self.leaves += 1
        return raw

    @staticmethod
    def _is_quoted(source: str, name: str) -> bool:
        """`source` is `name` in quotes (the parser keeps a quoted name in its canonical form)."""
        return len(source) >= 2 and source[0] == source[-1] == '"' and canonical(source[1:-1]) == name

    def _is_name(self, source: str, name: str) -> bool:
        return source == name or self._is_quoted(source, name)

    def number(self, raw: Any, span: Span) -> int:
        if type(raw) is not int:
            raise ValueError("bad number")
        digits = self.source(span)
        if not digits.isdigit() or not digits.isascii() or len(digits.lstrip("0")) > self.max_digits or int(digits) != raw:
            raise ValueError("a number is not its source text")
        self.leaves += 1
        return raw

    @staticmethod
    def items(raw: Any, each: Callable) -> tuple:
        if type(raw) is not list:
            raise ValueError("expected a list")
        return tuple(each(x) for x in raw)

    def _enter(self) -> None:
        self.depth += 1
        if self.depth > self.max_depth:
            raise ValueError("nested too deeply")

    # -- nodes
    def definition(self, raw: Any) -> ast.Definition:
        if type(raw) is not list or len(raw) != 7:
            raise ValueError("bad definition")
        modifier, kind, kind_span, name, name_span, block, span = raw
        if modifier not in _MODIFIERS:
            raise ValueError("bad modifier")
        kind_span = self.span(kind_span)
        name_span = self.span(name_span)
        kind = self.word(kind, kind_span)
        if type(name) is not str:
            raise ValueError("bad name")
        if first_control(name) is not None or name and not self._is_name(self.source(name_span), name):
            raise ValueError("a definition's name is not its source text")
        # A nameless definition's name span is its kind's; the modifier is a word of its own.
        self.leaves += (name_span != kind_span) + (modifier is not None)
        return ast.Definition(modifier, kind, kind_span, name, name_span,
                              None if block is None else self.block(block), self.span(span))

    def block(self, raw: Any) -> ast.Block:
        self._enter()
        try:
            if type(raw) is not list or len(raw) != 2:
                raise ValueError("bad block")
            return ast.Block(self.items(raw[0], self.statement), self.span(raw[1]))
        finally:
            self.depth -= 1

    def statement(self, raw: Any) -> ast.Statement:
        if type(raw) is not list or len(raw) != 6:
            raise ValueError("bad statement")
        verb, verb_span, args, kwargs, block, span = raw
        verb_span = self.span(verb_span)
        return ast.Statement(self.word(verb, verb_span), verb_span, self.items(args, self.expr),
                             self.items(kwargs, self.named), None if block is None else self.block(block),
                             self.span(span))

    def named(self, raw: Any) -> ast.NamedArg:
        if type(raw) is not list or len(raw) != 3:
            raise ValueError("bad named argument")
        span = self.span(raw[2])
        name = self.word(raw[0])
        if not self.source(Span(self.shown, span.line, span.column, span.line, span.column + len(name))) == name:
            raise ValueError("a named argument is not its source text")
        return ast.NamedArg(name, self.expr(raw[1]), span)

    def expr(self, raw: Any) -> ast.Expr:
        self._enter()
        try:
            if type(raw) is not list or not raw:
                raise ValueError("bad expression")
            decode = self._EXPRS.get(raw[0]) if type(raw[0]) is str else None
            if decode is None:
                raise ValueError("unknown expression")
            return decode(self, raw)
        finally:
            self.depth -= 1

    def _int(self, raw: list) -> ast.Int:
        _, value, span = raw
        span = self.span(span)
        return ast.Int(self.number(value, span), span)

    def _str(self, raw: list) -> ast.Str:
        _, value, span = raw
        span = self.span(span)
        return ast.Str(self.quoted(value, span), span)

    def _name(self, raw: list) -> ast.Name:
        _, name, span = raw
        span = self.span(span)
        return ast.Name(self.word(name, span), span)

    def _attribute(self, raw: list) -> ast.Attribute:
        _, obj, name, span = raw
        return ast.Attribute(self.expr(obj), self.word(name), self.span(span))

    def _alternatives(self, raw: list) -> ast.Alternatives:
        _, names, span = raw
        names = self.items(names, self.word)
        if len(names) < 2:
            raise ValueError("bad alternatives")
        return ast.Alternatives(names, self.span(span))

    def _list(self, raw: list) -> ast.ListExpr:
        _, items, span = raw
        return ast.ListExpr(self.items(items, self.expr), self.span(span))

    def _call(self, raw: list) -> ast.Call:
        _, func, args, kwargs, span = raw
        span = self.span(span)
        func = self.word(func)
        if self.source(Span(self.shown, span.line, span.column, span.line, span.column + len(func))) != func:
            raise ValueError("a call is not its source text")
        return ast.Call(func, self.items(args, self.expr), self.items(kwargs, self.named), span)

    def _binop(self, raw: list) -> ast.BinOp:
        _, op, left, right, span = raw
        if op not in _OPS:
            raise ValueError("bad operator")
        self.leaves += 1
        return ast.BinOp(op, self.expr(left), self.expr(right), self.span(span))

    def _not(self, raw: list) -> ast.Not:
        _, operand, span = raw
        self.leaves += 1
        return ast.Not(self.expr(operand), self.span(span))

    _EXPRS: dict[str, Callable] = {
        "Int": _int, "Str": _str, "Name": _name, "Attribute": _attribute, "Alternatives": _alternatives,
        "ListExpr": _list, "Call": _call, "BinOp": _binop, "Not": _not,
    }
