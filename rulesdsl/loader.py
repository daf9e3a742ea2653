"""Finding card files and merging a base game with its expansions into one set of definitions.

A game or expansion is a folder of `.rules` files.  Definitions are keyed by (kind, name); an
expansion may `replace`, `extend` or `remove` what an earlier folder defined.
"""

from __future__ import annotations

import os
import stat
from importlib.resources import files
from pathlib import Path

import attrs

from . import ast, parse_cache
from .diagnostics import Diagnostic
from .files import exists, is_dir, lookup, resolved
from .names import UnknownName
from .parser import decode, parse_file

CARDS_ROOT = Path(str(files("rulesdsl.cards")))
SUFFIX = ".rules"
BASE_GAME = "duel"


def bundled_folder(name: str, kind: str | None = None) -> Path | None:
    """A bundled folder by its own name, or by the name its `game`/`expansion` header gives;
    with `kind` ("game" or "expansion"), only a folder whose header is of that kind."""
    folder = CARDS_ROOT / name
    if is_dir(folder) and (kind is None or (header(folder) or ("", ""))[0] == kind):
        return folder
    for candidate in sorted(p for p in CARDS_ROOT.iterdir() if p.is_dir()):
        found = header(candidate)
        if found is not None and found[1] == name and (kind is None or found[0] == kind):
            return candidate
    return None


def bundled_sets(kind: str) -> dict[str, Path]:
    """The bundled games or expansions (`kind`) by the name their header gives: the names
    `--expansion` (or a base game) takes."""
    out = {}
    for folder in sorted(p for p in CARDS_ROOT.iterdir() if p.is_dir()):
        found = header(folder)
        if found is not None and found[0] == kind:
            out[found[1]] = folder
    return out


def folder_order(folder: Path) -> int:
    """The `order N` of a folder's expansion header (a text scan; 0 when absent)."""
    for f in sorted(folder.glob(f"*{SUFFIX}")) if is_dir(folder) else [folder]:
        try:
            for line in f.read_text(encoding="utf-8", errors="replace").splitlines():
                words = line.split("#")[0].split()
                if len(words) == 2 and words[0] == "order" and words[1].isdigit():
                    return int(words[1])
        except OSError:
            continue
    return 0


def canonical_expansions(expansions: list[str] | tuple[str, ...]) -> list[str]:
    """Expansions in the order they apply (their `order`, then as given), each once: the same
    set always makes the same content and the same saved states."""
    def key(name: str) -> int:
        # (`exists`, `is_dir`: a path that cannot be looked at is not one here; loading it says why)
        path = Path(name) if ("/" in name or is_dir(name)) else bundled_folder(name)
        return folder_order(path) if path is not None and exists(path) else 0
    return sorted(dict.fromkeys(expansions), key=key)


def header_name(folder: Path) -> str | None:
    """The name in a folder's `expansion NAME` or `game NAME` line (a text scan, no parsing)."""
    found = header(folder)
    return found[1] if found else None


def header(folder: Path) -> tuple[str, str] | None:
    """(kind, name) of a folder's `expansion NAME` or `game NAME` line (a text scan, no parsing)."""
    for f in sorted(folder.glob(f"*{SUFFIX}")):
        try:
            for line in f.read_text(encoding="utf-8", errors="replace").splitlines():
                words = line.split()
                if len(words) >= 2 and words[0] in ("expansion", "game"):
                    return words[0], words[1].strip('"{')
        except OSError:
            continue
    return None


def bundled_names() -> list[str]:
    return sorted(p.name for p in CARDS_ROOT.iterdir() if p.is_dir() and any(p.glob(f"*{SUFFIX}")))


# A content folder holds card files (the bundled base game has 8); these bounds stop a folder
# named by mistake (a home folder, `/`) from being walked or read whole.
MAX_FOLDER_FILES = 1000           # card files in one folder, subfolders included
MAX_FOLDER_BYTES = 16 * 1024 * 1024  # their total size
MAX_FOLDER_WALK = 20000           # files and folders looked at while searching it


