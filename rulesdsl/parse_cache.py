"""An on-disk cache of parsed files, so `rulesdsl check` does not re-parse unchanged files.

Entries are plain tuples written with `marshal` (never pickle: a cache file cannot run code),
keyed by the file's path, its bytes and a fingerprint of the grammar and AST code.  Any
problem with the cache (unwritable, corrupt, stale) just means parsing again."""

from __future__ import annotations

import hashlib
import marshal
import os
from pathlib import Path

from . import ast
from .diagnostics import Span

_HERE = Path(__file__).resolve().parent
_NODE_TYPES = {cls.__name__: cls for cls in (ast.Int, ast.Str, ast.Name, ast.Attribute, ast.Alternatives,
                                             ast.ListExpr, ast.NamedArg, ast.Call, ast.BinOp, ast.Not,
                                             ast.Statement, ast.Block, ast.Definition)}


def cache_dir() -> Path | None:
    if os.environ.get("RULESDSL_NO_CACHE"):
        return None
    root = os.environ.get("RULESDSL_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "rulesdsl")
    return Path(root)


def _fingerprint() -> bytes:
    h = hashlib.sha256()
    from .parser import GRAMMAR_PATH
    for part in (GRAMMAR_PATH, _HERE / "ast.py", _HERE / "parser.py", Path(__file__)):
        try:
            h.update(part.read_bytes())
        except OSError:
            h.update(b"?")
    return h.digest()


_FINGERPRINT: list[bytes] = []


def key(path: str, data: bytes) -> str:
    if not _FINGERPRINT:
        _FINGERPRINT.append(_fingerprint())
    return hashlib.sha256(_FINGERPRINT[0] + path.encode() + b"\0" + data).hexdigest()


def load(path: str, data: bytes, text: str) -> ast.SourceFile | None:
    folder = cache_dir()
    if folder is None:
        return None
    try:
        raw = marshal.loads((folder / key(path, data)).read_bytes())
        return ast.SourceFile(path, text, tuple(_decode(d, path) for d in raw))
    except Exception:  # missing, corrupt or from another version: parse again
        return None


def store(path: str, data: bytes, tree: ast.SourceFile) -> None:
    folder = cache_dir()
    if folder is None:
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / key(path, data)
        tmp = target.with_suffix(f".tmp{os.getpid()}")
        tmp.write_bytes(marshal.dumps(tuple(_encode(d) for d in tree.definitions)))
        os.replace(tmp, target)
    except (OSError, ValueError, RecursionError):
        pass


def _encode(node):
    if isinstance(node, Span):
        return ("@", node.line, node.column, node.end_line, node.end_column)
    if isinstance(node, tuple):
        return ("T", tuple(_encode(x) for x in node))
    name = type(node).__name__
    if name in _NODE_TYPES:
        return (name, tuple(_encode(getattr(node, f.name)) for f in _NODE_TYPES[name].__attrs_attrs__))
    return node  # str, int, None


def _decode(raw, path: str):
    if isinstance(raw, tuple):
        tag = raw[0]
        if tag == "@":
            return Span(path, raw[1], raw[2], raw[3], raw[4])
        if tag == "T":
            return tuple(_decode(x, path) for x in raw[1])
        return _NODE_TYPES[tag](*(_decode(x, path) for x in raw[1]))
    return raw
