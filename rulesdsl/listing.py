"""`rulesdsl list`: the names a content set defines, by kind. Definitions (cards, wonders,
procedures, ... whatever kinds the files use), the vocabulary their `game` and `expansion`
headers declare (zones, resources, ...), the game options the cards read, and the language's own
events, verbs and functions."""

from __future__ import annotations

import attrs

from . import ast
from . import registry as R
from .loader import Merged, bundled_expansions_for, bundled_hint
from .names import UnknownName, option_calls, quoted

# Header statements that declare vocabulary: verb -> (kind, only the first word names something).
VOCABULARY = {"zone": ("zone", True), "resources": ("resource", False), "colors": ("color", False),
              "science": ("science", False), "chains": ("chain", False), "item_kinds": ("item_kind", False),
              "table": ("table", True)}
LANGUAGE = ("event", "verb", "function")  # the same for every content set


@attrs.frozen
class Entry:
    name: str
    file: str | None = None   # where it is defined; None for the language's own names
    line: int | None = None

    def as_json(self) -> dict:
        return {"name": self.name, "file": self.file, "line": self.line}


def catalogue(merged: Merged) -> dict[str, list[Entry]]:
    """Every name by kind: the definition kinds, then the vocabulary kinds (each group in
    alphabetical order; names in definition order), the options, the language's own kinds."""
    out: dict[str, list[Entry]] = {}

    def add(kind: str, name: str, span=None) -> None:
        entries = out.setdefault(kind, [])
        if all(e.name != name for e in entries):
            entries.append(Entry(name, span.file if span else None, span.line if span else None))

    for d in sorted(merged.definitions, key=lambda d: d.kind):  # stable: each kind in definition order
        add(d.kind, d.name, d.name_span)
    vocabulary: dict[str, list[ast.Name]] = {}
    for d in merged.definitions:
        if d.kind not in ("game", "expansion") or d.block is None:
            continue
        for s in d.block.statements:
            if s.verb in VOCABULARY:
                kind, first_only = VOCABULARY[s.verb]
                words = [a for a in s.args if isinstance(a, ast.Name)]
                for a in words[:1] if first_only else words:
                    vocabulary.setdefault(kind, []).append(a)
    for kind in sorted(vocabulary):
        for a in vocabulary[kind]:
            add(kind, a.name, a.span)
    for n in option_calls(merged.definitions):
        add("option", n.name, n.span)
    for name in R.EVENTS:
        add("event", name)
    for name in sorted(R.VERBS):
        add("verb", name)
    for name in sorted(R.FUNCTIONS):
        add("function", name)
    return out


def known_kinds(found: dict[str, list[Entry]]) -> list[str]:
    """The kinds `list KIND` accepts: those found, every definition kind of the language, the
    vocabulary kinds and the game options (an accepted kind may have no names)."""
    return list(dict.fromkeys([*found, *R.KINDS, *R.ITEM_KINDS, *(k for k, _ in VOCABULARY.values()), "option",
                               *LANGUAGE]))


def plural(kind: str) -> str:
    if kind.endswith("y") and kind[-2:-1] not in "aeiou":
        return kind[:-1] + "ies"
    return kind + ("es" if kind.endswith(("s", "x", "ch", "sh")) else "s")


def resolve_kind(word: str, found: dict[str, list[Entry]], merged: Merged | None = None) -> str:
    """A kind as typed, singular (`card`, as in the card files) or plural (`cards`).  Unknown,
    it is an UnknownName; one that a bundled expansion of the game declares, that expansion
    not loaded, names the expansion to add (from `merged`, where given)."""
    kinds = known_kinds(found)
    by_word = {**{plural(k): k for k in kinds}, **{k: k for k in kinds}}
    if word in by_word:
        return by_word[word]
    error = UnknownName("kind", word, kinds, extra=[plural(k) for k in kinds])
    singulars = (word[:-3] + "y",) if word.endswith("ies") else (word, word[:-1], word[:-2])
    hint = next(filter(None, (bundled_hint("item_kinds", w, merged=merged) for w in singulars)), None) \
        if merged is not None else None
    if hint:
        error.help = hint
        error.args = (f"unknown kind {quoted(word)}; {hint}",)
    raise error


def nothing_of(kind: str, merged: Merged) -> str:
    """What `list KIND` says (on stderr) where the content has no name of that kind: for
    expansions, none being loaded, the bundled ones made for the game (a user asking for the
    expansions wants to know what there is to add)."""
    if kind != "expansion":
        return f"no {kind} in this content"
    game = next((d.name for d in merged.definitions if d.kind == "game"), None)
    bundled = bundled_expansions_for(game) if game is not None else []
    if not bundled:
        return f"no expansion loaded (none is bundled for {game or 'this game'})"
    return f"no expansion loaded; the bundled expansions for {game}: {', '.join(bundled)} (add -e NAME)"
