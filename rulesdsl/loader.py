"""Finding card files and merging a base game with its expansions into one set of definitions.

A game or expansion is a folder of `.rules` files.  Definitions are keyed by (kind, name); an
expansion may `replace`, `extend` or `remove` what an earlier folder defined.
"""

from __future__ import annotations

import functools
import os
import re
import stat
from importlib.resources import files
from pathlib import Path
from typing import Iterable

import attrs

from . import ast, parse_cache
from .diagnostics import Diagnostic
from .files import exists, is_dir, is_file, lookup, resolved
from .names import UnknownName, quoted
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
    found = _header_word(folder, "order")
    return int(found) if found is not None and found.isdigit() else 0


def folder_base(folder: Path) -> str | None:
    """The game a folder's expansion header names with `base NAME` (a text scan; None when
    absent)."""
    return _header_word(folder, "base")


_STATEMENT_BREAKS = re.compile(r"[{};]")


def _header_word(folder: Path, verb: str) -> str | None:
    """The word after the first `VERB WORD` line of a folder's card files (a text scan, no
    parsing: asked before anything is loaded).  Only regular files are read: a FIFO named like a
    card file would block the scan (the loader reports what it is)."""
    for f in sorted(folder.glob(f"*{SUFFIX}")) if is_dir(folder) else [folder]:
        if not is_file(f):
            continue
        try:
            found = _text_word(f.read_text(encoding="utf-8-sig", errors="replace"), verb)
        except OSError:
            continue
        if found is not None:
            return found
    return None


def _text_word(text: str, verb: str) -> str | None:
    """The word after the first `VERB WORD` statement of a card file's text (a text scan)."""
    for line in text.splitlines():
        # (statements, however laid out: `expansion x { base classic }` on one line, or
        # `title "X"; base classic`, say it as well as a line of its own)
        for statement in _STATEMENT_BREAKS.split(line.split("#")[0]):
            words = statement.split()
            if len(words) == 2 and words[0] == verb:
                return words[1]
    return None


