"""The files an editor works on: open buffers over the files on disk, the content set (game
folder plus expansions) each file is checked in, and the diagnostics of that set.

Checking is incremental: a file is parsed again only when its text changed (open buffers are
compared in memory, files on disk through the parse cache), and the checker then runs over the
merged definitions, which takes milliseconds for the bundled content.  Memory stays bounded:
one parse per file, one result per content set."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Iterator

import attrs

from .. import ast, parse_cache
from ..checker import check, vocabulary, Vocabulary
from ..diagnostics import Diagnostic, Span
from ..files import FileProblem, exists, is_dir, is_file, read_regular, unreachable
from ..loader import (BASE_GAME, MAX_FOLDER_BYTES, SUFFIX, FolderProblem, Merged, base_named, bundled_folder,
                      bundled_sets, files_in as folder_files, folder_order, header_name, layer_folder, merge)
from ..parser import decode, parse_file
from ..report import follow_on

# A file larger than this is not a card file: it is reported, not parsed. The limit is
# `check`'s (a whole folder's): the server reads whatever `check` reads (it refused files over
# 4 MB that `check` took; a file of some MB takes seconds to check).
MAX_FILE_BYTES = MAX_FOLDER_BYTES
# (a byte order mark, which the parser skips, may start the file: `decode` drops it from disk
# files; an editor's buffer may still hold it)
_HEADER = re.compile(r"\ufeff?\s*(game|expansion)\s+\S")
# How many folders above a card file's own a content folder is looked for: `rulesdsl check
# FOLDER` takes the card files of FOLDER's subfolders too, so a file in `GAME/extra/` is one of
# `GAME`'s (a bounded walk: a stray header high up must not sweep a whole disk into a set).
MAX_FOLDERS_UP = 4


@attrs.define
class Parsed:
    text: str
    tree: ast.SourceFile | None
    diagnostics: list[Diagnostic]


@attrs.define
class ContentSet:
    """One check of a content set: the folders, the merged definitions, what the checker found."""

    layers: tuple[Path, ...]
    merged: Merged
    trees: dict[str, ast.SourceFile]        # by file (as in spans)
    diagnostics: dict[str, list[Diagnostic]]  # by file, every file of the set (empty lists too)
    version: tuple                          # the texts it was made from, to know when it is stale
    _vocabulary: Vocabulary | None = None
    _content: object = None                 # compiled lazily for hover (None: not yet, False: failed)

    @property
    def vocabulary(self) -> Vocabulary:
        if self._vocabulary is None:
            self._vocabulary = vocabulary(self.merged)
        return self._vocabulary

    def content(self):
        """The compiled content, for `explain` texts; None when the set does not compile."""
        if self._content is None:
            self._content = False
            if not any(d.severity == "error" for ds in self.diagnostics.values() for d in ds):
                try:
                    from ..compiler import compile_content
                    self._content = compile_content(self.merged, [str(p) for p in self.layers])
                except Exception:  # a checker gap must not break hover; the text falls back
                    self._content = False
        return self._content or None


class Project:
    """Open buffers and the content sets they belong to.  Paths are absolute, as in spans."""

    def __init__(self, expansions: list[str] | tuple[str, ...] = (), game: str | None = None):
        self._expansions: list[str] = list(expansions)
        self._game: str | None = game
        self.open: dict[Path, str] = {}
        self._parsed: dict[Path, Parsed] = {}
        # The last tree of each file that parsed whole: names to complete while a file is broken.
        self.last_good: dict[Path, ast.SourceFile] = {}
        self._sets: dict[tuple[Path, ...], ContentSet] = {}
        # What is worked out from the folders (headers, which set a file is in, which game an
        # expansion is for), until a buffer, the disk (a save) or a setting changes.
        self._memo: dict = {}
        self._defined: dict[Path, frozenset] = {}   # what each open buffer's last tree defines
        self._unparsed: set[Path] = set()           # buffers changed since they were last parsed
        self._forgotten = 0                         # how many times `forget` ran
        # True while a check is due anyway (the server's pause after typing): hover and
        # completion then answer from the last parse and check rather than parse and check a
        # large file again on the spot (seconds for some hundred KB).
        self.stale_ok = False

    # -- settings ---------------------------------------------------------------------------------
    @property
    def expansions(self) -> list[str]:
        return self._expansions

    @expansions.setter
    def expansions(self, names) -> None:
        self._expansions = list(names)
        self.invalidate()

    @property
    def game(self) -> str | None:
        """The base game an expansion folder is checked on (a bundled game's name or a folder
        holding a `game`), as `rulesdsl check --game`; None: the game its changes fit, else the
        bundled base game."""
        return self._game

    @game.setter
    def game(self, name: str | None) -> None:
        self._game = name or None
        self.invalidate()

    def invalidate(self) -> None:
        """Forget what was worked out from the folders (a file was saved, a setting changed)."""
        self._memo.clear()

    def _memoized(self, key, make):
        if key not in self._memo:
            self._memo[key] = make()
        return self._memo[key]

    # -- buffers ------------------------------------------------------------------------------
    def update(self, path: Path, text: str) -> None:
        path = absolute(path)
        if path not in self.open and path not in self.last_good and path.suffix == SUFFIX:
            self.parse(path)  # the saved file: its names stand in while the buffer is broken
        old = self.open.get(path)
        # (what is worked out from the folders stays while an edit cannot change it: a buffer
        # opened, or an edit to its header, an `order` or a `base` line regroups here; one to
        # what it defines, once it is parsed)
        if old is None or (old != text and grouping(old) != grouping(text)):
            self.forget(path)
        if old != text and path.suffix == SUFFIX:
            self._unparsed.add(path)
        self.open[path] = text

    def close(self, path: Path) -> None:
        self.open.pop(absolute(path), None)
        self.last_good.pop(absolute(path), None)
        self._defined.pop(absolute(path), None)
        self._unparsed.discard(absolute(path))
        self.forget(path)

    def forget(self, path: Path) -> None:
        """Forget what a change to `path` (its buffer, or the file on disk) may change: its
        folders' headers, definitions and order, and which set each file is in."""
        self._forgotten += 1
        folders = set(absolute(path).parents[:MAX_FOLDERS_UP + 1])
        for key in list(self._memo):
            if key[0] in ("folder", "layers", "game of") or key[1] in folders:
                del self._memo[key]

    def listing(self, folder: Path) -> list[Path]:
        """The card files on disk of a folder and its subfolders (the loader's `files_in`),
        kept until a change forgets them or a folder they were found in changes on disk (a
        file made or deleted outside the editor).  Raises FolderProblem past the limits."""
        folder = absolute(folder)
        key = ("listing", folder)
        kept = self._memo.get(key)
        if kept is not None and _stamps(kept[0]) == kept[1]:
            found = kept[2]
        else:
            try:
                found = [absolute(p) for p in folder_files(folder)]
            except FolderProblem as exc:
                found = exc
            dirs = tuple(sorted({folder} | {p.parent for p in found} if isinstance(found, list) else {folder}))
            self._memo[key] = (dirs, _stamps(dirs), found)
        if isinstance(found, FolderProblem):
            raise found
        return list(found)

    def name_trees(self, path: Path) -> list[ast.SourceFile]:
        """The trees of `path`'s content set, a broken file standing in by its last good tree:
        the names to offer while typing."""
        found = self.check(path)
        files = [Path(f) for f in found.diagnostics] if found else [absolute(path)]
        trees = []
        for f in files:
            parsed = self._parsed.get(f)
            tree = parsed.tree if parsed is not None and not parsed.diagnostics else self.last_good.get(f)
            if tree is None and parsed is not None:
                tree = parsed.tree
            if tree is not None:
                trees.append(tree)
        return trees

    def text(self, path: Path) -> str | None:
        path = absolute(path)
        if path in self.open:
            return self.open[path]
        parsed = self.parse(path)
        return parsed.text if parsed else None

    def parse(self, path: Path) -> Parsed | None:
        """The parse of a file's current text (buffer or disk); None when it cannot be read."""
        path = absolute(path)
        shown = str(path)
        if path in self.open:
            text = self.open[path]
            old = self._parsed.get(path)
            if old is not None and (old.text == text or self.stale_ok):
                if old.text == text:
                    self._unparsed.discard(path)
                return old
            tree, diags = _parse(shown, text)
            self._parsed[path] = Parsed(text, tree, diags)
            self._unparsed.discard(path)
            if tree is not None:
                # What it defines and changes (which game an expansion is for, whether a
                # setting's expansion fits it): a change regroups.  A text that does not parse
                # changes nothing yet: its folder's definitions are its last tree's.
                defined = _defined(tree)
                if self._defined.setdefault(path, defined) != defined:
                    self._defined[path] = defined
                    self.forget(path)
                if not diags:
                    self.last_good[path] = tree
            return self._parsed[path]
        try:
            data = read_regular(path, MAX_FILE_BYTES)
        except FileProblem as exc:
            self._parsed.pop(path, None)
            return Parsed("", None, [Diagnostic("error", "E009", str(exc), Span.point(shown, 1, 1))]) \
                if exists(path) or os.path.islink(path) else None
        text, problem = decode(shown, data)
        if problem is not None:
            # (the text as far as it reads, for the positions: E005 names the line of the bad byte)
            return Parsed(data.decode("utf-8", errors="replace"), None, [problem])
        old = self._parsed.get(path)
        if old is not None and old.text == text:
            return old
        tree = parse_cache.load(path, shown, data, text)
        diags: list[Diagnostic] = []
        if tree is None:
            tree, diags = _parse(shown, text)
            if tree is not None and not diags:
                parse_cache.store(path, data, tree)
        if tree is not None and not diags:
            self.last_good[path] = tree
        self._parsed[path] = Parsed(text, tree, diags)
        return self._parsed[path]

    # -- content sets -------------------------------------------------------------------------
    def content_folder(self, path: Path) -> tuple[Path, str] | None:
        """The content folder a card file belongs to and its kind (`game` or `expansion`): the
        nearest folder, its own or one up to MAX_FOLDERS_UP above it, whose own files hold a
        `game` or `expansion` header, as `rulesdsl check FOLDER` takes the files of FOLDER's
        subfolders too; None outside any (or past the limits of a content folder)."""
        path = absolute(path)

        def find():
            folder = path.parent
            for _ in range(MAX_FOLDERS_UP + 1):
                if not is_dir(folder):
                    return None
                kind = self._header_kind(folder)
                if kind is not None:
                    try:
                        self.listing(folder)   # (past the limits: no content folder)
                    except FolderProblem:
                        return None
                    return folder, kind
                if folder.parent == folder:
                    return None
                folder = folder.parent
            return None
        return self._memoized(("folder", path), find)

    def layers_for(self, path: Path) -> tuple[Path, ...] | None:
        """The folders a file is checked with: its game folder (or a base game under an
        expansion folder: the `game` setting, else the bundled game its changes fit, else the
        bundled base game) and the expansions of the setting that fit that game, in the order
        they apply; None outside any content folder."""
        path = absolute(path)
        if path.suffix != SUFFIX:  # a scenario, or any other file in the card syntax: parsed only
            return None
        for changed in list(self._unparsed):   # (what an edited buffer defines may regroup)
            self.parse(changed)
        found = self.content_folder(path)
        if found is None:
            return None
        return self._memoized(("layers", found), lambda: self._layers(*found))

    def _layers(self, folder: Path, kind: str) -> tuple[Path, ...] | None:
        if kind == "game":
            base = folder
        else:
            base = self.base_game(folder)
            if base is None:
                return None
        extras: list[Path] = []
        for name in self.expansions:
            try:
                extra = absolute(layer_folder(name, "expansion"))
            except ValueError:  # an unknown name in the setting: the server told the user
                continue
            if extra != base and extra not in extras and is_dir(extra) and self.fits(extra, base):
                extras.append(extra)
        if kind == "expansion" and folder != base and folder not in extras:
            extras.append(folder)
        # (the order they apply in, as the loader sorts them: the same set whichever file asks)
        extras.sort(key=lambda f: self._memoized(("order", f), lambda: folder_order(f)))
        return (base, *extras)

    def base_game(self, folder: Path) -> Path | None:
        """The base game an expansion folder is checked on: the `game` setting, else the bundled
        game its `base` names, else the one its changes fit, else the bundled base game."""
        if self.game is not None:
            try:
                return absolute(layer_folder(self.game, "game"))
            except ValueError:  # an unknown name in the setting: the server told the user
                pass
        named = bundled_sets("game").get(self.base_named(folder) or "")
        if named is not None:   # (an expansion of new cards only changes nothing to infer from)
            return absolute(named)
        inferred = self.game_of(folder)
        if inferred is not None:
            return inferred
        base = bundled_folder(BASE_GAME)
        return absolute(base) if base is not None else None

    def game_of(self, expansion: Path) -> Path | None:
        """The one bundled game that defines everything the expansion folder changes (its
        `replace`, `extend` and `remove` targets); None when it changes nothing, or when no
        game or more than one does."""
        def find():
            _, targets = self._definitions(expansion)
            if not targets:
                return None
            fitting = [absolute(f) for f in bundled_sets("game").values() if targets <= self._definitions(absolute(f))[0]]
            return fitting[0] if len(fitting) == 1 else None
        return self._memoized(("game of", absolute(expansion)), find)

    def fits(self, expansion: Path, base: Path) -> bool:
        """Whether an expansion of the setting is checked on top of `base`: where its `base`
        names a game, when that is `base`'s; else unless it is plainly another game's (what it
        changes is all defined by one bundled game, and not all by `base`): a bundled
        expansion of one bundled game is not laid on another."""
        named = self.base_named(expansion)
        if named is not None:
            return named == header_name(base)
        home = self.game_of(expansion)
        if home is None or home == absolute(base):
            return True
        return self._definitions(expansion)[1] <= self._definitions(absolute(base))[0]

    def base_named(self, expansion: Path) -> str | None:
        """The game an expansion folder's `base` names (None: it names none)."""
        def find():
            named = base_named(self._trees(expansion))
            return named[1].name if named is not None else None
        return self._memoized(("base", absolute(expansion)), find)

    def _definitions(self, folder: Path) -> tuple[frozenset, frozenset]:
        """(what a folder's files define, what they change), as (kind, name) pairs."""
        def find():
            defined, changed = set(), set()
            for tree in self._trees(folder):
                for d in tree.definitions:
                    (defined if d.modifier is None else changed).add((d.kind, d.name))
            return frozenset(defined), frozenset(changed)
        return self._memoized(("definitions", absolute(folder)), find)

    def _trees(self, folder: Path) -> list[ast.SourceFile]:
        """The parse trees of a folder's files (a buffer being typed in: its last good tree)."""
        trees = []
        for f in self.files_in(folder):
            parsed = self.parse(f)
            tree = parsed.tree if parsed is not None else None
            if tree is None and f in self.open:
                tree = self.last_good.get(f)
            if tree is not None:
                trees.append(tree)
        return trees

    def unknown_expansions(self) -> list[str]:
        """The setting's names that are no bundled expansion and no folder, each with why."""
        problems = []
        for name in self.expansions:
            try:
                folder = layer_folder(name, "expansion")
                if not is_dir(folder):
                    why = unreachable(folder)
                    problems.append(f"no such folder: {name}" + (f" ({why})" if why else ""))
            except ValueError as exc:
                problems.append(str(exc))
        return problems

    def unknown_game(self) -> str | None:
        """Why the `game` setting names no game (None when it does, or is not given)."""
        if self.game is None:
            return None
        try:
            folder = layer_folder(self.game, "game")
        except ValueError as exc:
            return str(exc)
        if not is_dir(folder):
            why = unreachable(folder)
            return f"no such folder: {self.game}" + (f" ({why})" if why else "")
        if self._header_kind(absolute(folder)) != "game":
            return f"{self.game}: the folder defines no `game` (an expansion? use expansions)"
        return None

    def _header_kind(self, folder: Path) -> str | None:
        """`game` or `expansion`: what the folder's own files (not its subfolders', as the
        loader's header scan) declare; None for a folder that is no content folder."""
        return self._memoized(("kind", absolute(folder)), lambda: self._scan_header(folder))

    def _scan_header(self, folder: Path) -> str | None:
        if not is_dir(folder):
            return None
        files = {absolute(p) for p in folder.glob(f"*{SUFFIX}") if is_file(p)}
        files |= {p for p in self.open if p.parent == folder and p.suffix == SUFFIX}
        for f in sorted(files):
            text = self.open.get(f)
            if text is None:
                try:
                    text = read_regular(f, MAX_FILE_BYTES).decode("utf-8", errors="replace")
                except FileProblem:
                    continue
            for line in text.split("\n"):
                m = _HEADER.match(line)
                if m:
                    return m.group(1)
        return None

    def files_in(self, folder: Path) -> list[Path]:
        """The card files of a folder and its subfolders, as `rulesdsl check FOLDER` reads them
        (the loader's `files_in`), open buffers not yet saved included."""
        if not is_dir(folder):
            return []
        try:
            found = set(self.listing(folder))
        except FolderProblem:
            found = set()
        found |= {p for p in self.open if p.suffix == SUFFIX and _inside(p, folder)}
        return sorted(found)

    def check(self, path: Path) -> ContentSet | None:
        """Check the content set `path` belongs to (None: no set; see `syntax_only`)."""
        layers = self.layers_for(path)
        if layers is None:
            return None
        if self.stale_ok and layers in self._sets:
            return self._sets[layers]
        files = [(folder, self.files_in(folder)) for folder in layers]
        forgotten = self._forgotten
        parsed = {f: self.parse(f) for _, fs in files for f in fs}
        if self._forgotten != forgotten and self.layers_for(path) != layers:
            return self.check(path)   # (a file's definitions changed its set; parses are kept)
        version = tuple((f, p.text if p else None) for f, p in parsed.items())
        old = self._sets.get(layers)
        if old is not None and old.version == version:
            return old
        merged = Merged()
        trees: dict[str, ast.SourceFile] = {}
        by_layer: list[list[ast.SourceFile]] = []
        for _, fs in files:
            layer = []
            for f in fs:
                p = parsed[f]
                if p is None:
                    continue
                merged.files += 1
                merged.read.append(str(f))
                merged.sources[str(f)] = _without_bom(p.text)
                merged.diagnostics.extend(p.diagnostics)
                if p.tree is not None:
                    trees[str(f)] = p.tree
                    layer.append(p.tree)
            by_layer.append(layer)
        merge(by_layer, merged)
        diagnostics = list(merged.diagnostics)
        try:
            checked = check(merged)
            # (what a file that does not parse explains is left out, as `rulesdsl check` does:
            # a stray character in the game's header marked every card file)
            left_out = {id(d) for d in follow_on(checked, merged)}
            diagnostics += [d for d in checked if id(d) not in left_out]
        except Exception as exc:  # a checker bug on half-typed text: report it, keep serving
            first = next(iter(trees), str(path))
            diagnostics.append(Diagnostic("warning", "E001", f"the checker stopped: {type(exc).__name__}",
                                          Span.point(first, 1, 1), "please report this file"))
        by_file: dict[str, list[Diagnostic]] = {str(f): [] for f in parsed}
        for d in diagnostics:
            by_file.setdefault(d.span.file, []).append(d)
        result = ContentSet(layers, merged, trees, by_file, version)
        self._sets[layers] = result
        return result

    def syntax_only(self, path: Path) -> list[Diagnostic]:
        parsed = self.parse(path)
        return parsed.diagnostics if parsed else []

    def diagnostics(self, path: Path) -> dict[str, list[Diagnostic]]:
        """Every file's diagnostics after a change to `path`: its content set's, for the files
        whose own set it is (a file of the base game under an expansion folder's set is
        reported by the base game's set: one answer per file, whichever file was typed in
        last), or the file's own syntax errors when it belongs to no set."""
        found = self.check(path)
        if found is None:
            return {str(absolute(path)): self.syntax_only(path)}
        own = {f: list(ds) for f, ds in found.diagnostics.items() if self.layers_for(Path(f)) == found.layers}
        for d in self.caused_below(found, own):
            anchor = _anchor(found, own, d)
            if anchor is not None:
                own.setdefault(anchor.file, []).append(attrs.evolve(
                    d, span=anchor, message=f"{d.message} (at {_shown_path(d.span.file)}:{d.span.line}, in a file this "
                                            "set lays its definitions on)"))
        return own

    def caused_below(self, found: ContentSet, own: dict[str, list[Diagnostic]]) -> list[Diagnostic]:
        """The diagnostics of a set in files it does not own (the base game's, under an
        expansion) that their own set does not report: what this set's files cause there.  (They
        were dropped: an expansion's `remove` that left an age short was an E401 at the base
        game's age, which the editor never showed, while `rulesdsl check` failed.)"""
        out = []
        for f, ds in found.diagnostics.items():
            if f in own or not ds:
                continue
            theirs = self.check(Path(f))
            known = {(d.code, d.span, d.message) for d in theirs.diagnostics.get(f, [])} if theirs else set()
            out += [d for d in ds if (d.code, d.span, d.message) not in known]
        return out

    def sets(self) -> Iterator[ContentSet]:
        yield from self._sets.values()

    def discover(self, root: Path, depth: int = 3) -> None:
        """Check the content folders whose card files lie at most `depth` levels under `root`
        (`root` itself and folders up to `depth - 1` below it; for workspace symbols before any
        file is opened); a bounded scan, so a huge folder cannot stall the server."""
        seen: set[Path] = set()
        for level in range(1, depth + 1):
            for f in sorted(root.glob("/".join(["*"] * level) + SUFFIX))[:500]:
                if f.parent not in seen and is_file(f):
                    seen.add(f.parent)
                    if self.layers_for(f) is not None:
                        self.check(f)


