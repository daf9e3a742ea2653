"""`rulesdsl explain NAME`: what the engine understood of a definition, in plain English.

Any item (card, wonder, token, military token, or an expansion's own kinds), action, rule,
age, layout, track or game of a compiled content set can be explained:

    print(explain(NAME, load_ruleset().content))   # docs/cli.md shows real output

Items and actions are explained from their compiled form (`rulesdsl.model`), whose English
texts the compiler made with `rulesdsl.explain_text`.  Rules, ages, layouts and the game keep
no name or position once compiled, so those come from the content's own sources
(`Content.sources`), parsed again.
"""

from __future__ import annotations

import functools
import textwrap
from typing import Any

import attrs

from . import ast
from . import registry as R
from .diagnostics import did_you_mean
from .explain_text import (ORDINAL, Context, article, capitalize, context_for, english, join, roman, seat, timing,
                           words)
from .loader import Merged, bundled_hint, bundled_sets, merge, read_folder
from .model import said
from .names import quoted
from .parser import parse_file
from .safe_text import canonical

KIND_ORDER = ("item", "action", "rule", "age", "layout", "track", "game", "expansion")
# Property statements an item's first line already says (from the compiled fields).
SUMMARISED = {"age", "color", "cost", "chain_from", "chain_gives", "deck", "side", "space", "points"}


class UnknownName(KeyError):
    """No definition has this name; `suggestion` is a did-you-mean text, or None."""

    def __init__(self, name: str, suggestion: str | None):
        # (`quoted`: escaped and cut where long, as every unknown name is echoed)
        message = f"nothing is named {quoted(name)}" + (f"; {suggestion}" if suggestion else "")
        super().__init__(message)   # args[0] is the whole message
        self.name = name
        self.suggestion = suggestion

    def __str__(self) -> str:
        return self.args[0]


@attrs.frozen
class Entry:
    """One thing `explain` can explain."""

    kind: str          # "card", "action", "rule", "age", "layout", ...
    name: str          # as defined: "My Card", "1" (an age)
    label: str         # as shown and looked up: "My Card", "age 1"
    group: str         # "item", "action", "rule", "age", "layout", "track", "game", "expansion"
    index: int = -1    # into content.items / actions / ages


# -- the sources, parsed again ---------------------------------------------------------------------

_SOURCES: list[tuple[Any, Merged]] = []


def source_definitions(content) -> Merged:
    """Every definition in force, as the loader merged them, from the content's sources."""
    for c, merged in _SOURCES:
        if c is content:
            return merged
    merged = Merged()
    parsed = []
    for path, text in content.sources.items():
        tree, _ = parse_file(path, text)
        if tree is not None:
            parsed.append(tree)
    merged.sources = dict(content.sources)
    merge([parsed], merged)
    _SOURCES.append((content, merged))
    del _SOURCES[:-4]
    return merged


def _definition(content, kind: str, name: str) -> ast.Definition | None:
    for d in source_definitions(content).definitions:
        if d.kind == kind and d.name == name:
            return d
    return None


def _context(content) -> Context:
    return context_for(source_definitions(content))


# -- finding a name ---------------------------------------------------------------------------------

def entries(content) -> list[Entry]:
    """Everything that can be explained, items first."""
    out = [Entry(it.kind, it.name, it.name, "item", it.id) for it in content.items]
    out += [Entry("action", a.name, a.name, "action", i) for i, a in enumerate(content.actions)]
    merged = source_definitions(content)
    out += [Entry("rule", d.name, d.name, "rule") for d in merged.by_kind("rule")]
    out += [Entry("age", n, f"age {n}", "age", i) for i, n in enumerate(content.age_names)]
    out += [Entry("layout", n, n, "layout") for n in content.layouts]
    done = set(KIND_ORDER) | set(R.ITEM_KINDS) | set(content.item_kinds or ())
    for kind in ("track", "game", "expansion", *(k for k in R.KINDS if k not in done)):
        out += [Entry(kind, d.name, d.name, kind) for d in merged.by_kind(kind)]
    return out