class FolderProblem(ValueError):
    """A game or expansion folder that cannot be used; the message is one line."""


def files_in(path: Path) -> list[Path]:
    """The card files of a folder (subfolders included, links to folders not followed), or
    [path] for a file, or for a path that is missing or cannot be looked at (reading it reports
    E009, saying why).  Raises FolderProblem past the limits above."""
    if not is_dir(path):
        return [path]
    found: list[Path] = []
    total = seen = 0
    pending = [str(path)]
    while pending:
        try:
            with os.scandir(pending.pop()) as entries:
                for entry in entries:
                    seen += 1
                    if seen > MAX_FOLDER_WALK:
                        raise FolderProblem(f"{path} holds more than {MAX_FOLDER_WALK} files and folders; "
                                            "a game or expansion folder holds its card files only")
                    if entry.is_dir(follow_symlinks=False):
                        pending.append(entry.path)
                    elif entry.name.endswith(SUFFIX):
                        card = Path(entry.path)
                        # Not regular files alone: a card file that cannot be read (a broken link,
                        # a link into a folder we may not enter) is reported, not skipped.  (A FIFO
                        # or device is not a card file either, and reading it could block: skipped.)
                        info = lookup(card)[0]
                        if info is not None and stat.S_ISREG(info.st_mode):
                            total += info.st_size
                        elif info is not None:
                            continue
                        found.append(card)
        except OSError:
            continue  # an unreadable subfolder holds nothing we can read
    if len(found) > MAX_FOLDER_FILES:
        raise FolderProblem(f"{path} holds {len(found)} card files, more than the limit of {MAX_FOLDER_FILES}")
    if total > MAX_FOLDER_BYTES:
        raise FolderProblem(f"{path}: its card files hold {total} bytes, more than the limit of {MAX_FOLDER_BYTES}")
    return sorted(found)


@attrs.define
class Merged:
    """Every definition in force, in definition order, with the sources they came from."""

    definitions: list[ast.Definition] = attrs.Factory(list)
    sources: dict[str, str] = attrs.Factory(dict)
    files: int = 0
    read: list[str] = attrs.Factory(list)  # the files read, as shown in diagnostics
    diagnostics: list[Diagnostic] = attrs.Factory(list)
    # (the `remove` definition, what it removed): the checker explains what a removal breaks.
    removed: list[tuple[ast.Definition, ast.Definition]] = attrs.Factory(list)

    def by_kind(self, kind: str) -> list[ast.Definition]:
        return [d for d in self.definitions if d.kind == kind]


def read_files(paths: list[Path], merged: Merged, display_root: Path | None = None) -> list[ast.SourceFile]:
    parsed = []
    for path in paths:
        shown = _display(path, display_root)
        try:
            if path.exists() and not path.is_file():  # a folder, FIFO or device given by name
                raise IsADirectoryError(0, "not a regular file") if path.is_dir() else OSError(0, "not a regular file")
            size = path.stat().st_size
            if size > MAX_FOLDER_BYTES:  # one file given by name gets the limit of a whole folder
                raise OSError(0, f"{size} bytes, more than the limit of {MAX_FOLDER_BYTES}")
            data = path.read_bytes()
        except OSError as exc:
            from .diagnostics import Span
            merged.diagnostics.append(Diagnostic("error", "E009", f"cannot read file: {exc.strerror or exc}",
                                                 Span.point(shown, 1, 1)))
            continue
        merged.files += 1
        merged.read.append(shown)
        text, problem = decode(shown, data)
        if problem:
            merged.diagnostics.append(problem)
            continue
        merged.sources[shown] = text
        tree = parse_cache.load(path, shown, data, text)
        if tree is None:
            tree, diags = parse_file(shown, text)
            merged.diagnostics.extend(diags)
            if tree and not diags:  # a partly parsed file is parsed again next time, errors and all
                parse_cache.store(path, data, tree)
        if tree:
            parsed.append(tree)
    return parsed