def default_game(expansions: Iterable["str | Path | Inline"]) -> str:
    """The base game where none is given: the bundled game that the first expansion naming one
    in its `base` names (`rulesdsl simulate -e ./harbours`, made for the classic game, plays
    on it), else the bundled base game.  A `base` that names no bundled game leaves the
    bundled base game, where loading says so (E107)."""
    for name in expansions:
        if isinstance(name, Inline):   # (`check -`: the card file on stdin names its game as a file does)
            named = _text_word(name.data.decode("utf-8-sig", errors="replace"), "base")
            if named is not None:
                return named if named in bundled_sets("game") else BASE_GAME
            continue
        given_as_path = isinstance(name, Path) or "/" in name or is_dir(name)
        path = Path(name) if given_as_path else bundled_folder(name, "expansion")
        named = folder_base(path) if path is not None and exists(path) else None
        if named is not None:
            return named if named in bundled_sets("game") else BASE_GAME
    return BASE_GAME


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
    """(kind, name) of a folder's `expansion NAME` or `game NAME` line (a text scan, no parsing;
    a byte order mark starting a file is skipped, as `parser.decode` skips it; only regular
    files are read: the language server asks it of a user's game folder, where a FIFO would
    block)."""
    for f in sorted(folder.glob(f"*{SUFFIX}")):
        if not is_file(f):
            continue
        try:
            for line in f.read_text(encoding="utf-8-sig", errors="replace").splitlines():
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
    # The files of bundled folders (as shown), and the `replace`/`extend`/`remove` applied, in
    # order: what the report names where a bundled file, clean alone, gets a diagnostic.
    bundled: set[str] = attrs.Factory(set)
    changes: list[ast.Definition] = attrs.Factory(list)
    # (kind, name) -> the definition a `replace` replaced: what a statement the replacement
    # lacks was (E104's help: `replace` gives the whole definition anew).
    replaced: dict[tuple[str, str], ast.Definition] = attrs.Factory(dict)
    # A second definition of a name (E102), left out of the content: the checker still reads
    # its statements, so that one run of `check` names every mistake in it.
    duplicates: list[ast.Definition] = attrs.Factory(list)

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
    game = _game_name(layers[0]) if layers else None
    layers = [layer for li, layer in enumerate(layers)
              if not li or not _a_game_as_expansion(layer, game, merged) and not _made_for_another(layer, game, merged)]
    index: dict[tuple[str, str], int] = {}
    slots: list[ast.Definition | None] = []
    for li, layer in enumerate(layers):
        for source in layer:
            for d in source.definitions:
                key = (d.kind, d.name)
                if d.modifier is None:
                    if key in index and slots[index[key]] is not None:
                        first = slots[index[key]]
                        stray = _stray(d, source)
                        if stray is not False:
                            merged.diagnostics.extend([stray] if stray else [])
                            continue
                        before = closed_before(d, source.definitions)
                        merged.diagnostics.append(Diagnostic(
                            "error", "E102", f"{d.kind} `{d.name}` is defined twice", d.name_span,
                            f"it has no body: if it is a statement of {before.kind} \"{before.name}\" above, move "
                            f"it up, before the closing brace at line {before.span.end_line}"
                            if d.block is None and before is not None and d.kind in _verbs() else
                            f"the first definition is at {first.name_span.file}:{first.name_span.line}; "
                            f"use `replace {d.kind} \"{d.name}\"` to change it"))
                        if d.block is not None:
                            merged.duplicates.append(d)
                        continue
                    index[key] = len(slots)
                    slots.append(d)
                    continue
                if key not in index or slots[index[key]] is None:
                    from .diagnostics import did_you_mean
                    known = [n for (k, n), i in index.items() if k == d.kind and slots[i] is not None]
                    # (the name of a definition of another kind: `replace wonder "Tavern"`, a card)
                    other = next((k for (k, n), i in index.items() if n == d.name and slots[i] is not None), None)
                    merged.diagnostics.append(Diagnostic(
                        "error", "E105", f"cannot {d.modifier} {d.kind} `{d.name}`: it is not defined",
                        d.name_span, _defined_later(d, layer, layers[li + 1:])
                        or bundled_hint(d.kind, d.name, layers)
                        or (f'`{d.name}` is {"an" if other[0] in "aeiou" else "a"} {other}: '
                            f'{d.modifier} {other} "{d.name}"' if other else None)
                        or did_you_mean(d.name, known)))
                    continue
                i = index[key]
                merged.changes.append(d)
                if d.modifier == "remove":
                    if d.block is not None and d.block.statements:   # (read as nothing: `replace` meant?)
                        merged.diagnostics.append(Diagnostic(
                            "error", "E205", "`remove` takes no body: the statements of this one are not read",
                            d.block.span, f"to change {d.kind} `{d.name}`, `replace` it (the whole definition) or "
                                          f"`extend` it (statements added); to remove it, leave out the `{{ ... }}`"))
                    merged.removed.append((d, slots[i]))
                    slots[i] = None
                elif d.modifier == "replace":
                    merged.replaced.setdefault(key, slots[i])
                    slots[i] = attrs.evolve(d, modifier=None)
                elif d.modifier == "extend":
                    old = slots[i]
                    extra = d.block.statements if d.block else ()
                    block = ast.Block(old.block.statements + extra, old.block.span) if old.block else d.block
                    slots[i] = attrs.evolve(old, block=block)
    merged.definitions = [d for d in slots if d is not None]
    return merged


def base_named(layer: list[ast.SourceFile]) -> tuple[ast.Definition, ast.Name] | None:
    """An expansion layer's header and the game its `base` names (None: it names none)."""
    for source in layer:
        for d in source.definitions:
            for s in d.block.statements if d.kind == "expansion" and d.block else ():
                if s.verb == "base" and len(s.args) == 1 and isinstance(s.args[0], ast.Name):
                    return d, s.args[0]
    return None