def find(name: str, content) -> Entry:
    """The definition called `name` (any case; `age 1`, `age I`; a kind may come first:
    `layout age1`, `action discard`).  Raises UnknownName (a KeyError) with a did-you-mean."""
    wanted = canonical(" ".join(name.split()))   # (`Café` typed finds a `Café` written NFD)
    all_entries = entries(content)
    # The name as typed first: names may differ in case alone ("Quarry", "QUARRY").
    for e in all_entries:
        if wanted in _keys(e):
            return e
    # (casefold: `STRASSE` finds `Straße`, as lower() did not; spaces as typed are collapsed, and
    # so are those of names: `"A  B"` is found as `A B`)
    loose = [e for e in all_entries if wanted.casefold() in (" ".join(k.split()).casefold() for k in _keys(e))]
    if len({e.label for e in loose}) > 1:
        raise UnknownName(name, "names that differ from it only in case: " + ", ".join(f"`{e.label}`" for e in loose))
    if loose:
        return loose[0]
    close = did_you_mean(name, [e.label for e in all_entries])
    # (a designer's own game is what they ask about: a name close to one of theirs, `age1` for
    # their `age 1`, was sent to the bundled game that has a layout `age1`)
    own_game = _game_name(content) not in bundled_sets("game")
    raise UnknownName(name, _removed_by(wanted, content) or _in_a_bundled_expansion(wanted, content)
                      or (close if own_game else None) or _in_another_bundled_game(wanted, content, all_entries)
                      or close)


def _game_name(content) -> str | None:
    return next((d.name for d in source_definitions(content).definitions if d.kind == "game"), None)


def _removed_by(wanted: str, content) -> str | None:
    """Where an expansion's `remove` took the definition of this name out of the content (a
    designer asking after a card they removed was offered another name)."""
    wanted = wanted.casefold()   # (as `find` matches a name)
    for r, old in reversed(source_definitions(content).removed):
        if wanted in (" ".join(k.split()).casefold() for k in (old.name, f"{old.kind} {old.name}")):
            return f'`remove {old.kind} "{old.name}"` at {_where(r.name_span)} took it out (defined at {_where(old.name_span)})'
    return None


# The kinds of definition a name alone may find beside items (`explain prepare`: an action).
_NAMED_KINDS = ("action", "rule", "procedure", "layout")


def _in_a_bundled_expansion(wanted: str, content) -> str | None:
    """Where a bundled expansion of the game, one not loaded, defines `wanted` (a god asked of
    the base game): its hint, `"X" is a god of the bundled expansion E: add -e E`; else None.
    Matched as `find` matches a name: in any case, and with its kind first (`god NAME`)."""
    merged = source_definitions(content)
    asked = [(what, wanted) for what in ("item", *_NAMED_KINDS)]
    kind, _, rest = wanted.partition(" ")
    if rest:
        asked.append((kind.lower(), rest))
    for what, name in asked:
        hint = bundled_hint(what, name, merged=merged, loosely=True)
        if hint is not None:
            return hint
    return None


def _in_another_bundled_game(wanted: str, content, entries_here: list[Entry]) -> str | None:
    """Where another bundled game defines `wanted` (a card of one game asked of the default
    game): `"X" is a card of the bundled game G: add --game G`; else None.  Matched in any case,
    with or without its kind first, as `find` matches a name.  What this game defines too (an
    age asked by its bare number, `1`, which names no definition alone) is this game's: its
    name as `find` takes it is suggested."""
    game = _game_name(content)
    loose = " ".join(wanted.split()).casefold()
    for other, names in _bundled_game_names():
        if other == game:
            continue
        found = names.get(loose)
        if found is not None:
            kind, said = found
            here = next((e for e in entries_here if e.kind == kind and e.name.casefold() == said.casefold()), None)
            if here is not None:
                return f"did you mean `{here.label}`?"
            return f"\"{said}\" is {article(words(kind))} of the bundled game {other}: add --game {other}"
    return None