def _anchor(found: ContentSet, own: dict[str, list[Diagnostic]], d: Diagnostic) -> Span | None:
    """Where a diagnostic this set causes in a file it does not own is shown: at the change its
    files make that it names (E401's help names the `remove` that left a deck short), or the one
    change they make, else at their first definition (the expansion's header)."""
    changes = [c for c in found.merged.changes if c.name_span.file in own]
    said = f"{d.message} {d.help or ''}"
    named = [c for c in changes if f"{Path(c.name_span.file).name}:{c.name_span.line}" in said]
    if named or len(changes) == 1:
        return (named or changes)[0].name_span
    heads = [h.name_span for f, t in found.trees.items() if f in own for h in t.definitions
             if h.kind in ("expansion", "game")]
    firsts = heads or [t.definitions[0].name_span for f, t in found.trees.items() if f in own and t.definitions]
    return min(firsts, key=lambda sp: (sp.file, sp.line), default=None)


def _shown_path(file: str) -> str:
    """A file as a message names it: relative to the working folder where it lies under it."""
    try:
        return os.path.relpath(file) if not os.path.relpath(file).startswith("..") else file
    except ValueError:
        return file


def grouping(text: str) -> tuple:
    """What of a file's text the header scans read, the grouping of files into content sets
    and the order of expansions: its first header line's kind and its `order` and `base` lines.  (What it
    defines is compared when it is parsed: see `Project.parse`.)"""
    kind = None
    for line in text.split("\n"):
        m = _HEADER.match(line)
        if m:
            kind = m.group(1)
            break
    # (`base` too: the game an expansion names is the game its files are checked on)
    order = tuple(words for words in (line.split("#")[0].split() for line in text.split("\n")
                                      if "order" in line or "base" in line)
                  if len(words) == 2 and words[0] in ("order", "base"))
    return kind, order


def _defined(tree: ast.SourceFile) -> frozenset:
    """What a tree defines and changes: (modifier, kind, name) of each definition."""
    return frozenset((d.modifier, d.kind, d.name) for d in tree.definitions)


def _stamps(folders) -> tuple:
    """When each folder last changed (a file made, deleted or renamed in it); None: unreadable."""
    out = []
    for f in folders:
        try:
            out.append(os.stat(f).st_mtime_ns)
        except OSError:
            out.append(None)
    return tuple(out)


def _without_bom(text: str) -> str:
    """A byte order mark starting a buffer is no part of the text, as `decode` drops it from a
    file read from disk: a space in its place keeps every position the editor's."""
    return " " + text[1:] if text.startswith("\ufeff") else text


def _parse(shown: str, text: str):
    text = _without_bom(text)
    try:
        return parse_file(shown, text)
    except RecursionError:  # parse_file reports deep nesting itself; this is the last guard
        return None, [Diagnostic("error", "E007", "nested too deeply", Span.point(shown, 1, 1))]


def absolute(path: Path) -> Path:
    """A path as the server keys files and spans: absolute, links not resolved."""
    return Path(path).absolute()


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.relative_to(absolute(folder))
        return True
    except ValueError:
        return False