def _game_name(layer: list[ast.SourceFile]) -> str | None:
    """The name of the `game` a base layer defines (None: it defines none)."""
    for source in layer:
        for d in source.definitions:
            if d.kind == "game" and d.modifier is None and d.name:
                return d.name
    return None


def _made_for_another(layer: list[ast.SourceFile], game: str | None, merged: Merged) -> bool:
    """Whether an expansion's `base` names another game than the one it is laid on (E107, said
    once at that line): such a layer is left out, since each of its changes to a game it was
    not made for would be an error of its own (one of the bundled expansions on the other
    bundled game made 48)."""
    named = base_named(layer) if game is not None else None
    if named is None or named[1].name == game:
        return False
    expansion, made_for = named[0], named[1].name
    bundled = bundled_sets("game")
    hint = (f"play it on {made_for} (`--game {made_for}`), or leave it out" if made_for in bundled else
            f"play it on the game `{made_for}` its `base` names, or correct `base`")
    if game not in bundled:   # (a copy of that game, changed: it keeps the game's name)
        hint += f"; a changed copy of {made_for} takes it if it keeps `game {made_for}`"
    merged.diagnostics.append(Diagnostic("error", "E107", f"expansion `{expansion.name}` is made for `{made_for}`, "
                                         f"not for `{game}`", named[1].span, hint))
    return True


def _a_game_as_expansion(layer: list[ast.SourceFile], game: str | None, merged: Merged) -> bool:
    """Whether a layer laid on the base game defines a game of its own (`-e cards/classic`): such
    a layer is left out, with one E403 at its `game` line, since every zone and card it declares
    again would be an error of its own (the classic game on Duel made 114)."""
    own = next((d for source in layer for d in source.definitions if d.kind == "game" and d.modifier is None), None)
    if own is None or game is None:
        return False
    folder: str | Path = Path(own.name_span.file).parent
    bundled = bundled_sets("game").get(own.name)
    if bundled is not None and folder.name == bundled.name:   # (a bundled game: by its name)
        folder = own.name
    merged.diagnostics.append(Diagnostic(
        "error", "E403", f"a second `game` definition (`{own.name}`): a game, laid on `{game}` as an expansion",
        own.name_span, f"play it as the base game (`--game {folder}`), or make it an expansion of {game} "
                       f"(`expansion NAME {{ base {game} }}`)"))
    return True


# -- hints: where a definition that is not in force is ---------------------------------------------

def _verbs() -> dict:
    from . import registry as R
    return R.VERBS


def _stray(d: ast.Definition, source: ast.SourceFile) -> Diagnostic | None | bool:
    """A second `cost 2 wood` outside any definition reads as a second definition of kind `cost`,
    and `wood` as one more (the checker reports the first such line: E101).  The first word is
    said to be what it is, not "defined twice"; the others of its line are not reported (None).
    False for a definition that is no such thing."""
    from . import registry as R
    if d.kind in R.KINDS:
        return False
    if d.kind in R.VERBS and d.modifier is None:
        return Diagnostic("error", "E101", f"`{d.kind}` stands outside any definition", d.kind_span,
                          stray_hint(closed_before(d, source.definitions)))
    line = (d.kind_span.file, d.kind_span.line)
    if any(x.kind in R.VERBS and x.kind not in R.KINDS and (x.kind_span.file, x.kind_span.line) == line
           and x.kind_span.column < d.kind_span.column for x in source.definitions):
        return None
    return False


def stray_hint(before: ast.Definition | None) -> str:
    """The hint for a statement outside any definition (E101), `before`: the definition that
    closed last before it, if any.  (No more than 40 characters between two backticks or two
    quotes: a longer run is elided as a long name.)"""
    if before is None:
        return "a statement belongs inside the `{ ... }` of a definition"
    return (f"{before.kind} \"{before.name}\" above closed at line {before.span.end_line}; a statement belongs "
            f"inside a definition: move the line up, before that `}}`")