@functools.lru_cache(maxsize=1)
def _bundled_game_names() -> tuple[tuple[str, dict[str, tuple[str, str]]], ...]:
    """Each bundled game with what it defines by name (each name loosely, and with its kind
    first): loose name -> (kind, name as defined)."""
    out = []
    for game, folder in bundled_sets("game").items():
        names: dict[str, tuple[str, str]] = {}
        for source in read_folder(folder).parsed:
            for d in source.definitions:
                if d.kind in ("game", "expansion", "invariant") or d.name is None or d.modifier is not None:
                    continue
                loose = " ".join(d.name.split()).casefold()
                for key in (loose, f"{d.kind} {loose}", f"{words(d.kind)} {loose}"):
                    names.setdefault(key, (d.kind, d.name))
        out.append((game, names))
    return tuple(out)


def _keys(e: Entry) -> list[str]:
    keys = [e.label, f"{e.kind} {e.name}", f"{words(e.kind)} {e.name}"]
    if e.kind == "age" and e.name.isdigit():
        keys.append(f"age {roman(int(e.name))}")
    return keys


# -- explaining -------------------------------------------------------------------------------------

def explain(name: str, content) -> str:
    """`name` in plain English: a first line `Name (kind, file:line)`, then what it does."""
    e = find(name, content)
    return _explain_entry(e, content) + _namesakes(name, e, content)


def _explain_entry(e: Entry, content) -> str:
    if e.group == "item":
        return _item(content.items[e.index], content)
    if e.group == "action":
        return _action(content.actions[e.index], content)
    if e.group == "rule":
        return _rule(e.name, content)
    if e.group == "age":
        return _age(e.index, content)
    if e.group == "layout":
        return _layout(e.name, content)
    return _statements(e.kind, e.name, content)


def _namesakes(name: str, e: Entry, content) -> str:
    """A line for each other definition the bare name also names (an action and a procedure
    may share a name): which one was explained is not the only one, and how to ask for the
    other.  Nothing when the name already said the kind (`procedure my_block`)."""
    wanted = canonical(" ".join(name.split())).casefold()
    if wanted != e.label.casefold() and wanted != e.name.casefold():
        return ""
    # (the copies of an item are one definition: not "also named" after themselves)
    others = list({(o.kind, o.name): o for o in entries(content)
                   if (o.kind, o.name) != (e.kind, e.name) and wanted in (o.label.casefold(), o.name.casefold())}.values())
    return "".join(f"\n  Also named `{o.name}`: {article(words(o.kind))} (`rulesdsl explain {o.kind} {o.name}` "
                   f"explains it)." for o in others)


def _where(span) -> str:
    return f"{span.file}:{span.line}" if span is not None else "?"


def _header(label: str, kind: str, span, content=None, name: str | None = None) -> str:
    """`Label (kind, file:line)`, and where the content's expansions changed the definition
    (`; extended at file:line`, `; replaces file:line`): what the lines below say is the
    definition in force, which the first place alone does not show."""
    changed = _changed_where(content, kind, name) if content is not None else ""
    return f"{label} ({kind}, {_where(span)}{changed})"


def _changed_where(content, kind: str, name: str | None) -> str:
    merged = source_definitions(content)
    said = []
    old = merged.replaced.get((kind, name))
    if old is not None:
        said.append(f"replaces {_where(old.name_span)}")
    said += [f"extended at {_where(d.name_span)}" for d in merged.changes
             if d.modifier == "extend" and (d.kind, d.name) == (kind, name)]
    return "".join(f"; {x}" for x in said)


