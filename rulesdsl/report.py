"""`rulesdsl check` as a function: load paths, collect every diagnostic, summarise."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Sequence

import attrs

from . import registry as R
from .checker import check, decided_by_player_count, declared_item_kinds
from .diagnostics import Diagnostic, render, source_lines
from .files import is_file, resolved
from .formats import github_command, sarif_log
from .listing import plural
from .trial import trial_diagnostics
from .loader import CARDS_ROOT, Inline, bundled_names, default_game, files_in, load_paths, resolve_layers


SYNTAX = "the syntax errors above (what a file that does not parse defines or declares is unknown)"
PLAYERS = "the `players` error above (the player counts the game supports are not known)"


@attrs.define
class Report:
    diagnostics: list[Diagnostic]
    sources: dict[str, str]
    files: int
    definitions: dict[str, int]
    # Diagnostics left out because an error explains them (`follow_on`), and what those errors are.
    hidden: int = 0
    hidden_from: tuple[str, ...] = (SYNTAX,)

    @property
    def errors(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity == "error")

    @property
    def warnings(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity == "warning")

    def as_json(self) -> dict:
        return {"diagnostics": [d.as_json() for d in self.diagnostics],
                "summary": {"files": self.files, "errors": self.errors, "warnings": self.warnings,
                            "definitions": dict(self.definitions), "hidden": self.hidden}}

    def to_json(self) -> str:
        return json.dumps(self.as_json(), indent=2, sort_keys=False)

    def human(self, max_errors: int | None = None) -> str:
        """Every diagnostic rendered, or the first `max_errors` and a count of the rest."""
        shown, rest = self.shown(max_errors)
        lines: dict[str, list[str]] = {}  # each file split into lines once, however many diagnostics
        parts = []
        for d in shown:
            file = d.span.file
            if file not in lines:
                lines[file] = source_lines(self.sources.get(file))
            parts.append(render(d, None, lines[file]))
        if rest:
            parts.append(f"... and {more(rest)}")
        if self.hidden:
            parts.append(self.hidden_note())
        parts.append(self.summary())
        return "\n\n".join(parts)

    def hidden_note(self) -> str:
        n = self.hidden
        return (f"note: {n:,} more {'diagnostics are' if n != 1 else 'diagnostic is'} left out: "
                f"{'they follow' if n != 1 else 'it follows'} from {' and from '.join(self.hidden_from)}; "
                "check again once those are fixed")

    def shown(self, max_errors: int | None) -> tuple[list[Diagnostic], list[Diagnostic]]:
        """The diagnostics to show under `--max-errors` (None or 0: all), and the rest."""
        if not max_errors or len(self.diagnostics) <= max_errors:
            return self.diagnostics, []
        return self.diagnostics[:max_errors], self.diagnostics[max_errors:]

    def github(self, max_errors: int | None = None) -> str:
        """GitHub Actions workflow commands, one `::error file=..,line=..,col=..::message` per
        diagnostic (at most `max_errors`), then the summary line."""
        shown, rest = self.shown(max_errors)
        out = [github_command(d) for d in shown]
        if rest:
            out.append(f"... and {more(rest)}")
        if self.hidden:
            out.append(self.hidden_note())
        out.append(self.summary())
        return "\n".join(out)

    def sarif(self) -> str:
        """SARIF 2.1.0: one run whose tool's rules are the diagnostic codes; every diagnostic."""
        return json.dumps(sarif_log(self.diagnostics), separators=(",", ":"))

    def summary(self) -> str:
        counts = ", ".join(f"{n} {plural(k) if n != 1 else k}" for k, n in self.definitions.items())
        status = "ok" if not self.errors else "failed"
        said = ", ".join(f"{n} {word if n != 1 else word[:-1]}"
                         for n, word in ((self.files, "files"), (self.errors, "errors"), (self.warnings, "warnings")))
        return f"{status}: {said}" + (f"; {counts}" if counts else "")


def more(rest: list[Diagnostic]) -> str:
    """"99,800 more errors", "3 more warnings", or both."""
    errors = sum(1 for d in rest if d.severity == "error")
    warnings = len(rest) - errors
    said = [f"{n:,} more {word if n != 1 else word[:-1]}" for n, word in ((errors, "errors"), (warnings, "warnings")) if n]
    return " and ".join(said)


def _sort_key(d: Diagnostic):
    return (d.span.file, d.span.line, d.span.column, d.code)


@attrs.define
class _Checked:
    diagnostics: list[Diagnostic]
    sources: dict[str, str]
    keys: set[tuple[str, str]]
    files: set[str] = attrs.Factory(set)
    hidden: int = 0
    hidden_from: tuple[str, ...] = ()


# What a file that does not parse (E0xx) sets off elsewhere, its definitions being lost: one stray
# character in the game's header made hundreds of errors and hid itself among them.  Words the
# game and expansion headers declare are unknown where such a header is lost (and the game is
# missing); a name is unknown where its definition is.
FROM_LOST_HEADER = frozenset({"E301", "E302", "E303", "E304", "E305", "E313", "E314", "E316", "E403", "W501", "W502",
                              "W509"})