def _display(path: Path, root: Path | None) -> str:
    try:
        return str(path.relative_to(root)) if root else str(path)
    except ValueError:
        return str(path)


def layer_order(layer: list[ast.SourceFile]) -> int:
    """An expansion's `order N` (default 0): expansions apply in that order, whatever order
    they were given in, so the same set always makes the same content."""
    for source in layer:
        for d in source.definitions:
            if d.kind == "expansion" and d.block:
                for s in d.block.statements:
                    if s.verb == "order" and s.args and isinstance(s.args[0], ast.Int):
                        return s.args[0].value
    return 0


def merge(layers: list[list[ast.SourceFile]], merged: Merged) -> Merged:
    """Apply each layer (a folder) in order; later layers modify earlier ones."""
    if len(layers) > 2:
        layers = layers[:1] + sorted(layers[1:], key=layer_order)
    index: dict[tuple[str, str], int] = {}
    slots: list[ast.Definition | None] = []
    for layer in layers:
        for source in layer:
            for d in source.definitions:
                key = (d.kind, d.name)
                if d.modifier is None:
                    if key in index and slots[index[key]] is not None:
                        first = slots[index[key]]
                        merged.diagnostics.append(Diagnostic(
                            "error", "E102", f"{d.kind} `{d.name}` is defined twice", d.name_span,
                            f"the first definition is at {first.name_span.file}:{first.name_span.line}; "
                            f"use `replace {d.kind} \"{d.name}\"` to change it"))
                        continue
                    index[key] = len(slots)
                    slots.append(d)
                    continue
                if key not in index or slots[index[key]] is None:
                    from .diagnostics import did_you_mean
                    known = [n for (k, n), i in index.items() if k == d.kind and slots[i] is not None]
                    merged.diagnostics.append(Diagnostic(
                        "error", "E105", f"cannot {d.modifier} {d.kind} `{d.name}`: it is not defined",
                        d.name_span, did_you_mean(d.name, known)))
                    continue
                i = index[key]
                if d.modifier == "remove":
                    merged.removed.append((d, slots[i]))
                    slots[i] = None
                elif d.modifier == "replace":
                    slots[i] = attrs.evolve(d, modifier=None)
                elif d.modifier == "extend":
                    old = slots[i]
                    extra = d.block.statements if d.block else ()
                    block = ast.Block(old.block.statements + extra, old.block.span) if old.block else d.block
                    slots[i] = attrs.evolve(old, block=block)
    merged.definitions = [d for d in slots if d is not None]
    return merged


@attrs.frozen
class Inline:
    """A card file given as bytes rather than a path (`rulesdsl check -` reads one from stdin);
    `name` is what diagnostics show for it."""

    name: str
    data: bytes


def load_paths(paths: list[Path | Inline], read: dict | None = None) -> Merged:
    """Load folders/files as layers: the first is the base, the others modify it in order.
    `read` lets several loads share the folders already read (check reads each folder once)."""
    merged = Merged()
    layers = []
    for path in paths:
        key = path if isinstance(path, Inline) else resolved(path)
        if read is not None and key in read:
            got = read[key]
        else:
            got = read_inline(path) if isinstance(path, Inline) else read_folder(path)
            if read is not None:
                read[key] = got
        merged.files += got.files
        merged.read.extend(got.read)
        merged.sources.update(got.sources)
        merged.diagnostics.extend(got.diagnostics)
        layers.append(got.parsed)
    return merge(layers, merged)


@attrs.define
class FolderRead:
    parsed: list[ast.SourceFile]
    sources: dict[str, str]
    diagnostics: list[Diagnostic]
    files: int
    read: list[str]