def wrapped(text: str, width: int) -> str:
    """`explain`'s text for a terminal `width` columns wide: each line longer than that broken
    between words, its continuation lines indented four columns more than it (a terminal's own
    wrapping breaks words and loses the indent).  Words are never broken; lines are wrapped at
    40 columns at the least."""
    width = max(width, 40)
    out = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        indent = line[:len(line) - len(line.lstrip())]
        out.append(textwrap.fill(line.strip(), width, initial_indent=indent, subsequent_indent=indent + "    ",
                                 break_long_words=False, break_on_hyphens=False))
    return "\n".join(out)


def _lines(header: str, lines: list[str]) -> str:
    return "\n".join([header] + ["  " + _sentence(x) for x in lines if x])


def _sentence(text: str) -> str:
    text = text.rstrip()
    return text if text.endswith((".", "!", "?", ":")) else text + "."


def lower_first(text: str, content) -> str:
    """Lower-case the first letter, unless the text starts with a name (`Great Card`)."""
    if not text or (len(text) > 1 and text[1].isupper()):
        return text
    for name in content.item_index:
        if text.startswith(name) and text[len(name):len(name) + 1] in ("", " ", ",", ";", "'"):
            return text
    return text[:1].lower() + text[1:]


def _zone_name(content, zone: int) -> str:
    return content.zones[zone].name if 0 <= zone < len(content.zones) else ""


def _cost_text(cost, content) -> str:
    parts = []
    if cost.coins:
        parts.append(f"{cost.coins} coin{'s' if cost.coins != 1 else ''}")
    for r, n in enumerate(cost.resources):
        if n:
            parts.append(f"{n} {words(content.resources[r])}")
    return join(parts) or "nothing"


def _zone_text(content, zone: int) -> str:
    from .explain_text import Scope, zone_phrase
    return zone_phrase(_zone_name(content, zone), None, Scope(_context(content)))


def _default_zone(it, content) -> str | None:
    if it.kind == "card" and it.age is not None:
        return f"age{it.age}"
    game = source_definitions(content)
    for d in game.by_kind("game") + game.by_kind("expansion"):
        for s in d.block.statements if d.block else ():
            names = [a.name for a in s.args if isinstance(a, ast.Name)]
            if s.verb == "start_zone" and len(names) == 2 and names[0] == it.kind:
                return names[1]
    return None


def _identity(it, content) -> str:
    """The first line: "Age III yellow card. Cost: 2 papyrus. Gives the vase chain symbol."."""
    if it.kind == "card":
        desc = " ".join(x for x in (f"Age {roman(it.age)}" if it.age else "", it.color or "", "card") if x)
    elif it.kind == "military_token" and it.side >= 0:
        desc = (f"Military token on {seat(it.side)}'s half of the conflict track, taken when the conflict "
                f"pawn reaches {it.space} spaces from the centre")
    else:
        desc = words(it.kind)
    zone = _zone_name(content, it.deck)
    if zone and it.kind != "military_token" and zone != _default_zone(it, content):
        desc += f", from {_zone_text(content, it.deck)}"
    parts = [capitalize(desc) + "."]
    if it.cost is not None:
        # (a computed coin cost has a line of its own: "Cost: nothing." above it said otherwise)
        if it.cost.coins_fn is None or _cost_text(it.cost, content) != "nothing":
            parts.append(f"Cost: {_cost_text(it.cost, content)}.")
    elif any(other.cost is not None for other in content.items if other.kind == it.kind):
        parts.append("No cost.")  # a kind that is paid for: saying so is worth a line
    for sym in it.chain_from:
        parts.append(f"Free to build if you have the {words(sym)} chain symbol.")
    for sym in it.chain_gives:
        parts.append(f"Gives the {words(sym)} chain symbol.")
    return " ".join(parts)