def closed_before(d: ast.Definition, definitions) -> ast.Definition | None:
    """The definition (with a body) of `d`'s file that ends last before `d` begins."""
    start = (d.span.line, d.span.column)
    found = None
    for other in definitions:
        end = (other.span.end_line, other.span.end_column)
        if other is not d and other.span.file == d.span.file and end <= start and other.block is not None \
                and (found is None or end > (found.span.end_line, found.span.end_column)):
            found = other
    return found


def _defined_later(d: ast.Definition, layer: list[ast.SourceFile],
                   later: list[list[ast.SourceFile]]) -> str | None:
    """Where a layer applied after `layer` defines what `d` (a replace/extend/remove) changes: the
    layers apply in their `order`, so the definition is not there yet when `d` is applied."""
    for other in later:
        found = next((x for source in other for x in source.definitions
                      if x.modifier is None and (x.kind, x.name) == (d.kind, d.name)), None)
        if found is None:
            continue
        mine, theirs = layer_order(layer), layer_order(other)
        header = next((x for source in layer for x in source.definitions if x.kind == "expansion"), None)
        # (one pair of backticks, one of quotes: a long run between two is elided as a long name)
        folder = Path(d.name_span.file).parent.name
        folder = folder if folder.isidentifier() and len(folder) <= 16 else "NAME"
        fix = (f"`order {theirs + 1}` in its expansion header" if header is not None
               else f"add a header, `expansion {folder} {{ order {theirs + 1} }}`")
        when = "at the same order" if mine == theirs else "after this one"
        return (f"{d.kind} \"{d.name}\" is defined at {found.name_span.file}:{found.name_span.line}, by a layer "
                f"applied {when} (order {theirs}; this folder: {mine}); to change it, give this folder a "
                f"higher order: {fix}")
    return None


def bundled_hint(what: str, name: str, layers: list[list[ast.SourceFile]] | None = None,
                 merged: "Merged | None" = None, loosely: bool = False) -> str | None:
    """"`NAME` is a zone of the bundled expansion EXP: add -e EXP" when a bundled
    expansion of the game in force, one not loaded, declares or defines `name` (and nothing
    loaded does: the caller asks only about a name it did not find).  `what`: a declaration of
    a game or expansion header (`zone`, `colors`, `resources`, `science`, `chains`, `counter`,
    `table`, `item_kinds`), a kind of definition (`god`, `layout`, `procedure`), or `item` (an
    item of any kind, by name).  From `layers` (the loader) or `merged` (the checker).
    `loosely`: `name` as `explain` matches one, in any case, its runs of spaces as one."""
    if merged is not None:
        definitions = list(merged.definitions)
    else:
        definitions = [d for layer in layers or () for source in layer for d in source.definitions]
    game = next((d.name for d in definitions if d.kind == "game"), None)
    loaded = {d.name for d in definitions if d.kind == "expansion"}
    if game is None:
        return None
    for expansion, found in _bundled_expansions(game):
        if expansion in loaded:
            continue
        label = found.get((what, name))
        if label is None and loosely:
            label = next((said for (w, n), said in found.items() if w == what and _loose(n) == _loose(name)), None)
        if label is not None:
            return f"{label} the bundled expansion {expansion}: add -e {expansion}"
    return None


def _loose(name: str) -> str:
    """A name as `explain` matches it: case folded, each run of spaces one space."""
    return " ".join(name.split()).casefold()