FROM_LOST_DEFINITION = frozenset({"E105", "E306", "E311", "E315"})
_HEADER = re.compile(r"^\s*(game|expansion)(?![A-Za-z0-9_])", re.M)
# What a `players` range the engine cannot play (E404 at it: `players 65`, `players 4 2`) sets off:
# the checks that weigh each count a game supports, made at counts the designer did not mean; and
# a computed amount below 0 or a settled comparison (W508, W510) where another count would not
# give it (`checker.decided_by_player_count`).
FROM_PLAYER_RANGE = frozenset({"W511", "E412", "E409"})


def follow_on(checked: list[Diagnostic], merged) -> list[Diagnostic]:
    """The diagnostics of `checked` that an earlier error explains: a file of `merged` that does
    not parse, or a `players` range that cannot be played."""
    return [d for found in follow_on_by_cause(checked, merged).values() for d in found]


def follow_on_by_cause(checked: list[Diagnostic], merged) -> dict[str, list[Diagnostic]]:
    """`follow_on`'s diagnostics under what explains them (`SYNTAX`, `PLAYERS`), each cause
    that explains some."""
    out = {SYNTAX: _from_syntax(checked, merged), PLAYERS: _from_player_range(checked, merged)}
    return {cause: found for cause, found in out.items() if found}


def _from_player_range(checked: list[Diagnostic], merged) -> list[Diagnostic]:
    ranges = [s.span for g in merged.by_kind("game") + merged.by_kind("expansion") if g.block
              for s in g.block.statements if s.verb == "players"]
    if not any(d.code == "E404" and any(_within(d.span, r) for r in ranges) for d in checked):
        return []
    by_count = {id(d) for d in decided_by_player_count(merged, checked)}
    return [d for d in checked if d.code in FROM_PLAYER_RANGE or id(d) in by_count]


def _within(inner, outer) -> bool:
    return inner.file == outer.file and (outer.line, outer.column) <= (inner.line, inner.column) \
        and (inner.end_line, inner.end_column) <= (outer.end_line, outer.end_column)


def _from_syntax(checked: list[Diagnostic], merged) -> list[Diagnostic]:
    """The diagnostics of `checked` that a file of `merged` that does not parse explains."""
    broken = {d.span.file for d in merged.diagnostics if d.severity == "error" and d.code.startswith("E0")}
    if not broken:
        return []
    texts = [merged.sources.get(f) or "" for f in broken]
    header_lost = any(_HEADER.search(t) for t in texts)
    out = []
    for d in checked:
        if d.code in FROM_LOST_HEADER and header_lost:
            out.append(d)
        elif d.code in FROM_LOST_DEFINITION:
            name = _spanned(merged.sources.get(d.span.file), d).strip('"')
            defined = re.compile(r'^\s*[A-Za-z_]\w*\s+"?' + re.escape(name) + r'"?\s*(\{|$)', re.M)
            if name and any(defined.search(t) for t in texts):
                out.append(d)
    return out


def _spanned(source: str | None, d: Diagnostic) -> str:
    """The text of a one-line span (a name where it is used)."""
    if not source or d.span.line != d.span.end_line:
        return ""
    lines = source.split("\n")
    if not 0 < d.span.line <= len(lines):
        return ""
    return lines[d.span.line - 1][d.span.column - 1:d.span.end_column - 1]


def _check_set(paths: list[Path | Inline], read: dict | None = None) -> _Checked:
    merged = load_paths(paths, read)
    checked = check(merged)
    causes = follow_on_by_cause(checked, merged)
    hidden = [d for found in causes.values() for d in found]
    if hidden:
        left_out = {id(d) for d in hidden}
        checked = [d for d in checked if id(d) not in left_out]
    diags = list(merged.diagnostics) + checked
    if not any(d.severity == "error" for d in diags):
        # (a trial stuck with no legal action is an error where W504 warned too: W504 says a
        # player may be left with nothing to do, the trial that one is)
        diags += trial_diagnostics(merged)
    note = _your_changes(merged)
    if note is not None:
        diags = [_with_note(d, merged, note) for d in diags]
    known = set(R.KINDS) | declared_item_kinds(merged)
    keys = {(d.kind, d.name) for d in merged.definitions if d.kind in known}
    return _Checked(diags, merged.sources, keys, set(merged.read), len(hidden), tuple(causes))


def _your_changes(merged) -> tuple[str, list[str]] | None:
    """What a diagnostic in a bundled file says of the files laid on it (the bundled content
    checks clean alone, so they cause it): their `replace`/`extend`/`remove` (`replace card
    "Tavern"` at x.rules:1), or that their definitions do it; with the files of those changes.
    None where no such note applies: nothing but bundled files, or not on a bundled game.  (A
    designer's `replace` that left an age a card short was reported only at the bundled age,
    naming nothing of theirs.)"""
    if not merged.read or merged.read[0] not in merged.bundled or merged.bundled.issuperset(merged.read):
        return None
    yours = [c for c in merged.changes if c.name_span.file not in merged.bundled]
    if not yours:
        return "the bundled content is clean alone: this comes of the definitions your files add to it", []
    named = ", ".join(f'`{c.modifier} {c.kind} "{c.name}"` at {c.name_span.file}:{c.name_span.line}'
                      for c in yours[:3]) + (f" and {len(yours) - 3} more" if len(yours) > 3 else "")
    return (f"the bundled content is clean alone: this comes of your changes to it ({named})",
            sorted({c.name_span.file for c in yours}))