def _property_texts(it, content) -> list[str]:
    """The texts of the item's properties other than those its first line says, in source order."""
    d = _definition(content, it.kind, it.name)
    effects = content.blocks[it.effect].texts if it.effect >= 0 else []
    head = it.texts[: len(it.texts) - len(effects)] if effects else list(it.texts)
    triggers = {t.text for t in it.triggers}
    points = {said(text) for _, text in it.points}
    if d is not None and d.block is not None:
        statics = [s for s in d.block.statements
                   if (v := R.verb_for(it.kind, s.verb)) is not None and v.role != R.EFFECT]
        if len(statics) == len(head):
            return [t for s, t in zip(statics, head)
                    if s.verb not in SUMMARISED and R.verb_for(it.kind, s.verb).role != R.TRIGGER]
    return [t for t in head if t not in triggers and t not in points]


def _item(it, content) -> str:
    lines = [_identity(it, content)]
    lines += _ruled_texts(it, content)   # (first: it says for whom all the rest works)
    lines += _property_texts(it, content)
    if it.effect >= 0 and content.blocks[it.effect].texts:
        when = _when(it, content)
        lines.append(f"{when}: " + "; ".join(lower_first(t, content) for t in content.blocks[it.effect].texts))
    lines += [t.text for t in it.triggers]
    for _, phrase in it.points:
        text = said(phrase)
        text = text[len("Worth "):] if text.startswith("Worth ") else lower_first(text, content)
        lines.append(f"End of game: {text}")
    return _lines(_header(it.name, it.kind, it.span, content, it.name), lines)


def _ruled_texts(it, content) -> list[str]:
    """For an item that may lie in a zone `ruled_by=` another: whom it works for there, and
    which events it hears (docs/language.md, "ruled_by")."""
    ctx = _context(content)
    out = []
    for zone in content.zones:
        if zone.ruled_by >= 0 and it.kind in ctx.holds.get(zone.name, ()):
            ruler = _zone_text(content, zone.ruled_by)
            out.append(f"While in {_zone_text(content, content.zones.index(zone))}, it works for whoever "
                       f"controls its space of {ruler}, and hears only the events of that space")
    return out


def _when(it, content) -> str:
    """How an item's block comes to run, from how the content runs blocks of its kind: a
    token on the conflict track when the pawn reaches it, else by the verbs that name such
    items (`build`, `acquire`, `trigger`)."""
    if it.side >= 0:
        return "When the conflict pawn reaches it"
    found = timing(it.kind, _context(content))
    if found is not None:
        return found
    # (no statement names such an item: an item with a cost is built, whatever its kind)
    return "When built" if it.cost is not None else "When taken"


def _action(act, content) -> str:
    p = len(act.params)
    effects = list(content.blocks[act.block].texts)
    # The compiled texts: the parameters and requirements (in source order), then the effects.
    if effects and list(act.texts[-len(effects):]) == effects:
        head, rest = list(act.texts[:-len(effects)]), effects
    else:
        head, rest = list(act.texts), []
    lines = [capitalize(t) for t in head]
    for i in act.paid:
        if i < p:
            lines.append(f"Legal only if you can pay for the {words(act.params[i].name)}")
    lines += _payment_texts(act, content)
    if rest:
        lines.append("Then: " + "; ".join(lower_first(t, content) for t in rest))
    lines.insert(0, "Something a player may do on their turn")
    return _lines(_header(act.name, "action", act.span, content, act.name), lines)


def _payment_texts(act, content) -> list[str]:
    """What else the action pays, as the engine checks it before the action is legal (`pays`):
    its `pay` statements and the items it builds by name."""
    d = _definition(content, "action", act.name)
    if d is None or d.block is None or not act.pays:
        return []
    ctx = _context(content)
    out = []
    for s in d.block.statements:
        if s.verb == "pay":
            out.append("Legal only if you can " + lower_first(english(s, context=ctx), content))
        elif s.verb == "build" and len(s.args) == 1 and isinstance(s.args[0], ast.Str):
            out.append(f"Legal only if you can pay for {s.args[0].value}")
    return out