def read_folder(path: Path) -> FolderRead:
    root = CARDS_ROOT.parent if _inside(path, CARDS_ROOT) else None
    scratch = Merged()
    paths = files_in(path)
    if not paths:
        # A folder with no card file (a misspelt or wrong folder) must not pass as empty content.
        from .diagnostics import Span
        scratch.diagnostics.append(Diagnostic("error", "E011", f"no card file (*{SUFFIX}) in folder {path}",
                                              Span.point(_display(path, root), 1, 1),
                                              "give a folder holding .rules files, or a .rules file"))
    parsed = read_files(paths, scratch, root)
    return FolderRead(parsed, scratch.sources, scratch.diagnostics, scratch.files, scratch.read)


def read_inline(source: Inline) -> FolderRead:
    """One card file from bytes in memory (not cached: it has no path to key it by)."""
    scratch = Merged()
    parsed: list[ast.SourceFile] = []
    text, problem = decode(source.name, source.data)
    if problem:
        scratch.diagnostics.append(problem)
    else:
        scratch.sources[source.name] = text
        tree, diags = parse_file(source.name, text)
        scratch.diagnostics.extend(diags)
        if tree:
            parsed.append(tree)
    return FolderRead(parsed, scratch.sources, scratch.diagnostics, 1, [source.name])


def _inside(path: Path, root: Path) -> bool:
    try:
        resolved(path).relative_to(resolved(root))
        return True
    except ValueError:
        return False


def resolve_layers(expansions: list[str] | tuple[str, ...] = (), base: str | Path = BASE_GAME) -> list[Path]:
    """The folders for a base game and its expansions, by bundled name or path. An unknown name
    is an UnknownName listing the names accepted (the games for `base`, the expansions for the
    others).  A path, whether typed on the command line or read from a trace or save, must be a
    folder holding card files within the limits of `files_in` (or a card file); otherwise
    FolderProblem (a ValueError) says why, in one line.  A missing path is E009 when read.  An
    expansion given twice (`-e NAME -e NAME`) is one layer: laid twice, every definition
    in it would be defined twice."""
    folders = [layer_folder(base, "game")]
    seen = {resolved(folders[0])}   # (`resolved`: a loop of links is E009 when read, not RuntimeError)
    for name in expansions:
        folder = layer_folder(name, "expansion")
        if resolved(folder) not in seen:
            seen.add(resolved(folder))
            folders.append(folder)
    return folders


def layer_folder(name: str | Path, kind: str) -> Path:
    """The folder of one layer: a path (a name holding `/`, or an existing folder), or the
    bundled game or expansion (`kind`) of that name."""
    if isinstance(name, str) and not name.strip():
        # Path("") is the current folder: an empty name must not walk it.
        raise FolderProblem("an empty name is not a game or expansion (give a bundled name or a folder)")
    if not isinstance(name, str) or "/" in name or is_dir(name):
        check_folder(Path(name))
        return Path(name)
    folder = bundled_folder(name, kind)
    if folder is None:
        bundled = bundled_sets(kind)
        # Folder names are accepted too (they may differ from the header name): offered by
        # did-you-mean, not listed.
        raise UnknownName(kind, name, bundled,
                          extra=[f.name for f in bundled.values()])
    return folder


def check_folder(path: Path) -> None:
    """Raise FolderProblem unless `path` is a card file or a folder within the limits of
    `files_in`.  A path that does not exist (or cannot be looked at: a folder on the way the user
    may not enter, a name too long), or a folder with no card file, passes: reading it reports
    E009 (saying why) or E011, with the other diagnostics of the content."""
    info = lookup(path)[0]
    if info is None:
        return  # reading it reports E009, with the other diagnostics of the content
    if not stat.S_ISDIR(info.st_mode):
        if stat.S_ISREG(info.st_mode) and path.name.endswith(SUFFIX):
            return
        raise FolderProblem(f"{path} is neither a folder nor a card file ({SUFFIX})")
    files_in(path)  # past the limits: FolderProblem.  No card file at all is E011 when read.
