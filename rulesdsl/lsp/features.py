"""What the language server answers, as plain functions of a Project, a file and a position.

Positions are 0-based (line, character) as in the protocol; spans are 1-based.  Everything
here works on half-typed text: the word under the cursor and the statement it stands in are
read from the text itself (strings and comments skipped), and the last good parse and check
of the content set supply the names."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterator

import attrs

from .. import ast
from .. import registry as R
from ..diagnostics import Diagnostic, Span
from ..loader import Merged
from .project import ContentSet, Project, absolute

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_DID_YOU_MEAN = re.compile(r"did you mean `([^`]+)`\?")
MODIFIERS = ("replace", "extend", "remove")
# Vocabulary types and the word a hover calls them by.
_VOCAB_TYPES = {R.ZONE: "zone", R.RESOURCE: "resource", R.COLOR: "colour", R.SCIENCE: "scientific symbol",
                R.CHAIN: "chain symbol", "table": "table", R.LAYOUT: "layout", "procedure": "procedure",
                R.KIND: "item kind"}


# Definitions named by a bare word or number, never quoted.
_BARE_NAMED = ("game", "expansion", "age", "layout", "procedure", "action", "track")


# -- reading the text around the cursor ------------------------------------------------------------

@attrs.frozen
class Word:
    text: str            # the word, or the name inside quotes
    quoted: bool
    line: int            # 0-based
    start: int           # characters, 0-based, end exclusive (quotes included when quoted)
    end: int


def _code_part(line: str) -> str:
    """The line up to a comment (a `#` outside quotes)."""
    in_string = False
    for i, ch in enumerate(line):
        if ch == '"':
            in_string = not in_string
        elif ch == "#" and not in_string:
            return line[:i]
    return line


def word_at(text: str, line: int, character: int) -> Word | None:
    lines = text.split("\n")
    if not 0 <= line < len(lines):
        return None
    code = _code_part(lines[line])
    for m in re.finditer(r'"[^"\n]*("|$)', code):
        if m.start() <= character <= m.end() and (character > m.start() or m.end() > m.start()):
            inner = m.group()[1:-1] if m.group().endswith('"') and len(m.group()) > 1 else m.group()[1:]
            return Word(inner, True, line, m.start(), m.end())
    masked = re.sub(r'"[^"\n]*("|$)', lambda m: " " * len(m.group()), code)
    for m in _WORD.finditer(masked):
        if m.start() <= character <= m.end():
            return Word(m.group(), False, line, m.start(), m.end())
    return None


@attrs.frozen
class Context:
    """Where the cursor stands: the statement heads of the open blocks (outermost first: the
    definition header, then `when ...`, `choose ...`), the words of the current statement
    before the cursor, and whether the cursor is inside an unclosed quote."""

    heads: tuple[tuple[str, ...], ...]
    before: tuple[str, ...]
    partial: str
    in_string: bool
    after_equals: str | None  # `owner=` typed just before the cursor: the option's name
    in_comment: bool = False  # the cursor is in a comment (after a `#` outside quotes)

    @property
    def definition_kind(self) -> str | None:
        if not self.heads:
            return None
        words = [w for w in self.heads[0] if w not in MODIFIERS]
        return words[0] if words else None

    @property
    def depth(self) -> int:
        return len(self.heads)


# What cannot stand in a name between the cursor and a quote: that quote is no closing one
# (`move "Lu| onto="Bar"`: the name is not closed, `"Bar"` is the next string).
NOT_IN_A_NAME = "={}"


def closing_quote(line: str, character: int) -> int | None:
    """Where the quote closing the name the cursor stands in is, on the cursor's line (a name
    holds no line break; it may hold spaces, so quotes are paired, not words); None when the
    cursor stands in no name or the name is not closed: the next quote opens a later string
    (the quotes after it do not pair up), or what lies between cannot be part of a name."""
    inside = False
    for ch in line[:character]:
        if ch == '"':
            inside = not inside
        elif ch == "#" and not inside:
            return None       # (a comment)
    if not inside:
        return None
    after = line.find('"', character)
    if after < 0 or any(c in NOT_IN_A_NAME for c in line[character:after]):
        return None
    inside = False
    for ch in line[after + 1:]:
        if ch == '"':
            inside = not inside
        elif ch == "#" and not inside:
            break
    return None if inside else after


def context_at(text: str, line: int, character: int) -> Context:
    lines = text.split("\n")
    line = max(0, min(line, len(lines) - 1)) if lines else 0
    prefix = "\n".join(lines[:line] + [lines[line][:character] if lines else ""])
    heads: list[tuple[str, ...]] = []
    current: list[str] = []
    token = ""
    in_string = in_comment = False
    i = 0
    while i < len(prefix):
        ch = prefix[i]
        if in_comment:
            if ch == "\n":
                in_comment = False
                current = [] if not current or current[-1] != "\\" else current
            i += 1
            continue
        if in_string:
            if ch == '"':
                in_string = False
                current.append('"' + token + '"')
                token = ""
            elif ch == "\n":
                in_string = False
                token = ""
            else:
                token += ch
            i += 1
            continue
        if ch == '"':
            if token:
                current.append(token)
            token = ""
            in_string = True
        elif ch == "#":
            if token:
                current.append(token)
            token = ""
            in_comment = True
        elif ch.isalnum() or ch == "_":
            token += ch
        else:
            if token:
                current.append(token)
            token = ""
            if ch == "{":
                heads.append(tuple(current))
                current = []
            elif ch == "}":
                if heads:
                    heads.pop()
                current = []
            elif ch in "\n;":
                # (a `\` continuation; in a CRLF file the `\r` stands between)
                if ch == "\n" and prefix[max(0, i - 2):i].rstrip("\r").endswith("\\"):
                    pass
                else:
                    current = []
            elif ch in "=<>!+-*/%|.,()[]":
                current.append(ch)
        i += 1
    partial = "" if in_string else token
    after_equals = None  # `name=` (an option), not `==`, `<=`...
    if not in_string and len(current) >= 2 and current[-1] == "=" and current[-2].isidentifier():
        after_equals = current[-2]
    words = tuple(current)
    return Context(tuple(heads), words, partial if not in_string else token, in_string, after_equals, in_comment)


# -- the names a content set defines ----------------------------------------------------------------

@attrs.frozen
class Symbol:
    kind: str      # definition kind, or a vocabulary type ("zone", "resource", ...)
    name: str
    span: Span     # of the name
    full: Span     # of the whole definition or declaring statement


def definitions(merged_or_trees) -> Iterator[Symbol]:
    """Definitions (cards, procedures, layouts, ...) and declared vocabulary, with their spans."""
    trees = merged_or_trees
    for tree in trees:
        for d in tree.definitions:
            if d.modifier in ("extend", "remove"):
                continue
            yield Symbol(d.kind, d.name, d.name_span, d.span)
            if d.kind in ("game", "expansion") and d.block:
                for s in d.block.statements:
                    names = [a for a in s.args if isinstance(a, ast.Name)]
                    kind = {"zone": R.ZONE, "table": "table"}.get(s.verb)
                    if kind and names:
                        yield Symbol(kind, names[0].name, names[0].span, s.span)
                        continue
                    from ..checker import VOCAB_VERBS
                    kind = VOCAB_VERBS.get(s.verb) or (R.KIND if s.verb == "item_kinds" else None)
                    for n in names if kind else ():
                        yield Symbol(kind, n.name, n.span, s.span)


def _walk(node) -> Iterator:
    if isinstance(node, (list, tuple)):
        for n in node:
            yield from _walk(n)
    elif attrs.has(type(node)) and not isinstance(node, Span):
        yield node
        for f in attrs.fields(type(node)):
            value = getattr(node, f.name)
            if isinstance(value, (list, tuple)) or (attrs.has(type(value)) and not isinstance(value, Span)):
                yield from _walk(value)


def references(trees, word: Word, kinds: tuple[str, ...] | None = None) -> list[Span]:
    """Every place naming what `word` names: quoted names (cards, wonders, rules, ...) or bare
    names (procedures, layouts, zones and other declared words, each word of `a|b|c`),
    definitions included.  A quoted text that names nothing (a `title "..."`) is no reference.
    `kinds`: for a bare word, the definition kinds whose names count (default: procedures,
    layouts, ages; an action's name is asked for with ("action",): its uses are definitions
    only, and a zone of the same name is another thing)."""
    out: list[Span] = []
    named_kinds = kinds if kinds is not None else ("procedure", "layout", "age")
    for tree in trees:
        lines = None
        for d in tree.definitions:
            if word.quoted and d.name == word.text and d.name_span.file:
                out.append(d.name_span)
            elif not word.quoted and d.name == word.text and d.kind in named_kinds:
                out.append(d.name_span)
            if kinds == ("action",):
                continue
            texts = _free_texts(d)
            for node in _walk(d.block):
                if word.quoted and isinstance(node, ast.Str) and node.value == word.text and id(node) not in texts:
                    out.append(node.span)
                elif not word.quoted and isinstance(node, ast.Name) and node.name == word.text:
                    out.append(node.span)
                elif not word.quoted and isinstance(node, ast.Alternatives) and word.text in node.names:
                    if lines is None:
                        from .positions import Lines
                        lines = Lines(tree.text)
                    out.extend(_alternative_spans(lines, node, word.text))
    return sorted(set(out), key=lambda s: (s.file, s.line, s.column))


def _free_texts(d: ast.Definition) -> set[int]:
    """The quoted texts of a definition that are prose, not names (the arguments and options
    a verb takes as text, such as `title`): ids of their Str nodes."""
    found: set[int] = set()
    for node in _walk(d.block):
        if not isinstance(node, ast.Statement):
            continue
        verb = R.verb_for(d.kind or "", node.verb) or R.VERBS.get(node.verb)
        if verb is None:
            continue
        for p, arg in zip(verb.params, node.args):
            if p.type == R.TEXT and isinstance(arg, ast.Str):
                found.add(id(arg))
        for kw in node.kwargs:
            if verb.kwarg_types.get(kw.name) == R.TEXT and isinstance(kw.value, ast.Str):
                found.add(id(kw.value))
    return found


def _alternative_spans(lines, node: ast.Alternatives, name: str) -> list[Span]:
    """The span of each `name` among the words of alternatives (`a|b|c`)."""
    s = node.span
    start = lines.offset(s.line - 1, s.column - 1)
    end = lines.offset(s.end_line - 1, s.end_column - 1)
    out = []
    for m in re.finditer(r"(?<![A-Za-z0-9_])" + re.escape(name) + r"(?![A-Za-z0-9_])", lines.text[start:end]):
        (l1, c1), (l2, c2) = lines.position(start + m.start()), lines.position(start + m.end())
        out.append(Span(s.file, l1 + 1, c1 + 1, l2 + 1, c2 + 1))
    return out


def find_definitions(trees, word: Word) -> list[Symbol]:
    found = [s for s in definitions(trees) if s.name == word.text]
    if word.quoted:
        return [s for s in found if s.kind not in _VOCAB_TYPES]
    return found


def _trees(project: Project, path: Path) -> tuple[list[ast.SourceFile], ContentSet | None]:
    found = project.check(path)
    if found is not None:
        return list(found.trees.values()), found
    parsed = project.parse(path)
    return ([parsed.tree] if parsed and parsed.tree else []), None


def definition(project: Project, path: Path, line: int, character: int) -> list[Span]:
    text = project.text(path) or ""
    word = word_at(text, line, character)
    if word is None:
        return []
    trees, _ = _trees(project, path)
    found = find_definitions(trees, word)
    if not word.quoted:
        role = _role(context_at(text, word.line, word.start))
        if role == "verb":   # (`build card` in `action build`: the statement's verb, no definition)
            return []
        if role is not None:   # (`discard_pile discard`: the zone, not `action discard`)
            found = [s for s in found if s.kind == role]
        else:
            param = _parameter(project, path, word)
            if param is not None:   # (an action's `param card`, not the item kind `card`)
                return [param]
    return [s.span for s in found]


def _parameter(project: Project, path: Path, word: Word) -> Span | None:
    """Where the action the word stands in declares a parameter of its name (`param card`)."""
    parsed = project.parse(path)
    if parsed is None or parsed.tree is None:
        return None
    at = (word.line + 1, word.start + 1)
    for d in parsed.tree.definitions:
        if d.block is None or not (d.span.line, d.span.column) <= at <= (d.span.end_line, d.span.end_column):
            continue
        for st in d.block.statements:
            if st.verb == "param" and st.args and isinstance(st.args[0], ast.Name) and st.args[0].name == word.text:
                return st.args[0].span
    return None


def _role(ctx: Context) -> str | None:
    """What a bare word names where it stands, for go-to-definition: "verb" for the first word of
    a statement inside a definition, else the kind of definition or vocabulary an argument of
    its statement takes there (a zone, a layout, an item kind, a procedure); None where that is
    not known (an expression, a word inside a function's call) or at the top level."""
    if ctx.depth == 0 or ctx.in_string or ctx.in_comment:
        return None
    if not ctx.before:
        return "verb"
    verb = R.verb_for(ctx.definition_kind or "", ctx.before[0]) or R.VERBS.get(ctx.before[0])
    if verb is None or any(w in "()[]," for w in ctx.before):
        return None
    if ctx.after_equals is not None:
        type_ = verb.kwarg_types.get(ctx.after_equals)
    else:
        words, position, i = ctx.before[1:], 0, 0
        while i < len(words):   # (an option, `name = value`, is no positional argument)
            if i + 1 < len(words) and words[i + 1] == "=":
                i += 3
                continue
            position += words[i] not in "=<>!+-*/%|."
            i += 1
        params = verb.params
        type_ = params[min(position, len(params) - 1)].type if params else None
    return _ROLE_OF_TYPE.get(type_)


# The kind of symbol (`definitions`) an argument of each type names.
_ROLE_OF_TYPE = {R.ZONE: R.ZONE, R.SELECTOR_ZONE: R.ZONE, R.LAYOUT: "layout", R.KIND: R.KIND, "procedure": "procedure"}


def find_references(project: Project, path: Path, line: int, character: int, include_declaration: bool = True) -> list[Span]:
    text = project.text(path) or ""
    word = word_at(text, line, character)
    if word is None:
        return []
    trees, _ = _trees(project, path)
    kinds = None
    if not word.quoted:
        # The name of an action, where it is defined: the action (`zone discard` and `action
        # discard` are two things); elsewhere a bare word is never an action's name.
        actions = [s for s in find_definitions(trees, word) if s.kind == "action"]
        if any((s.span.line, s.span.column) == (word.line + 1, word.start + 1)
               and Path(s.span.file) == absolute(path) for s in actions):
            kinds = ("action",)
    spans = references(trees, word, kinds)   # (`replace action NAME` and the like too)
    if kinds is None and not word.quoted:
        spans = _same_role(trees, word, text, path, spans)
    if not include_declaration:
        declared = {s.span for s in find_definitions(trees, word)}
        spans = [s for s in spans if s not in declared]
    return spans


def _same_role(trees, word: Word, text: str, path: Path, spans: list[Span]) -> list[Span]:
    """Of the places a bare word stands, those where it names what it names at the cursor, as
    go-to-definition tells them apart (the zone `age1` and the layout `age1`): a declaration
    by its kind, a use by what its statement takes there.  A place whose role is not known (an
    expression) is kept; so are all where the cursor's role is not known."""
    declared = {(s.span.file, s.span.line, s.span.column): s.kind for s in definitions(trees)}
    here = (str(absolute(path)), word.line + 1, word.start + 1)
    role = declared.get(here) or _role(context_at(text, word.line, word.start))
    if role is None:
        return spans
    if role == "verb":   # (a statement's verb: it names no definition)
        return []
    texts = {tree.path: tree.text for tree in trees}

    def role_at(span: Span) -> str | None:
        kind = declared.get((span.file, span.line, span.column))
        if kind is not None:
            return kind
        source = texts.get(span.file)
        return _role(context_at(source, span.line - 1, span.column - 1)) if source is not None else None

    return [s for s in spans if role_at(s) in (role, None)]


def document_symbols(project: Project, path: Path) -> list[Symbol]:
    parsed = project.parse(path)
    if parsed is None or parsed.tree is None:
        return []
    return [Symbol(d.kind if not d.modifier else f"{d.modifier} {d.kind}", d.name or d.kind, d.name_span, d.span)
            for d in parsed.tree.definitions]


def workspace_symbols(project: Project, query: str) -> list[Symbol]:
    wanted = query.lower()
    seen: set[tuple[str, str, Span]] = set()
    out: list[Symbol] = []
    for found in project.sets():
        for s in definitions(found.trees.values()):
            key = (s.kind, s.name, s.span)
            if key not in seen and wanted in s.name.lower():
                seen.add(key)
                out.append(s)
    return out


# -- hover ------------------------------------------------------------------------------------------

def verb_signature(verb: R.Verb) -> str:
    parts = [verb.name]
    for p in verb.params:
        shown = "|".join(p.literal) if p.literal else p.name.upper()
        parts.append(f"[{shown}]" if p.optional else shown)
    parts += [f"[{k}={t.upper()}]" for k, t in verb.kwargs]
    if verb.block != "none":
        parts.append("{ ... }" if verb.block == "required" else "[{ ... }]")
    return " ".join(parts)


def verb_text(verb: R.Verb) -> str:
    lines = [f"```rules\n{verb_signature(verb)}\n```", f"**{verb.name}** ({verb.role})"]
    if verb.doc:
        lines.append(verb.doc)
    if verb.params:
        lines.append("Arguments: " + ", ".join(
            f"`{p.name}` ({'one of ' + ', '.join(p.literal) if p.literal else p.type}{', optional' if p.optional else ''})"
            for p in verb.params))
    if verb.kwargs:
        lines.append("Options: " + ", ".join(f"`{k}=` ({t})" for k, t in verb.kwargs))
    if verb.kinds:
        lines.append("Only in: " + ", ".join(verb.kinds))
    if verb.example:
        lines.append(f"Example: `{verb.example}`")
    return "\n\n".join(lines)


def _statement_at(tree: ast.SourceFile | None, line: int, column: int) -> tuple[ast.Definition | None, ast.Statement | None]:
    """The innermost statement whose verb is at (line, column), 1-based, and its definition."""
    if tree is None:
        return None, None
    for d in tree.definitions:
        if not (d.span.line <= line <= d.span.end_line):
            continue
        for node in _walk(d.block):
            if isinstance(node, ast.Statement):
                v = node.verb_span
                if v.line == line and v.column <= column <= v.end_column:
                    return d, node
        return d, None
    return None, None


def hover(project: Project, path: Path, line: int, character: int) -> tuple[str, Word] | None:
    text = project.text(path)
    if text is None:
        return None
    word = word_at(text, line, character)
    if word is None:
        return None
    ctx = context_at(text, line, word.start)
    found = project.check(path)
    parsed = project.parse(path)
    if word.quoted:
        # (A name nothing explains or declares, such as one in a definition left unclosed: no hover.)
        said = _explained(found, word.text) or _declared(found, parsed, word, path)
        return (said, word) if said else None
    w = word.text
    head = not ctx.before or ctx.before == tuple(m for m in ctx.before if m in MODIFIERS)
    if head and ctx.depth == 0:
        if w in MODIFIERS:
            return f"**{w}**: changes a definition of an earlier folder (the base game or an earlier expansion).", word
        kind = R.KINDS.get(w)
        if kind is not None:
            return f"**{w}** (definition kind)\n\n{kind.doc}", word
        if found is not None and w in found.vocabulary.known(R.KIND):
            return f"**{w}**: an item kind this content declares (`item_kinds`).", word
    if head and ctx.depth > 0:
        verb = R.verb_for(ctx.definition_kind or "", w)
        if verb is not None:
            out = verb_text(verb)
            # (from a parse of this very text only: an older one may have another statement here)
            sentence = _english(found, parsed, word) if parsed is not None and parsed.text == text else None
            if sentence:
                out = f"{sentence}\n\n---\n\n{out}"
            return out, word
    rest = text.split("\n")[line][word.end:].lstrip()
    if rest.startswith("(") and w in R.FUNCTIONS:
        f = R.FUNCTIONS[w]
        sig = f"{w}(" + ", ".join(n for n, _ in f.params) + "".join(f", {k}=" for k, _ in f.kwargs) + ")"
        return f"```rules\n{sig}\n```\n\n{f.doc}\n\nReturns: {f.returns}" + (f"\n\nExample: `{f.example}`" if f.example else ""), word
    if rest.startswith("=") and not rest.startswith("=="):
        verb = R.verb_for(ctx.definition_kind or "", ctx.before[0]) if ctx.before else None
        if verb is not None and w in verb.kwarg_types:
            return f"`{w}=`: an option of `{verb.name}` ({verb.kwarg_types[w]})\n\n" + verb_text(verb), word
    if ctx.before and ctx.before[0] == "when" and len(ctx.before) == 1 and w in R.EVENTS:
        return _event_text(w), word
    if found is not None:
        text_for = _declared(found, parsed, word, path)
        if text_for:
            return text_for, word
    if w in R.NAME_DOCS or w in R.NAMES:
        return f"**{w}**: {R.NAME_DOCS.get(w, R.NAMES.get(w, ''))}", word
    if w in R.EVENTS:
        return _event_text(w), word
    return None


def _explained(found: ContentSet | None, name: str) -> str | None:
    if found is None:
        return None
    content = found.content()
    if content is None:
        return None
    try:
        from ..explain import explain
        return "```\n" + explain(name, content) + "\n```"
    except Exception:  # UnknownName, or a name explain cannot render: no hover
        return None


def _english(found: ContentSet | None, parsed, word: Word) -> str | None:
    if parsed is None or parsed.tree is None:
        return None
    _, statement = _statement_at(parsed.tree, word.line + 1, word.start + 1)
    if statement is None:
        return None
    try:
        from ..explain_text import context_for, english
        ctx = context_for(found.merged) if found is not None else None
        return english(statement, context=ctx)
    except Exception:  # a statement still being written may not render
        return None


def _event_text(name: str) -> str:
    event = R.EVENTS[name]
    fields = ", ".join(f"`{f}` ({kind})" for f, kind in event.fields) or "none"
    return f"**{name}** (event)" + (f"\n\n{event.doc}" if event.doc else "") + f"\n\nFields: {fields}"


def _declared(found: ContentSet | None, parsed, word: Word, path: Path | None = None) -> str | None:
    """A definition or declared word: its kind and where, the declaring line, the explain text.
    Where several share the name (`action discard` and `zone discard`), the one whose name is
    the word hovered, in this file, comes first."""
    trees = list(found.trees.values()) if found is not None else ([parsed.tree] if parsed and parsed.tree else [])
    symbols = find_definitions(trees, word)
    if not symbols:
        return None
    here = [x for x in symbols if path is not None and (x.span.line, x.span.column) == (word.line + 1, word.start + 1)
            and Path(x.span.file).name == path.name]
    s = (here or symbols)[0]
    label = _VOCAB_TYPES.get(s.kind, s.kind)
    where = f"{Path(s.span.file).name}:{s.span.line}"
    if s.kind in _VOCAB_TYPES and s.kind not in ("procedure", R.LAYOUT):
        source = found.merged.sources.get(s.full.file, "") if found else ""
        lines = source.split("\n")
        declaring = lines[s.full.line - 1].strip() if 0 < s.full.line <= len(lines) else ""
        return f"**{s.name}** ({label}, declared at {where})\n\n```rules\n{declaring}\n```"
    explained = _explained(found, s.name if s.kind not in ("layout", "action", "procedure") else f"{s.kind} {s.name}")
    return explained or f"**{s.name}** ({label}, defined at {where})"


# -- completion -------------------------------------------------------------------------------------

@attrs.frozen
class Completion:
    label: str
    kind: str            # "keyword", "verb", "option", "value", "name", "function", "event"
    detail: str = ""
    insert: str | None = None
    documentation: str = ""


def _vocabulary(found: ContentSet | None, type_: str) -> list[str]:
    return sorted(found.vocabulary.known(type_)) if found is not None else []


def _allowed(verb: R.Verb, kind: str | None) -> bool:
    if verb.kinds and kind not in verb.kinds:
        return False
    only = {R.ACTION_PART: "action", R.GAME: None, R.LAYOUT_PART: "layout", R.INVARIANT_PART: "invariant"}
    if verb.role == R.GAME:
        return kind in ("game", "expansion")
    if verb.role in only:
        return kind == only[verb.role]
    return True


def _values(found: ContentSet | None, type_: str) -> list[tuple[str, str]]:
    """Words of a type the content declares, as (word, what)."""
    if type_ in (R.COLORS,):
        type_ = R.COLOR
    if type_ in (R.ZONE, R.SELECTOR_ZONE, "from", "to"):
        words = _vocabulary(found, R.ZONE) + (["structure"] if type_ == R.SELECTOR_ZONE else [])
        return [(w, "zone") for w in words]
    if type_ in (R.PLAYER, "owner"):
        return [(w, "player") for w in R.OWNER_WORDS]
    if type_ == R.SEATS:
        return [(w, "player") for w in R.SUMMED_OWNER_WORDS + ("left", "right")]
    if type_ == R.BOOL:
        return [("true", "bool"), ("false", "bool")]
    if type_ == R.EVENT:
        return [(e, "event") for e in R.EVENTS]
    if type_ in _VOCAB_TYPES:
        return [(w, _VOCAB_TYPES[type_]) for w in _vocabulary(found, type_)]
    if type_ in (R.PRODUCTS, R.AMOUNTS):
        return [(w, "resource") for w in _vocabulary(found, R.RESOURCE)] + [("coins", "coins")]
    return []


def complete(project: Project, path: Path, line: int, character: int) -> list[Completion]:
    text = project.text(path) or ""
    ctx = context_at(text, line, character)
    if ctx.in_comment:   # (a comment is prose: nothing to offer)
        return []
    found = project.check(path)
    if ctx.in_string:
        names = {s.name: s.kind for s in definitions(project.name_trees(path))
                 if s.kind not in _VOCAB_TYPES and s.kind not in _BARE_NAMED and s.name}
        return [Completion(n, "name", kind) for n, kind in sorted(names.items())]
    if not ctx.before or all(w in MODIFIERS for w in ctx.before):
        if ctx.depth == 0:
            kinds = list(R.KINDS) + _vocabulary(found, R.KIND)
            words = [Completion(k, "keyword", "definition kind", documentation=R.KINDS[k].doc if k in R.KINDS else "")
                     for k in dict.fromkeys(kinds)]
            if not ctx.before:
                words += [Completion(m, "keyword", "modifier") for m in MODIFIERS]
            return words
        kind = ctx.definition_kind
        out = []
        for name, verb in sorted(R.VERBS.items()):
            verb = R.verb_for(kind or "", name) or verb
            if _allowed(verb, kind):
                out.append(Completion(name, "verb", verb_signature(verb), documentation=verb.doc))
        if kind in ("game", "expansion"):
            out += [Completion(n, "verb", "declares the game's vocabulary") for n in ("science",) if n not in R.VERBS]
        return out
    verb_name = ctx.before[0]
    verb = R.verb_for(ctx.definition_kind or "", verb_name)
    if ctx.after_equals is not None:
        type_ = verb.kwarg_types.get(ctx.after_equals) if verb else None
        if type_ is None:  # an option of a function call (`count(city, color=`), or of any verb
            type_ = next((t for f in R.FUNCTIONS.values() for k, t in f.kwargs if k == ctx.after_equals),
                         next((t for v in R.VERBS.values() for k, t in v.kwargs if k == ctx.after_equals), ""))
        values = [Completion(w, "value", what) for w, what in _values(found, type_)]
        if type_ in (R.BOOL, R.INT, R.ITEM, R.PLAYER, "any", ""):  # an expression: names and functions too
            values += _expression_words({c.label for c in values} | {"it"}) + [Completion("it", "name", "the item tested")]
        return values
    out: list[Completion] = []
    if verb_name == "when" and len([w for w in ctx.before if w not in "=,()[]"]) == 1:
        return [Completion(e, "event", "fields: " + ", ".join(f for f, _ in R.EVENTS[e].fields)) for e in R.EVENTS]
    if verb_name == "run":
        return [Completion(w, "name", "procedure") for w in _vocabulary(found, "procedure")]
    if verb is not None:
        given = {w for w in ctx.before}
        out += [Completion(k + "=", "option", f"option of {verb.name}: {t}", insert=k + "=")
                for k, t in verb.kwargs if k not in given]
        seen: set[str] = set()
        for p in verb.params:
            for lit in p.literal:
                if lit not in seen:
                    seen.add(lit)
                    out.append(Completion(lit, "keyword", f"{verb.name} {p.name}"))
            for w, what in _values(found, p.type):
                if w not in seen:
                    seen.add(w)
                    out.append(Completion(w, "value", what))
        if verb.params and not any(p.type in _EXPRESSION_TYPES for p in verb.params):
            return out   # (`color ` takes a colour: `me`, `count(` or `true` there is an error)
    return out + _expression_words({c.label for c in out})


# Argument types that take an expression (a name or a function may stand there), beside words.
_EXPRESSION_TYPES = frozenset({R.BOOL, R.INT, R.ITEM, R.PLAYER, R.AMOUNTS, R.SEATS, "any", ""})


def _expression_words(taken: set[str]) -> list[Completion]:
    """The names and functions any expression may use."""
    out = [Completion(n, "name", R.NAMES[n] if n in R.NAMES else "", documentation=R.NAME_DOCS.get(n, ""))
           for n in sorted(set(R.NAMES) | {"chosen", "event"}) if n not in taken]
    out += [Completion(f.name, "function", f"{f.name}(" + ", ".join(n for n, _ in f.params) + ")",
                       insert=f.name + "(", documentation=f.doc) for f in R.FUNCTIONS.values()]
    return out


# -- code actions -----------------------------------------------------------------------------------

def replacement(diagnostic: Diagnostic, source: str) -> str | None:
    """The word a did-you-mean diagnostic suggests, written as the span needs it (quoted when the
    span is a quoted name)."""
    found = replacement_edit(diagnostic, source)
    return found[3] if found else None


_NAMED = re.compile(r'`([^`\n]+)`|"([^"\n]+)"')


def replacement_edit(diagnostic: Diagnostic, source: str) -> tuple[int, int, int, str] | None:
    """The quick fix of a did-you-mean diagnostic: (line, start, end, text), 0-based, end
    exclusive, replacing the misspelt word alone.  The diagnostic's range may hold more than
    the word (`produce a|bb` for `b`, `whoo=...` for `who`, `cont(...)` for `count`): the
    word the message names (the one nearest the suggestion) is looked for inside it; when it
    is not found there, only a range that is one word or one quoted name is replaced whole,
    and otherwise there is no fix (never delete code)."""
    m = _DID_YOU_MEAN.search(diagnostic.help or "")
    if not m:
        return None
    suggestion = m.group(1)
    s = diagnostic.span
    lines = source.split("\n")
    if s.line != s.end_line or not 0 < s.line <= len(lines):
        return None
    line = lines[s.line - 1]
    first, last = max(0, s.column - 1), min(len(line), max(0, s.end_column - 1))
    current = line[first:last]
    named = [a or b for a, b in _NAMED.findall(diagnostic.message)]
    places = []   # (how near the name is to the suggestion, order in the message, start, end, quoted)
    from difflib import SequenceMatcher
    for order, name in enumerate(named):
        near = SequenceMatcher(None, name.lower(), suggestion.lower()).ratio()
        if name == suggestion or near < 0.5:   # (did-you-mean suggests from 0.6 on)
            continue
        quoted = re.search(re.escape(f'"{name}"'), current)
        if quoted:
            places.append((near, order, first + quoted.start(), first + quoted.end(), True))
            continue
        for w in re.finditer(r"(?<![A-Za-z0-9_])" + re.escape(name) + r"(?![A-Za-z0-9_])", current):
            places.append((near, order, first + w.start(), first + w.end(), False))
            break
    if places:
        _, _, start, end, quoted = max(places, key=lambda p: (p[0], p[1]))
        return s.line - 1, start, end, f'"{suggestion}"' if quoted else suggestion
    if re.fullmatch(r'"[^"\n]*"', current):
        return s.line - 1, first, last, f'"{suggestion}"'
    if _WORD.fullmatch(current):
        return s.line - 1, first, last, suggestion
    return None