def _rule(name: str, content) -> str:
    merged = source_definitions(content)
    rules = merged.by_kind("rule")
    d = next(x for x in rules if x.name == name)
    start = sum(len(x.block.statements) for x in rules[: rules.index(d)] if x.block)
    count = len(d.block.statements) if d.block else 0
    compiled = content.rules[start:start + count]
    if len(compiled) == count and all(t.item == -1 for t in compiled):
        texts = [t.text for t in compiled]
    else:
        ctx = _context(content)
        texts = [english(s, context=ctx, kind="rule") for s in (d.block.statements if d.block else ())]
    return _lines(_header(name, "rule", d.name_span, content, name), ["Always in force, for every player"] + texts)


def _age(index: int, content) -> str:
    name = content.age_names[index]
    d = _definition(content, "age", name)
    n = len(content.ages)
    order = ORDINAL[index] if index < len(ORDINAL) else f"number {index + 1}"
    lines = [f"The {order} of {n} age{'s' if n != 1 else ''}; ages run in the order they are defined. "
             f"When it begins" + (":" if content.blocks[content.ages[index]].texts else ", nothing happens")]
    lines += content.blocks[content.ages[index]].texts
    return _lines(_header(f"age {name}", "age", d.name_span if d else None, content, name), lines)


def _layout(name: str, content) -> str:
    lay = content.layouts[name]
    d = _definition(content, "layout", name)
    n = len(lay.face_up)
    lines = [f"A structure of {n} card{'s' if n != 1 else ''} in {len(lay.rows)} rows, from the top "
             f"(farthest from the players) down:"]
    for r, row in enumerate(lay.rows):
        faces = {lay.face_up[s] for s in row}
        face = "face up" if faces == {True} else "face down" if faces == {False} else "mixed"
        cols = join([str(lay.columns[s]) for s in row])
        lines.append(f"  row {r + 1}: {len(row)} card{'s' if len(row) != 1 else ''} {face}, "
                     f"at half-card columns {cols}")
    lines.append("A card is covered by the cards of the next row one column to its left or right; it can "
                 "be taken once none covers it, and a face-down card is turned face up then")
    for mark, slots in lay.marks.items():   # (where `deal_onto_structure ... marked=` deals)
        lines.append(f"Slot{'s' if len(slots) != 1 else ''} {join([str(x) for x in slots])} "
                     f"{'are' if len(slots) != 1 else 'is'} marked {mark}")
    users = []
    for i, age in enumerate(source_definitions(content).by_kind("age")):
        for s in age.block.statements if age.block else ():
            if any(k.name == "layout" and isinstance(k.value, ast.Name) and k.value.name == name for k in s.kwargs):
                users.append(f"age {age.name}")
    if users:
        lines.append("Used by " + join(users))
    return _lines(_header(name, "layout", d.name_span if d else None, content, name), lines)


def _statements(kind: str, name: str, content) -> str:
    d = _definition(content, kind, name)
    ctx = _context(content)
    doc = R.KINDS[kind].doc if kind in R.KINDS else ""
    # (a doc that shows an example, "An expansion header: `expansion my_fan_set ...`", keeps
    # only its words: the example is not this definition)
    doc = doc.split(": `")[0]
    lines = [doc.rstrip(".")] if doc else []
    # (a procedure's own name is being explained: a `run` of it inside names it)
    running = (name,) if kind == "procedure" else ()
    if d is not None and d.block is not None:
        for s in d.block.statements:
            text = english(s, context=ctx, kind=kind, running=running)
            if s.verb == "else" and lines:
                # (its `if` is the line before: "if ..., ...; otherwise, ...", one sentence)
                lines[-1] += "; " + text[:1].lower() + text[1:]
            else:
                lines.append(text)
    return _lines(_header(name, kind, d.name_span if d else None, content, name), lines)