@functools.lru_cache(maxsize=None)
def _bundled_expansions(game: str) -> tuple[tuple[str, dict[tuple[str, str], str]], ...]:
    """The bundled expansions of the bundled game `game` (those whose `base` names it; one that
    names none, by its folder's name, `GAME-...`), each with what it declares and defines:
    (what, name) -> how a hint names it."""
    from . import registry as R
    folder = bundled_sets("game").get(game)
    if folder is None:
        return ()
    out = []
    for expansion, path in bundled_sets("expansion").items():
        parsed = read_folder(path).parsed
        named = base_named(parsed)
        made_for_it = named[1].name == game if named is not None else path.name.startswith(folder.name + "-")
        if not made_for_it:
            continue
        found: dict[tuple[str, str], str] = {}
        for source in parsed:
            for d in source.definitions:
                if d.modifier is not None:
                    continue
                if d.kind in ("game", "expansion"):
                    for s in d.block.statements if d.block else ():
                        label = {"zone": "zone", "colors": "colour", "resources": "resource", "science":
                                 "scientific symbol", "chains": "chain symbol", "counter": "counter",
                                 "table": "table", "item_kinds": "kind"}.get(s.verb)
                        words = s.args[:1] if s.verb in ("zone", "counter", "table") else s.args
                        for w in words if label else ():
                            if isinstance(w, ast.Name):
                                found[(s.verb, w.name)] = f"`{w.name}` is a {label} of"
                    continue
                found[(d.kind, d.name)] = f"{d.kind} `{d.name}` is defined by"
                if d.kind not in R.KINDS or d.kind in R.ITEM_KINDS:
                    found[("item", d.name)] = f"\"{d.name}\" is {'an' if d.kind[0] in 'aeiou' else 'a'} {d.kind} of"
        out.append((expansion, found))
    return tuple(out)


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
        if got.bundled:
            merged.bundled.update(got.read)
        layers.append(got.parsed)
    return merge(layers, merged)


@attrs.define
class FolderRead:
    parsed: list[ast.SourceFile]
    sources: dict[str, str]
    diagnostics: list[Diagnostic]
    files: int
    read: list[str]
    bundled: bool = False   # (a folder of the package's own cards)


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
    return FolderRead(parsed, scratch.sources, scratch.diagnostics, scratch.files, scratch.read, root is not None)


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
    if folder is None and os.path.lexists(name):
        # (no bundled name, but something of that name is here, a file, a FIFO, a loop of links:
        # said as what it is, as for `./NAME`, not as an unknown expansion)
        check_folder(Path(name))
        return Path(name)
    if folder is None:
        bundled = bundled_sets(kind)
        # Folder names are accepted too (they may differ from the header name): offered by
        # did-you-mean, not listed.
        listed = None
        if kind == "expansion" and bundled:
            # (which game each is made for: `--game classic -e NAME` would take none of them)
            listed = "expansions: " + "; ".join(f"{', '.join(names)} (for {game})" if game else ", ".join(names)
                                                for game, names in _grouped_by_game(bundled).items())
        # (a folder meant, but mistyped or not here: `-e mine` from the wrong directory)
        raise UnknownName(kind, name, bundled, extra=[f.name for f in bundled.values()], listed=listed,
                          note=f"nor is there a folder {quoted(name)} here")
    return folder


def bundled_expansions_for(game: str) -> list[str]:
    """The names of the bundled expansions made for the game named `game` (whose `base` names
    it; one that names none, by its folder's name), as the hints find them."""
    return [expansion for expansion, _ in _bundled_expansions(game)]


def _grouped_by_game(expansions: dict[str, Path]) -> dict[str | None, list[str]]:
    """The bundled expansions by the bundled game each is made for (None: no bundled game)."""
    out: dict[str | None, list[str]] = {}
    made_for = {e: g for g in bundled_sets("game") for e in bundled_expansions_for(g)}
    for name in expansions:
        out.setdefault(made_for.get(name), []).append(name)
    return {game: sorted(names) for game, names in sorted(out.items(), key=lambda kv: (kv[0] is not None, kv[0] or ""))}


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