def _with_note(d: Diagnostic, merged, note: tuple[str, list[str]]) -> Diagnostic:
    """`d` with `_your_changes`' note in its help, where it lies in a bundled file and does not
    name those files already (a `remove` that left a deck short says which)."""
    text, files = note
    if d.span.file not in merged.bundled or any(f in f"{d.message} {d.help or ''}" for f in files):
        return d
    return attrs.evolve(d, help=f"{d.help}; {text}" if d.help else text)


def check_layers(paths: list[Path]) -> Report:
    """Check folders as one content set: the first is the base, the rest modify it in order."""
    return _combine([_check_set(paths)])


def _combine(sets: list[_Checked]) -> Report:
    diags: dict[tuple, Diagnostic] = {}
    sources: dict[str, str] = {}
    keys: set[tuple[str, str]] = set()
    files: set[str] = set()
    hidden = 0
    causes: dict[str, None] = {}   # (in the order found, each once)
    for c in sets:
        hidden += c.hidden
        causes.update(dict.fromkeys(c.hidden_from))
        for d in c.diagnostics:
            diags.setdefault((d.span, d.code, d.message), d)
        sources.update(c.sources)
        keys |= c.keys
        files |= c.files | set(c.sources)
    counts = Counter(kind for kind, _ in keys)
    # Files read count even when they did not decode (E005); each file once, however many sets used it.
    return Report(sorted(diags.values(), key=_sort_key), sources, len(files),
                  dict(sorted(counts.items())), hidden, tuple(causes) or (SYNTAX,))


def layers_for(path: Path | Inline, expansions: Sequence[str] = (), game: str | None = None) -> list[Path | Inline]:
    """A folder that defines no `game` is checked on top of the base game (`game`: a bundled
    game's name or a folder; default the bundled game the expansions' or the folder's own
    `base` names, else the bundled base game); one that defines a `game` is that
    game.  With `expansions`, every path is checked with those expansions on top (which then
    apply in their `order`, as when played): a game folder under them, another path over the
    base game and them."""
    if game is None:   # (the game the expansions' `base` names, this path's too: else the bundled one)
        game = default_game([*expansions, path])
    base = resolve_layers([], game)[0]
    own_game = _defines_game(path, base)
    if expansions:
        if own_game and not isinstance(path, Inline):
            # (a copy of a whole game: stacked on the base game, all of it was defined twice; the
            # expansions are laid on it, and one that is the default base game's folder is not
            # dropped as that game: laid on this one, it is one E403)
            return list(resolve_layers(list(expansions), path))
        layers: list[Path | Inline] = list(resolve_layers(list(expansions), game))
        if own_game:
            return [path, *layers[1:]]
        if isinstance(path, Inline) or all(resolved(path) != resolved(p) for p in layers):
            layers.append(path)
        return layers
    if own_game or base is None:
        return [path]
    return [base, path]


def _defines_game(path: Path | Inline, base: Path | None) -> bool:
    """Whether `path` holds a `game` definition (the base game's own folder does)."""
    if isinstance(path, Inline):
        return _mentions_game(path.data.decode("utf-8", errors="replace"))
    files = files_in(path)  # within the limits of a content folder (FolderProblem past them)
    if base is not None and resolved(path) == resolved(base):
        return True
    return any(_mentions_game(_text(f)) for f in files)


def _text(f: Path) -> str:
    try:
        if not is_file(f):  # a broken link, a FIFO (reading it could block): the loader reports it
            return ""
        return f.read_text(encoding="utf-8-sig", errors="replace")   # (a BOM, as the loader reads it)
    except OSError:
        return ""


def _mentions_game(text: str) -> bool:
    return any(_GAME_HEADER.match(line) for line in text.split("\n"))


_GAME_HEADER = re.compile(r"\s*game(?![A-Za-z0-9_])")


def check_paths(paths: list[Path | Inline], expansions: Sequence[str] = (), base: str | None = None) -> Report:
    """`rulesdsl check PATH...`: each path is checked as its own content set (a folder without
    a `game` on top of the base game, or with `expansions` on top of the base game and those
    expansions); no path means every bundled folder, or with `expansions` or a `base` (a
    bundled game's name or a folder; default the game the expansions' `base` names, else the
    bundled base game) that game and those expansions together.  ValueError names an unknown
    expansion."""
    read: dict = {}  # each folder is read once, however many content sets use it
    if not paths:
        if expansions or base is not None:
            layers = resolve_layers(list(expansions), base or default_game(expansions))
            return _combine([_check_set(list(layers), read)])
        paths = [CARDS_ROOT / n for n in bundled_names()]
    return _combine([_check_set(layers_for(p, expansions, base), read) for p in paths])
