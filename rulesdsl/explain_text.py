"""Plain-English renderings of statements and expressions: the `texts` of compiled items and
actions, `rulesdsl explain` and the docs.

The sentence templates live in the registry (`Verb.explain`); this module fills them in.  A
template names the verb's parameters and options in braces, and a format spec after a colon
says how to render a value:

    {who:gain}        subject and verb: "gain" (you: imperative), "the opponent gains"
    {me:+win}         the same, the subject always written: "you win"
    {who:poss}        possessive: "your", "the opponent's"
    {amount:coins}    an amount in a unit: "3 coins", "1 coin for each grey card in your city"
    {age:roman}       a number in Roman numerals: "III"
    {player:seat}     a seat number as a player: "the first player"
    {name:a}          with an article: "a card", "an item"
    {kind:plural}     plural: "wonders", "military tokens"
    {category:source} a score category as what scores it: "blue cards", "wonders", "coins"
    {onto:?, on %}    optional: "" when the value is empty, else the text with % replaced

Besides parameters and options, every template may use {me} (the player the effect belongs
to), {what} ("1 card": the count and noun of a choose or deal), {noun} / {nouns} (what a
zone or filter holds), {filter} (the filter options as a noun, or ""), {event} (the clause of
a `when`) and {block} (the statement's block, rendered).

Phrasing is generic: it comes from the templates, the verbs' parameter types, the functions
and names of the registry, and what the game definition says about zones (`Context`).
"""

from __future__ import annotations

import re
from typing import Any, Callable

import attrs

from . import ast
from . import registry as R
from .flows import propagate

OWNER_TEXT = {"me": "your", "opponent": "the opponent's", "all": "every player's",
              "most": "the city with the most", "any": "any"}
# The seat words that name one player (docs/language.md, "Seats"), as sentence subjects.
# ({poss}: whose seats they are, the statement's player's: "your", or "their" inside `each_player`.)
SEAT_TEXT = {"left": "{poss} left neighbour", "right": "{poss} right neighbour"}
SEVERAL_TEXT = {"neighbours": "{poss} neighbours", "others": "the other players"}


def seat_words(word: str, scope: "Scope") -> str:
    """A seat word as the statement's player sees it: `left` -> "your left neighbour", or
    "their left neighbour" for each player of an `each_player`."""
    text = {**SEAT_TEXT, **SEVERAL_TEXT}[word]
    return text.format(poss=scope.me.poss)


# -- source text --------------------------------------------------------------------------------

def unparse(e: ast.Expr) -> str:
    """Source-like text of an expression."""
    if isinstance(e, ast.Int):
        return str(e.value)
    if isinstance(e, ast.Str):
        return f'"{e.value}"'
    if isinstance(e, ast.Name):
        return e.name
    if isinstance(e, ast.Attribute):
        return f"{unparse(e.obj)}.{e.name}"
    if isinstance(e, ast.Alternatives):
        return "|".join(e.names)
    if isinstance(e, ast.ListExpr):
        return "[" + ", ".join(unparse(i) for i in e.items) + "]"
    if isinstance(e, ast.Not):
        return f"not {unparse(e.operand)}"
    if isinstance(e, ast.BinOp):
        return f"{unparse(e.left)} {e.op} {unparse(e.right)}"
    if isinstance(e, ast.Call):
        parts = [unparse(a) for a in e.args] + [f"{k.name}={unparse(k.value)}" for k in e.kwargs]
        return f"{e.func}({', '.join(parts)})"
    return "?"


# -- small English helpers ----------------------------------------------------------------------

ROMAN = ["", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"]
ORDINAL = ["first", "second", "third", "fourth", "fifth", "sixth"]
IRREGULAR = {"have": "has", "be": "is", "do": "does", "go": "goes"}


def words(name: str) -> str:
    """`plumb_bob` -> "plumb bob", `age1` -> "age 1"."""
    return re.sub(r"(?<=[A-Za-z])(?=\d)", " ", name).replace("_", " ")


def plural(noun: str) -> str:
    if not noun or noun.endswith(("VP",)):
        return noun
    if noun.endswith(("s", "x", "ch", "sh")):
        return noun + "es"
    if noun.endswith("y") and noun[-2:-1] not in "aeiou":
        return noun[:-1] + "ies"
    return noun + "s"


def singular(noun: str) -> str:
    if noun.isupper() or not noun.endswith("s"):
        return noun
    if noun.endswith("ies"):
        return noun[:-3] + "y"
    return noun[:-1]


def third_person(verb: str) -> str:
    """The verb as "he/she/it" uses it: build -> builds, choose -> chooses, have -> has."""
    head, _, rest = verb.partition(" ")
    if head in IRREGULAR:
        head = IRREGULAR[head]
    elif head.endswith(("s", "x", "z", "ch", "sh", "o")):
        head += "es"
    elif head.endswith("y") and head[-2:-1] not in "aeiou":
        head = head[:-1] + "ies"
    else:
        head += "s"
    return head + (" " + rest if rest else "")


def article(noun: str) -> str:
    if not noun:
        return noun
    return ("an " if noun[0].lower() in "aeiou" else "a ") + noun


def join(items: list[str], last: str = "and") -> str:
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


def roman(n: int) -> str:
    return ROMAN[n] if 0 < n < len(ROMAN) else str(n)


def seat(n: int) -> str:
    return f"the {ORDINAL[n]} player" if 0 <= n < len(ORDINAL) else f"player {n + 1}"


def capitalize(text: str) -> str:
    return text[:1].upper() + text[1:]


# -- what the game says about its zones -----------------------------------------------------------

@attrs.define
class Context:
    """What the game definition says that phrasing needs: which zones exist once per player,
    which is the discard pile, which are decks (items start there), what kind of item each
    zone holds (when only one kind ever goes there), the vocabulary and whom resources are
    bought from."""

    zones: set[str] = attrs.Factory(set)
    player_zones: set[str] = attrs.Factory(set)
    decks: set[str] = attrs.Factory(set)
    discard_pile: str | None = None
    nouns: dict[str, str] = attrs.Factory(dict)
    colors: set[str] = attrs.Factory(set)
    kinds: set[str] = attrs.Factory(lambda: set(R.ITEM_KINDS))
    vocabulary: set[str] = attrs.Factory(set)
    items: dict[str, str] = attrs.Factory(dict)   # item name -> kind
    seller: str = "the bank"   # (a game with `trade neighbours` buys from the neighbours only)
    # The game's two tie-breaks: each is explained on its own line, and a line must not call a
    # tie shared while the other one still follows.
    tiebreak_value: ast.Expr | None = None      # `tiebreak_by VALUE`
    tiebreak_category: ast.Expr | None = None   # `tiebreak CATEGORY`
    # `procedure NAME { ... }`: the blocks `run NAME` runs, explained in place.
    procedures: dict[str, ast.Block] = attrs.Factory(dict)
    # How the content runs the block of an item of each kind: the verbs (`build`, `acquire`,
    # `trigger`) it applies to items of that kind; what an item's "When ...:" line says.
    runs: dict[str, set[str]] = attrs.Factory(dict)
    active_zones: set[str] = attrs.Factory(set)   # `active` or a build_zone: what is there is "had"
    holds: dict[str, set[str]] = attrs.Factory(dict)   # zone -> the kinds of item that may be there
    labels: dict[str, str] = attrs.Factory(dict)   # zone -> its `label=`: how it is named
    # `run NAME` explained in place, by procedure and the scope it runs in (the scope without
    # this context): the compiler explains every statement, and a procedure run from many
    # places would be explained anew each time.
    run_texts: dict = attrs.field(factory=dict, eq=False, repr=False)

    def noun(self, zone: str) -> str | None:
        return self.nouns.get(zone)

    @classmethod
    def from_merged(cls, merged) -> "Context":
        """From a loader `Merged` (every definition in force)."""
        from .checker import item_start_zone
        ctx = cls()
        defs = [d for d in merged.definitions if d.block is not None]
        start_zone: dict[str, str] = {}
        holds: dict[str, set[str]] = {}
        edges: list[tuple[str, str]] = []
        discard_sources: list[str] = []
        run_zones: list[tuple[str, str, str | None]] = []   # (a verb of RUNNERS, its item's zone, `kind=`)
        for d in defs:
            if d.kind not in ("game", "expansion"):
                continue
            for s in d.block.statements:
                names = [a.name for a in s.args if isinstance(a, ast.Name)]
                if s.verb == "zone" and names:
                    ctx.zones.add(names[0])
                    label = _kw(s).get("label")
                    if isinstance(label, ast.Str) and label.value.strip():
                        ctx.labels[names[0]] = " ".join(label.value.split())
                    if "player" in names[1:]:
                        ctx.player_zones.add(names[0])
                    if "active" in names[1:]:
                        ctx.active_zones.add(names[0])
                elif s.verb == "build_zone" and len(names) == 2:
                    holds.setdefault(names[1], set()).add(names[0])
                    ctx.active_zones.add(names[1])
                elif s.verb == "start_zone" and len(names) == 2:
                    start_zone[names[0]] = names[1]
                elif s.verb == "discard_pile" and names:
                    ctx.discard_pile = names[0]
                elif s.verb == "colors":
                    ctx.colors.update(names)
                elif s.verb == "item_kinds":
                    ctx.kinds.update(names)
                elif s.verb == "trade" and names[:1] == ["neighbours"]:
                    ctx.seller = "a neighbour"
                elif s.verb == "tiebreak_by" and s.args and d.kind == "game":
                    ctx.tiebreak_value = s.args[0]
                elif s.verb == "tiebreak" and s.args and d.kind == "game":
                    ctx.tiebreak_category = s.args[0]
                if s.verb in ("resources", "colors", "science", "chains"):
                    ctx.vocabulary.update(names)
        for d in defs:
            if d.kind == "procedure":
                ctx.procedures[d.name] = d.block
        for d in defs:
            if d.kind in ctx.kinds or d.kind in R.ITEM_KINDS:
                ctx.items[d.name] = d.kind
                zone = item_start_zone(d, start_zone)
                if zone:
                    ctx.decks.add(zone)
                    holds.setdefault(zone, set()).add(d.kind)

        def walk(statements, env: dict[str, str], picked_kind: dict[str, str]) -> None:
            env, picked_kind = dict(env), dict(picked_kind)
            for s in statements:
                a = s.args
                names = [x.name if isinstance(x, ast.Name) else None for x in a]
                kind = _name(_kw(s).get("kind"))
                if s.verb == "param" and len(a) >= 3 and names[0] and names[2]:
                    env[names[0]] = names[2]
                    if kind:
                        picked_kind[names[0]] = kind
                elif s.verb in ("deal", "take_top") and len(a) >= 3 and names[1] and names[2]:
                    edges.append((names[1], names[2]))
                elif s.verb == "move_all" and len(a) >= 2 and names[0] and names[1]:
                    edges.append((names[0], names[1]))
                elif s.verb == "deal_structure" and a and names[0]:
                    edges.append((names[0], "structure"))
                elif s.verb == "move" and len(a) >= 2 and names[1]:
                    if names[0] in env:
                        edges.append((env[names[0]], names[1]))
                    elif isinstance(a[0], ast.Str) and a[0].value in ctx.items:
                        holds.setdefault(names[1], set()).add(ctx.items[a[0].value])
                elif s.verb == "discard" and a and names[0] in env:
                    discard_sources.append(env[names[0]])
                elif s.verb in RUNNERS and a and names[0] in env:
                    run_zones.append((s.verb, env[names[0]], picked_kind.get(names[0])))
                inner, inner_kind = env, picked_kind
                if s.verb == "choose" and len(a) >= 3 and names[2]:
                    picked = ("chosen",) + ((_name(_kw(s)["as"]),) if _name(_kw(s).get("as")) else ())
                    inner = {**env, **{n: names[2] for n in picked}}
                    inner_kind = {k: v for k, v in picked_kind.items() if k not in picked}
                    inner_kind.update({n: kind for n in picked if kind})
                if s.block is not None:
                    walk(s.block.statements, inner, inner_kind)

        for d in defs:
            walk(d.block.statements, {}, {})
        if ctx.discard_pile:
            edges.extend((z, ctx.discard_pile) for z in discard_sources)
        propagate(edges, holds)
        ctx.nouns = {z: next(iter(k)) for z, k in holds.items() if len(k) == 1}
        ctx.holds = holds
        for verb, zone, kind in run_zones:
            # (an item of a zone of several kinds, picked with no `kind=`, is of no kind known)
            found = {kind} if kind else holds.get(zone, set())
            if len(found) == 1:
                ctx.runs.setdefault(next(iter(found)), set()).add(verb)
        return ctx


# The verbs that run an item's own block (its effects), and how an item's timing line says so.
RUNNERS = {"build": "built", "acquire": "taken", "trigger": "triggered"}


def timing(kind: str, ctx: Context | None) -> str | None:
    """"When built", "When triggered", "When built or taken": how the content runs the block of
    an item of this kind; None when no statement of the content names such an item."""
    verbs = ctx.runs.get(kind) if ctx is not None else None
    if not verbs:
        return None
    return "When " + join([RUNNERS[v] for v in RUNNERS if v in verbs], "or")


_CONTEXTS: list[tuple[Any, Context]] = []


def context_for(merged) -> Context:
    """The Context of a Merged, computed once per Merged object."""
    for m, ctx in _CONTEXTS:
        if m is merged:
            return ctx
    ctx = Context.from_merged(merged)
    _CONTEXTS.append((merged, ctx))
    del _CONTEXTS[:-4]
    return ctx


def _context_of(block_text) -> Context | None:
    # The compiler passes its bound `block_text`; its object carries the merged definitions.
    merged = getattr(getattr(block_text, "__self__", None), "merged", None)
    if merged is not None and hasattr(merged, "definitions"):
        return context_for(merged)
    return None


# -- who does things --------------------------------------------------------------------------------

@attrs.frozen
class Subject:
    """A player as a sentence names them."""

    text: str            # as the subject of a sentence: "you", "the opponent", "" (left out)
    ref: str             # inside a clause: "you", "the opponent", "they"
    poss: str            # "your", "the opponent's", "their"

    def says(self, verb: str, explicit: bool = False) -> str:
        """The subject and its verb: "gain" / "you gain" (explicit) / "the opponent gains"."""
        if self.text == "you":
            return f"you {'are' if verb == 'be' else verb}" if explicit else verb
        if not self.text:
            return third_person(verb)
        return f"{self.text} {verb if self.text in ('they',) else third_person(verb)}"

    def clause(self, verb: str, conjugate: bool = True) -> str:
        """As in a relative clause: "you have", "the opponent has", "they have"."""
        if not conjugate or self.ref in ("you", "they") or self.ref.endswith("cards"):
            return f"{self.ref} {'are' if conjugate and verb == 'be' else verb}"
        return f"{self.ref} {third_person(verb)}"


@attrs.frozen
class _Said(Subject):
    """"you" written out where the plain imperative would read as the sentence's subject (an
    effect inside another player's choice that falls on the owner)."""

    def says(self, verb: str, explicit: bool = False) -> str:
        return super().says(verb, explicit=True)


@attrs.frozen
class _May(Subject):
    """A subject who may do something (an optional choice)."""

    def __init__(self, who: Subject):
        self.__attrs_init__(who.text, who.ref, who.poss)

    def says(self, verb: str, explicit: bool = False) -> str:
        return f"{self.text} may {verb}".strip()


YOU = Subject("you", "you", "your")
OPPONENT = Subject("the opponent", "the opponent", "the opponent's")
EACH_PLAYER = Subject("each player", "they", "their")
THAT_PLAYER = Subject("that player", "that player", "that player's")
LEFT_OUT = Subject("", "they", "their")   # after "and", the subject of the sentence goes on
THEY = Subject("they", "they", "their")
YOU_SAID = _Said("you", "you", "your")
THEIR_OPPONENT = Subject("their opponent", "their opponent", "their opponent's")


def seat_subject(n: int) -> Subject:
    s = seat(n)
    return Subject(s, s, s + "'s")


@attrs.frozen
class Scope:
    """Where a statement stands: who "you" is, what `chosen` and `event` are."""

    ctx: Context | None = None
    me: Subject = YOU
    opponent: Subject = OPPONENT     # who `opponent` is: the block of another's choice runs as them
    chosen: str | None = None        # how `chosen` reads: "it", "them", "that player"
    chosen_names: tuple[str, ...] = ("chosen",)   # `as=NAME` gives the pick another name
    chosen_noun: str = "item"                     # what the pick is: "card"
    earlier: tuple[tuple[str, str], ...] = ()      # names of enclosing picks, and how they read
    chosen_player: bool = False
    event: str | None = None         # the event of the enclosing `when`
    actor: Subject | None = None     # who made that event happen
    event_noun: str | None = None    # what the event's item is ("red card")
    running: tuple[str, ...] = ()    # the procedures being explained in place, outermost first


# -- quantities ------------------------------------------------------------------------------------

CMP_WORDS = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most", ">": "is more than",
             ">=": "is at least"}
HOW_MANY = {">=": "at least", ">": "more than", "<=": "at most", "<": "fewer than", "==": "exactly"}
NEGATE = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}
FLIP = {"==": "==", "!=": "!=", "<": ">", ">": "<", "<=": ">=", ">=": "<="}


def _none_or_some(op: str, n: str) -> bool | None:
    """Whether `COUNT op n` says "none" (True) or "at least one" (False); None when neither."""
    if (op, n) in (("==", "0"), ("<=", "0"), ("<", "1")):
        return True
    if (op, n) in (("!=", "0"), (">", "0"), (">=", "1")):
        return False
    return None


@attrs.frozen
class Quantity:
    """Something countable: "grey card in your city", "coin you have"."""

    sing: str
    plural: str
    owner: Subject | None = None     # who has them: "you have ..."
    verb: str = "have"
    conjugate: bool = True
    loc: str = ""                    # where they are: "in your city"
    tail: str = ""                   # after the verb: " towards the opponent's capital"
    whole: str = ""                  # the whole of a zone counted unfiltered: "your pile"

    def _rel(self) -> str:
        return f"{self.owner.clause(self.verb, self.conjugate)}{self.tail}" if self.owner else ""

    def each(self) -> str:
        """After "for each": "grey card in your city", "different scientific symbol you have"."""
        return " ".join(x for x in (self.sing, self.loc or self._rel()) if x)

    def every(self) -> str:
        """After "for every 3": "coins you have"."""
        return " ".join(x for x in (self.plural, self.loc or self._rel()) if x)

    def number(self) -> str:
        return "the number of " + self.every()

    def as_many(self, unit: str) -> str:
        if self.owner and not self.loc:
            return f"as many {unit} as {self._rel()}"
        return f"as many {unit} as there are {self.every()}"

    def compare(self, op: str, n: str) -> str:
        none = _none_or_some(op, n)
        if none is not None and (self.whole or self.loc or (self.owner and self.verb == "have")):
            return self.emptiness(none)
        if op in HOW_MANY and self.owner:
            noun = self.sing if n == "1" else self.plural
            loc = " " + self.loc if self.loc else ""
            return f"{self.owner.clause(self.verb, self.conjugate)} {HOW_MANY[op]} {n} {noun}{self.tail}{loc}"
        return f"{self.number()} {CMP_WORDS[op]} {n}"

    def emptiness(self, none: bool) -> str:
        """"your pile is empty", "you have no red cards in your pile", "there is at least 1 item
        lying on it" (a count compared with 0, where "exactly 0 items" read as items had)."""
        if self.whole:
            return f"{self.whole} is {'empty' if none else 'not empty'}"
        loc = " " + self.loc if self.loc else ""
        if self.owner and self.verb == "have":
            what = f"no {self.plural}" if none else f"at least 1 {self.sing}"
            return f"{self.owner.clause(self.verb, self.conjugate)} {what}{self.tail}{loc}"
        return f"there {'are no ' + self.plural if none else 'is at least 1 ' + self.sing}{loc}"

    def parity(self, even: bool) -> str:
        which = "an even" if even else "an odd"
        if self.owner:
            loc = " " + self.loc if self.loc else ""
            return f"{self.owner.clause(self.verb, self.conjugate)} {which} number of {self.plural}{self.tail}{loc}"
        return f"{self.number()} is {'even' if even else 'odd'}"


# -- the renderer ----------------------------------------------------------------------------------

def _kw(node) -> dict[str, ast.Expr]:
    return {k.name: k.value for k in node.kwargs}


def _name(e: ast.Expr | None) -> str | None:
    return e.name if isinstance(e, ast.Name) else None


def _colors(e: ast.Expr) -> list[str]:
    if isinstance(e, ast.ListExpr):
        return [words(i.name) if isinstance(i, ast.Name) else unparse(i) for i in e.items]
    return [words(e.name)] if isinstance(e, ast.Name) else [unparse(e)]


# A zone named by a word that is no noun (a past participle, a preposition) reads as a name,
# "the `picked` zone", not "the picked".  Generic English, no content's names (a test checks
# these words against every name the bundled content defines): a word of 6 letters or more
# ending in "-ed" (picked, revealed, locked; not shed, seed), or one of these function words,
# irregular past participles and prepositions.
PARTICIPLE_MIN_LENGTH = 6
NOT_NOUNS = frozenset({"hidden", "chosen", "given", "kept", "held", "spent",
                       "over", "above", "below", "beneath", "behind", "beside", "aside", "away",
                       "within", "between", "among", "around"})


def _not_a_noun(word: str) -> bool:
    return word in NOT_NOUNS or (len(word) >= PARTICIPLE_MIN_LENGTH and word.endswith("ed"))


def zone_label(name: str, scope: Scope | None = None) -> str:
    """A zone's name as a noun: its `label=` when it has one (`under` -> "cards under the
    wonders"), said as written; else `my_pile` -> "my pile", `picked` -> "`picked` zone"."""
    label = _label(name, scope)
    if label:
        return label
    text = words(name)
    if " " not in text and _not_a_noun(text.lower()):
        return f"`{name}` zone"
    return text


def _label(name: str, scope: Scope | None) -> str | None:
    ctx = scope.ctx if scope is not None else None
    return ctx.labels.get(name) if ctx is not None else None


def zone_words(name: str, scope: Scope) -> str:
    """A shared zone's words: its `label=`; else `discard` -> "discard pile" (the game's discard
    pile), `age1` -> "age 1 deck" (items start there), or "age 3 zone" where "age 3 deck" is
    another zone."""
    text = words(name)
    ctx = scope.ctx
    label = zone_label(name, scope)
    if ctx is None or label != text:
        return label
    taken = {words(z) for z in ctx.zones if z != name}
    if name == ctx.discard_pile and not text.endswith("pile"):
        text += " pile"
    elif name in ctx.decks and text[-1:].isdigit():
        text += " deck"
    if text in taken or (text != words(name) and words(name) in taken):
        text = words(name) + " zone"
    return text


def is_player_zone(name: str, scope: Scope, owner: ast.Expr | None) -> bool:
    if scope.ctx is not None:
        return name in scope.ctx.player_zones
    return owner is not None


def owner_poss(owner: ast.Expr | None, scope: Scope) -> str:
    o = _name(owner)
    if owner is None or o == "me":
        return scope.me.poss
    if o in ("all",):
        return "every player's"
    if o == "any":
        return "any player's"
    if o == "most":
        return "the player with the most"
    if o in SEVERAL_TEXT:
        return seat_words(o, scope) + "'"
    return subject_of(owner, scope).poss


def zone_phrase(zone: ast.Expr | str | None, owner: ast.Expr | None, scope: Scope) -> str:
    if isinstance(zone, ast.ListExpr):
        return join([zone_phrase(z, owner, scope) for z in zone.items], "or")
    name = zone if isinstance(zone, str) or zone is None else _name(zone)
    if name is None:
        return phrase(zone, scope) if zone is not None else "somewhere"
    if name == "structure":
        return "the structure"
    if name == "structure_all":
        return "the structure (covered cards too)"
    if is_player_zone(name, scope, owner):
        if owner is not None and not _simple_owner(owner):
            return f"the {zone_label(name, scope)} of {phrase(owner, scope)}"
        return f"{owner_poss(owner, scope)} {zone_label(name, scope)}"
    return "the " + zone_words(name, scope)


def _simple_owner(owner: ast.Expr) -> bool:
    return isinstance(owner, ast.Name) or (isinstance(owner, ast.Call) and owner.func == "player")


def zone_noun(name: str | None, scope: Scope) -> str | None:
    if name is None:
        return None
    if name in ("structure", "structure_all") and scope.ctx is not None:
        name = "structure"
    if scope.ctx is not None:
        noun = scope.ctx.noun(name)
        return words(noun) if noun else None
    last = words(name).split(" ")[-1]
    return singular(last) if singular(last) in R.ITEM_KINDS else None


def noun_parts(zone: str | None, kw: dict[str, ast.Expr], scope: Scope) -> tuple[list[str], str, str] | None:
    """What the filters (color=, kind=, age=, deck=) and the zone say is picked or counted, as
    (adjectives, noun, after): (["grey"], "card", ""); None when nothing is known."""
    kind = _name(kw.get("kind"))
    colors = _colors(kw["color"]) if "color" in kw else []
    deck = _name(kw.get("deck"))
    base = words(kind) if kind else zone_noun(zone, scope) or zone_noun(deck, scope) or ("card" if colors else None)
    age = kw.get("age")
    adjs = []
    if isinstance(age, ast.Int):
        adjs.append(f"Age {roman(age.value)}")
    elif age is not None:
        adjs.append(f"age {phrase(age, scope)}")
    if colors:
        adjs.append(join(colors, "or"))
    if base is None:
        if not adjs and "deck" not in kw and "where" not in kw:
            return None
        base = "item"
    after = (" from " + zone_phrase(kw["deck"], None, scope)) if "deck" in kw else ""
    if "where" in kw:
        after += " where " + where_text(kw["where"], scope)
    return adjs, base, after


def where_text(e: ast.Expr, scope: Scope) -> str:
    """A `where=` condition: `it` is the item tested; an enclosing pick is "the one chosen before"."""
    return cond(e, attrs.evolve(scope, chosen=None, earlier=_earlier(scope)) if scope.chosen else scope)


def noun_of(zone: str | None, kw: dict[str, ast.Expr], scope: Scope) -> tuple[str, str] | None:
    """("grey card", "grey cards"): see noun_parts."""
    parts = noun_parts(zone, kw, scope)
    if parts is None:
        return None
    adjs, base, after = parts
    return " ".join(adjs + [base]) + after, " ".join(adjs + [plural(base)]) + after


def count_quantity(call: ast.Call, scope: Scope) -> Quantity:
    kw = _kw(call)
    zone = _name(call.args[0]) if call.args else None
    adjs, base, after = noun_parts(zone, kw, scope) or ([], "item", "")
    if "named" in kw:
        after += f" with the name of {phrase(kw['named'], scope)}"
    sing, plur = " ".join(adjs + [base]) + after, " ".join(adjs + [plural(base)]) + after
    owner = kw.get("owner")
    o = _name(owner)
    if zone is None:
        return Quantity(sing, plur, loc="in " + (phrase(call.args[0], scope) if call.args else "play"))
    if zone == "structure":
        return Quantity(sing, plur, loc="in the structure")
    if not is_player_zone(zone, scope, owner):
        return Quantity(sing, plur, loc="in the " + zone_words(zone, scope))
    label = _label(zone, scope)
    zw = label or words(zone)
    named_after = zw == plural(base) or zw.endswith(" " + plural(base))
    if named_after and (scope.ctx is None or zone in scope.ctx.active_zones):
        # A zone named after what it holds (`tokens`, `built_wonders`): "built wonder you have".
        prefix = zw[: -len(plural(base))].strip()
        sing = " ".join(adjs + [prefix, base] if prefix else adjs + [base]) + after
        plur = " ".join(adjs + [prefix, plural(base)] if prefix else adjs + [plural(base)]) + after
        if o == "most":
            return Quantity(sing, plur, loc=f"of the player with the most {plur}")
        if o == "all":
            return Quantity(sing, plur, loc="of all players")
        if o == "any":
            return Quantity(sing, plur, loc="of any player")
        if o in SEVERAL_TEXT:
            return Quantity(sing, plur, loc=f"of {seat_words(o, scope)}")
        return Quantity(sing, plur, owner=subject_of(owner, scope))
    zw = zone_label(zone, scope)
    zws = zw if label else plural(zw)   # (a label is said as written: "all players' cards under ...")
    if o == "most":
        return Quantity(sing, plur, loc=f"in the {zw} with the most {plur}")
    if o == "all":
        return Quantity(sing, plur, loc=f"in all players' {zws}")
    if o == "any":
        return Quantity(sing, plur, loc=f"in any player's {zw}")
    if o in SEVERAL_TEXT:
        return Quantity(sing, plur, loc=f"in {seat_words(o, scope)}' {zws}")
    who = subject_of(owner, scope)
    # (unfiltered, the count is of the whole zone: "your pile is empty"; a zone named after what
    # it holds is said as a zone, "your items zone", not "your items" as what you have)
    unfiltered = not adjs and not after and base == (zone_noun(zone, scope) or "item")
    whole = (zone_phrase(zone, owner, scope) + (" zone" if named_after else "")) if unfiltered else ""
    return Quantity(sing, plur, owner=who, loc=f"in {who.poss} {zw}", whole=whole)


def event_quantity(field: str, scope: Scope) -> Quantity | None:
    actor = scope.actor or Subject("a player", "they", "their")
    if field == "amount" and scope.event == "traded":
        return Quantity("coin", "coins", owner=actor, verb="paid", conjugate=False, tail=f" to {_paid(scope)}")
    if field == "amount" and scope.event == "pawn_moved":
        pawn = Subject("the conflict pawn", "the conflict pawn", "its")
        return Quantity("space", "spaces", owner=pawn, verb="moved", conjugate=False)
    return None


def _seller(scope: Scope) -> str:
    return scope.ctx.seller if scope.ctx is not None else "the bank"


def _paid(scope: Scope) -> str:
    """Whom a trade's coins went to, once the trade is told ("the neighbour")."""
    seller = _seller(scope)
    return "the " + seller[2:] if seller.startswith("a ") else seller


def quantity(e: ast.Expr, scope: Scope) -> Quantity | None:
    """The expression as something countable, when it is one."""
    if isinstance(e, ast.Name):
        if e.name == "coins":
            return Quantity("coin", "coins", owner=scope.me)
        if e.name == "distinct_science":
            return Quantity("different scientific symbol", "different scientific symbols", owner=scope.me)
        if e.name == "pawn_distance":
            pawn = Subject("the conflict pawn", "the conflict pawn", "its")
            return Quantity("space", "spaces", owner=pawn, verb="be", tail=f" towards {scope.opponent.poss} capital")
        if e.name == "track_points":
            return Quantity("VP", "VP", owner=scope.me, verb="score", tail=" on the conflict track")
        return None
    if isinstance(e, ast.Attribute) and _name(e.obj) == "event":
        return event_quantity(e.name, scope)
    if not isinstance(e, ast.Call):
        return None
    if e.func == "count":
        return count_quantity(e, scope)
    if e.func == "coins":
        return Quantity("coin", "coins", owner=subject_of(e.args[0], scope) if e.args else scope.me)
    if e.func == "science_count" and e.args:
        sym = e.args[0]
        if isinstance(sym, ast.Name):
            w = words(sym.name)
            return Quantity(f"{w} symbol", f"{w} symbols", owner=scope.me)
        what = phrase(sym, scope)
        return Quantity(f"copy of {what}", f"copies of {what}", owner=scope.me)
    if e.func == "production" and e.args:
        kw = _kw(e)
        res = e.args[0]
        r = "that resource" if _name(res) == "resource" else phrase(res, scope)
        cards = (join(_colors(kw["color"]), "and") + " cards") if "color" in kw else "cards"
        poss = owner_poss(kw.get("owner"), scope)
        producer = Subject(f"{poss} {cards}", f"{poss} {cards}", f"{poss} {cards}'")
        return Quantity(f"unit of {r}", f"units of {r}", owner=producer, verb="produce", conjugate=False)
    kw = _kw(e)
    if e.func == "cubes" and e.args:
        zone = zone_phrase(e.args[0], None, scope)
        sp = kw.get("space")
        where = (zone if sp is None else f"space {sp.value} of {zone}" if isinstance(sp, ast.Int)
                 else f"{phrase(sp, scope)} of {zone}")
        who = subject_of(kw.get("owner"), scope)
        return Quantity("cube", "cubes", owner=who, tail=f" on {where}")
    if e.func == "supply" and e.args:
        return Quantity("cube", "cubes", owner=scope.me, tail=f" left to put on {zone_phrase(e.args[0], None, scope)}")
    if e.func == "controlled" and e.args:
        return Quantity("space", "spaces", owner=scope.me, verb="control",
                        tail=f" in {zone_phrase(e.args[0], None, scope)}")
    if e.func == "coins_on" and e.args:
        return Quantity("coin", "coins", loc=f"on {phrase(e.args[0], scope)}")
    if e.func == "riders" and e.args:
        return Quantity("item", "items", loc=f"lying on {phrase(e.args[0], scope)}")
    if e.func in ("max", "min") and len(e.args) == 2:
        a, b = quantity(e.args[0], scope), quantity(e.args[1], scope)
        if a and b and a.sing == b.sing and a.owner and b.owner and not a.loc and not b.loc:
            more = "more" if e.func == "max" else "fewer"
            return Quantity(a.sing, a.plural, loc=f"of the player with {more} {a.plural}")
    return None


ARITHMETIC = ("+", "-", "*", "//", "%")


def _needs_brackets(e: ast.BinOp, operand: ast.Expr, side: str) -> bool:
    """Whether an operand of `e` read out in words needs brackets to keep its grouping (the tree
    keeps the grouping the source's parentheses gave, the words would lose it): `10 - (2 + 1)`,
    `2 * (3 + 1)`, `(a + b) // 2`."""
    if not isinstance(operand, ast.BinOp) or operand.op not in ARITHMETIC or e.op not in ARITHMETIC:
        return False
    sums = operand.op in ("+", "-")
    if e.op == "+":
        return False
    if e.op == "-":
        return side == "right" and sums
    if e.op == "*":
        return sums
    return sums or side == "right"   # `//`, `%`


def amount(e: ast.Expr, unit: str, scope: Scope) -> str:
    """An amount of a unit: "3 coins", "1 VP for each yellow card in your city"."""
    one = singular(unit)
    e = ast.folded(e)   # (`gain 3 - 1 - 1 coins` reads "gain 1 coin", what the game gives)

    def n_units(n: int) -> str:
        return f"{n} {one if n == 1 else unit}"

    if isinstance(e, ast.Int):
        return n_units(e.value)
    if isinstance(e, ast.BinOp):
        if e.op in ("+", "-"):
            word = "plus" if e.op == "+" else "minus"
            right = amount(e.right, unit, scope)
            if _needs_brackets(e, e.right, "right"):
                right = f"({right})"
            if ast.is_negation(e):   # (not "0 coins minus ...")
                return f"minus {right}"
            return f"{amount(e.left, unit, scope)} {word} {right}"
        if e.op == "*":
            for k, other in ((e.left, e.right), (e.right, e.left)):
                q = quantity(other, scope)
                if isinstance(k, ast.Int) and q is not None:
                    return f"{n_units(k.value)} for each {q.each()}"
        if e.op == "//" and isinstance(e.right, ast.Int):
            q = quantity(e.left, scope)
            if q is not None:
                return f"1 {one} for every {e.right.value} {q.every()}"
    if isinstance(e, ast.Call) and e.func == "either" and len(e.args) == 3:
        c, a, b = e.args
        return f"{amount(a, unit, scope)} if {cond(c, scope)}, otherwise {amount(b, unit, scope)}"
    q = quantity(e, scope)
    if q is not None:
        if singular(q.plural) == one or q.plural == unit:
            return q.as_many(unit)
        return f"1 {one} for each {q.each()}"
    return f"{unit} equal to {phrase(e, scope)}"


def ranked(e: ast.Expr, scope: Scope) -> str:
    """A value players are ranked by, after "the highest": "number of coins", "value of their
    victories minus their defeats" (each player's own: not "you have")."""
    inner = attrs.evolve(scope, me=THEY)
    q = quantity(e, inner)
    if q is not None:
        if q.loc:
            return f"number of {q.plural} {q.loc}"
        if q.owner is None or q.owner is THEY:
            return f"number of {q.plural}{q.tail}"
        return f"number of {q.plural} {q._rel()}"
    text = phrase(e, inner)
    return text[len("the "):] if text.startswith("the ") else f"value of {text}"


def subject_of(e: ast.Expr | None, scope: Scope) -> Subject:
    """A player expression as a sentence subject."""
    if e is None:
        return scope.me
    n = _name(e)
    if n == "me":
        return scope.me
    if n == "opponent":
        return scope.opponent
    if n in SEAT_TEXT and n not in scope.chosen_names:
        text = seat_words(n, scope)
        return Subject(text, text, text + "'s")
    if n in scope.chosen_names and scope.chosen_player:
        return THAT_PLAYER
    if isinstance(e, ast.Call) and e.func == "player" and e.args and isinstance(e.args[0], ast.Int):
        return seat_subject(e.args[0].value)
    if isinstance(e, ast.Attribute) and _name(e.obj) == "event" and e.name == "by" and scope.actor:
        return scope.actor
    text = phrase(e, scope)
    return Subject(text, text, text + "'s")


def event_field(field: str, scope: Scope) -> str:
    q = event_quantity(field, scope)
    if q is not None:
        return q.number()
    if field == "symbol":
        return "that scientific symbol"
    if field == "space":
        return "that space"
    if field == "zone":
        return "that zone"
    if field == "owner":
        return "the player it belonged to"
    if field == "seller" and scope.event == "traded" and _seller(scope).startswith("a "):
        return "that " + _seller(scope)[2:]
    if field == "item":
        return "that " + (scope.event_noun or "item")
    if field == "by":
        return (scope.actor or THAT_PLAYER).ref
    return f"the {words(field)} of the event"


def phrase(e: ast.Expr, scope: Scope | None = None) -> str:
    """English for an expression, as a noun phrase."""
    scope = scope or Scope()
    e = ast.folded(e)
    if isinstance(e, ast.Int):
        return str(e.value)
    if isinstance(e, ast.Str):
        return e.value
    if isinstance(e, ast.Name):
        n = e.name
        if n == "me":
            return scope.me.ref
        if n == "opponent":
            return scope.opponent.ref
        if n in SEAT_TEXT:
            return seat_words(n, scope)
        if n == "seat":
            return "your seat number"
        if n == "players":
            return "the number of players"
        if n in scope.chosen_names and scope.chosen:
            return scope.chosen
        for name, text in scope.earlier:
            if n == name:
                return text
        if n == "chosen":
            return "the chosen item"
        if n == "this":
            return "this item"
        if n == "it":
            return "it"
        if n == "age":
            return "the current age"
        if n in ("true", "false"):
            return n
        if n == "resource":
            return "that resource"
        if n == "event":
            return "the event"
        q = quantity(e, scope)
        if q is not None:
            return q.number()
        if n in R.NAMES:
            return words(n)
        if scope.ctx is not None and n in scope.ctx.vocabulary:
            return words(n)
        if scope.ctx is None and n in ("chosen",):
            return "the chosen item"
        return "the " + words(n)   # an action parameter
    if isinstance(e, ast.Attribute):
        if _name(e.obj) == "event":
            return event_field(e.name, scope)
        obj = phrase(e.obj, scope)
        if e.name == "part_of":   # (a relation, not a noun: "its part of" read as nothing)
            return f"the item {'it' if obj in ('it', 'that player') else obj} is part of"
        return f"its {words(e.name)}" if obj in ("it", "that player") else f"the {words(e.name)} of {obj}"
    if isinstance(e, ast.Alternatives):
        return join([words(n) for n in e.names], "or")
    if isinstance(e, ast.ListExpr):
        return join([phrase(i, scope) for i in e.items])
    if isinstance(e, ast.Not) or (isinstance(e, ast.BinOp) and (e.op in ("and", "or") or e.op in CMP_WORDS)):
        return cond(e, scope)
    if isinstance(e, ast.BinOp):
        left, right = phrase(e.left, scope), phrase(e.right, scope)
        if _needs_brackets(e, e.left, "left"):
            left = f"({left})"
        if _needs_brackets(e, e.right, "right"):
            right = f"({right})"
        if e.op == "+":
            return f"{left} plus {right}"
        if e.op == "-":
            return f"minus {right}" if ast.is_negation(e) else f"{left} minus {right}"
        if e.op == "*":
            return f"{left} times {right}"
        if e.op == "//":
            if isinstance(e.right, ast.Int) and e.right.value == 2:
                return f"half of {left}, rounded down"
            return f"{left} divided by {right}, rounded down"
        if e.op == "%":
            return f"the remainder of {left} divided by {right}"
        return f"{left} {e.op} {right}"
    if isinstance(e, ast.Call):
        q = quantity(e, scope)
        if q is not None:
            return q.number()
        args = e.args
        if e.func in ("max", "min") and len(args) == 2:
            which = "larger" if e.func == "max" else "smaller"
            return f"the {which} of {phrase(args[0], scope)} and {phrase(args[1], scope)}"
        if e.func == "either" and len(args) == 3:
            # (in brackets: inside a sum or a function's argument its end would be lost, "the
            # entry for X if c, otherwise Y minus a discount"; a whole amount reads it bare)
            return f"({phrase(args[1], scope)} if {cond(args[0], scope)}, otherwise {phrase(args[2], scope)})"
        if e.func == "player" and args and isinstance(args[0], ast.Int):
            return seat(args[0].value)
        if e.func == "option":
            return cond(e, scope)
        text = _function_phrase(e, scope)
        return text if text is not None else unparse(e)
    return unparse(e)


def _function_phrase(e: ast.Call, scope: Scope) -> str | None:
    a = [zone_phrase(x, None, scope) if t in (R.ZONE, R.SELECTOR_ZONE) else
         words(unparse(x)) if t in (R.WORD, "table", "counter") else phrase(x, scope)
         for x, (_, t) in zip(e.args, R.FUNCTIONS[e.func].params if e.func in R.FUNCTIONS else ())]
    if len(a) != len(e.args):
        return None
    texts = {
        "lookup": lambda: f"the {a[0]} entry for {a[1]}",
        "space": lambda: f"the space of {a[0]}",
        "first_empty": lambda: f"the first empty space of {a[0]}",
        "modifier": lambda: f"{owner_poss(_kw(e).get('owner'), scope)} `{unparse(e.args[0])}` modifier",
        "counter": lambda: f"{owner_poss(_kw(e).get('owner'), scope)} {a[0]}",
        "science_score": lambda: (f"{scope.me.poss} science points (each symbol's count squared, plus {a[0]} "
                                  f"per set of every symbol)"),
        "first_in": lambda: f"the first item in {a[0]}",
        "host": lambda: f"the item {a[0]} lies on",
        "owner": lambda: f"the owner of {a[0]}",
        "controller": lambda: f"the player who controls space {a[1]} of {a[0]}",
        "controlled_sum": lambda: f"the sum of the {a[1]} over the spaces {scope.me.clause('control')} in {a[0]}",
        "row": lambda: f"the row of {a[0]} in the structure (from 0 at the top)",
        "rider": lambda: f"the item lying on {a[0]}",
        "abs": lambda: f"the absolute value of {a[0]}",
    }
    make = texts.get(e.func)
    return make() if make is not None and e.args else None


def cond(e: ast.Expr, scope: Scope | None = None) -> str:
    """English for a condition: "you have at least 6 different scientific symbols"."""
    scope = scope or Scope()
    if isinstance(e, ast.BinOp) and e.op in ("and", "or"):
        return f"{_operand(e.left, e.op, scope)} {e.op} {_operand(e.right, e.op, scope)}"
    if isinstance(e, ast.Not):
        inner = e.operand
        if isinstance(inner, ast.BinOp) and inner.op in NEGATE:
            return cond(ast.BinOp(NEGATE[inner.op], inner.left, inner.right, inner.span), scope)
        if isinstance(inner, ast.Call) and inner.func == "option" and inner.args:
            return f"the {phrase(inner.args[0], scope)} option is off"
        return f"it is not the case that {cond(inner, scope)}"
    if isinstance(e, ast.Call) and e.func == "option" and e.args:
        return f"the {words(unparse(e.args[0]))} option is on"
    if isinstance(e, ast.Name) and e.name in ("true", "false"):
        return "always" if e.name == "true" else "never"
    if isinstance(e, ast.BinOp) and e.op in CMP_WORDS:
        op, left, right = e.op, e.left, e.right
        if isinstance(right, ast.Int) and isinstance(left, ast.BinOp) and left.op == "%" \
                and isinstance(left.right, ast.Int) and left.right.value == 2 and op in ("==", "!=") \
                and right.value in (0, 1):
            even = (right.value == 0) == (op == "==")
            q = quantity(left.left, scope)
            return q.parity(even) if q else f"{phrase(left.left, scope)} is {'even' if even else 'odd'}"
        if isinstance(left, ast.Int) and not isinstance(right, ast.Int):
            op, left, right = FLIP[op], right, left
        q = quantity(left, scope)
        if q is not None and isinstance(right, ast.Int):
            return q.compare(op, str(right.value))
        if op in ("==", "!=") and _is_player(left) and _is_player(right):
            who = subject_of(left, scope)
            verb = who.clause("be")
            return f"{verb} {'not ' if op == '!=' else ''}{subject_of(right, scope).ref}"
        if isinstance(left, ast.Attribute) and left.name == "kind" and isinstance(right, ast.Name):
            # (`it.kind == board`: a kind, not a zone or a name bound to an item)
            return f"{phrase(left, scope)} {CMP_WORDS[op]} {words(right.name)}"
        return f"{phrase(left, scope)} {CMP_WORDS[op]} {phrase(right, scope)}"
    return phrase(e, scope)


def _operand(e: ast.Expr, op: str, scope: Scope) -> str:
    """A side of an `and`/`or`: an `or` inside an `and` (or the reverse) keeps its brackets,
    "a and (b or c)", which the words alone would lose."""
    text = cond(e, scope)
    if isinstance(e, ast.BinOp) and e.op in ("and", "or") and e.op != op:
        return f"({text})"
    return text


def _is_player(e: ast.Expr) -> bool:
    return _name(e) in ("me", "opponent") or (isinstance(e, ast.Call) and e.func == "player")


def item_phrase(e: ast.Expr, scope: Scope) -> str:
    return phrase(e, scope)


# -- statements ------------------------------------------------------------------------------------

EVENT_TEXT: dict[str, tuple[str, str]] = {
    # event: (verb, object); {noun} is what the filters say the event's item is
    "built": ("build", "{noun}"),
    "acquired": ("take", "{noun}"),
    "discarded": ("discard", "{noun}"),
    "gained_science": ("gain", "a scientific symbol"),
    "pawn_moved": ("move", "the conflict pawn"),
    "traded": ("buy", "resources from {seller}"),
    "control_gained": ("take", "control of a space"),
    "control_lost": ("lose", "control of a space"),
    "cube_added": ("put", "a cube on a space"),
    "uncovered": ("", "a face-down card of the structure is turned up"),
    "structure_dealt": ("", "an age's structure has been laid out"),
}
VIA_TEXT = {"chain": " for free with a chain symbol", "paid": " by paying its cost", "free": " for free"}


class Val:
    """A value filled into a template; the format spec picks how it is rendered."""

    __slots__ = ("text", "special")

    def __init__(self, text: str = "", special: Callable[[str], str | None] | None = None):
        self.text = text
        self.special = special

    def __str__(self) -> str:
        return self.text

    def __format__(self, spec: str) -> str:
        if not spec:
            return self.text
        if spec.startswith("?"):
            # `{x:?with %|without}`: the first text when the value is given, the second otherwise.
            given, _, missing = spec[1:].partition("|")
            return given.replace("%", self.text) if self.text else missing
        if self.special is not None:
            out = self.special(spec)
            if out is not None:
                return out
        return _generic(self.text, spec)


GENERIC_SPECS = ("a", "plural", "roman", "seat", "cap")


def _generic(text: str, spec: str) -> str:
    if spec == "a":
        return article(text)
    if spec == "plural":
        return plural(text)
    if spec == "roman":
        return roman(int(text)) if text.isdigit() else text
    if spec == "seat":
        return seat(int(text)) if text.isdigit() else text
    if spec == "cap":
        return capitalize(text)
    return text


class _Values(dict):
    def __missing__(self, key):
        return Val("")


def subject_val(who: Subject) -> Val:
    def special(spec: str) -> str | None:
        if spec == "poss":
            return who.poss
        if spec == "ref":
            return who.ref
        if spec in GENERIC_SPECS:
            return None
        if spec.startswith("+"):
            return who.says(spec[1:], explicit=True)
        return who.says(spec)
    return Val(who.ref, special)


def _counted(e: ast.Expr) -> bool:
    """Whether `chosen` is one of the numbers the expression adds up (not inside a function or
    attribute): it is then a number, a space of a `choose_space` (no other pick is one)."""
    if isinstance(e, ast.Name):
        return e.name == "chosen"
    if isinstance(e, ast.BinOp) and e.op in ARITHMETIC:
        return _counted(e.left) or _counted(e.right)
    return False


def number_val(e: ast.Expr, scope: Scope) -> Val:
    if scope.chosen is None and _counted(e):
        # (a block read on its own, as the compiler's texts are, does not know its pick)
        scope = attrs.evolve(scope, chosen="the chosen space", chosen_names=("chosen",))

    def special(spec: str) -> str | None:
        if spec in ("at", "on"):   # a space: " at space 3", " at the first empty space of the board"
            return f" {spec} " + (f"space {e.value}" if isinstance(e, ast.Int) else phrase(e, scope))
        if spec == "space":
            return f"space {e.value}" if isinstance(e, ast.Int) else phrase(e, scope)
        if spec == "adds":   # `modify shields -1`: "takes 1 from", not "adds -1 to"
            return f"takes {-e.value} from" if isinstance(e, ast.Int) and e.value < 0 else f"adds {phrase(e, scope)} to"
        return None if spec in GENERIC_SPECS else amount(e, spec, scope)
    return Val(phrase(e, scope), special)


def word_val(e: ast.Expr, scope: Scope) -> Val:
    w = _name(e)
    if w is None:
        return Val(phrase(e, scope))

    def special(spec: str) -> str | None:
        if spec == "code":   # a name the content made up, as it spells it: `extra_moves`
            return f"`{w}`"
        if spec != "source":
            return None
        if scope.ctx is not None and w in scope.ctx.colors:
            return f"{words(w)} cards"
        if (scope.ctx.kinds if scope.ctx else R.ITEM_KINDS).__contains__(w):
            return plural(words(w))
        return words(w)
    return Val(words(w), special)


def _list_text(ptype: str, args: list[ast.Expr], scope: Scope) -> str:
    if ptype == R.INTS:
        return join([unparse(a) for a in args])
    if ptype == R.WORDS:
        return join([words(unparse(a)) for a in args])
    if ptype == R.PRODUCTS and len(args) == 1 and isinstance(args[0], ast.Alternatives):
        return f"1 {join([words(n) for n in args[0].names], 'or')} (your choice, each turn)"
    # amounts: [count] word, repeated
    parts, pending = [], None
    for a in args:
        if isinstance(a, ast.Int):
            pending = a.value
            continue
        n = 1 if pending is None else pending
        pending = None
        w = _name(a) or unparse(a)
        if w in ("coin", "coins"):
            parts.append(f"{n} {'coin' if n == 1 else 'coins'}")
        else:
            parts.append(f"{n} {words(w)}")
    return join(parts) or "nothing"


def _value(e: ast.Expr, ptype: str | None, kw: dict[str, ast.Expr], scope: Scope) -> Val:
    if ptype == R.INT:
        return number_val(e, scope)
    if ptype == R.BOOL:
        return Val(cond(e, scope))
    if ptype == R.PLAYER:
        return subject_val(subject_of(e, scope))
    if ptype == R.ITEM:
        return Val(item_phrase(e, scope))
    if ptype in (R.ZONE, R.SELECTOR_ZONE):
        return Val(zone_phrase(e, kw.get("owner"), scope))
    if ptype == R.COLORS:
        return Val(join(_colors(e), "or"))
    if ptype == R.TEXT:
        return Val(e.value if isinstance(e, ast.Str) else phrase(e, scope))
    if ptype in ("owner", R.SEATS):
        if _name(e) in R.OWNER_WORDS and _name(e) not in ("me", "opponent"):
            return Val({"all": "every player", "most": "the player with the most", "any": "any player",
                        **{w: seat_words(w, scope) for w in SEVERAL_TEXT}}[_name(e)])
        return subject_val(subject_of(e, scope))
    if ptype in (R.RESOURCE, R.SCIENCE) and not isinstance(e, ast.Name):
        return Val(phrase(e, scope))
    if ptype == R.LAYOUT:
        return Val(_name(e) or phrase(e, scope))
    if ptype == "side":  # `trade_price ... from=left`: whom the price is paid to
        side = _name(e)
        return Val(seat_words(side, scope) if side in ("left", "right", "neighbours") else phrase(e, scope))
    return word_val(e, scope)


def _expand_either(s: ast.Statement, scope: Scope) -> str | None:
    """`gain either(c, 2, 3) coins` reads "if c, gain 2 coins; otherwise, gain 3 coins"."""
    def is_either(e):
        return isinstance(e, ast.Call) and e.func == "either" and len(e.args) == 3
    for i, a in enumerate(s.args):
        if is_either(a):
            c, x, y = a.args
            one = attrs.evolve(s, args=s.args[:i] + (x,) + s.args[i + 1:])
            two = attrs.evolve(s, args=s.args[:i] + (y,) + s.args[i + 1:])
            return f"if {cond(c, scope)}, {statement(one, scope)}; otherwise, {statement(two, scope)}"
    for i, k in enumerate(s.kwargs):
        if is_either(k.value):
            c, x, y = k.value.args
            one = attrs.evolve(s, kwargs=s.kwargs[:i] + (attrs.evolve(k, value=x),) + s.kwargs[i + 1:])
            two = attrs.evolve(s, kwargs=s.kwargs[:i] + (attrs.evolve(k, value=y),) + s.kwargs[i + 1:])
            return f"if {cond(c, scope)}, {statement(one, scope)}; otherwise, {statement(two, scope)}"
    return None


def _event_clause(s: ast.Statement, kw: dict[str, ast.Expr], scope: Scope) -> tuple[str, Subject, str | None]:
    event = _name(s.args[0]) if s.args else None
    by = _name(kw.get("by")) or "any"
    if by == "me":
        actor_text, actor = scope.me.text or "they", scope.me
    elif by == "opponent":
        actor_text, actor = "the opponent", Subject("the opponent", "they", "their")
    elif by in ("others", "neighbours", "left", "right"):
        actor_text = {"others": "another player", "neighbours": "a neighbour"}.get(by) or seat_words(by, scope)
        actor = Subject(actor_text, "they", "their")
    else:
        actor_text, actor = "any player", Subject("any player", "they", "their")
    found = noun_of(None, {k: v for k, v in kw.items() if k in ("color", "kind")}, scope)
    noun = found[0] if found else None
    verb, obj = EVENT_TEXT.get(event or "", (None, None))
    if verb is None:
        return f"the {words(event or '?')} event happens ({actor_text})", actor, noun
    text = obj.replace("{noun}", article(noun) if noun else "something").replace("{seller}", _seller(scope))
    zone = _name(kw.get("zone"))
    if zone:
        text += f" of {zone_phrase(zone, None, scope)}"
    if not verb:
        return text, actor, noun
    subject = Subject(actor_text, actor.ref, actor.poss)
    via = _name(kw.get("via"))
    extra = VIA_TEXT.get(via, f" via {words(via)}") if via else ""
    return f"{subject.says(verb, explicit=True)} {text}{extra}", actor, noun


def _nested_block(s: ast.Statement, verb: R.Verb, scope: Scope) -> str:
    """The block of a statement, as its template says it.  An effect's block of several clauses
    is bracketed ("if C, (A; B); D"), and the options of a `choose_one` are joined by "or": else
    where the block ends and the statements after it begin would be lost.  A block of one
    statement is bracketed only when that statement's own text has clauses outside brackets
    ("choose a player; A"): a `run` of several clauses brackets them itself."""
    if s.block is None:
        return ""
    if s.verb == "choose_one":
        return join([statement(x, scope) for x in s.block.statements], "or")
    text = block_text(s.block, scope)
    several = len(s.block.statements) > 1 or _has_open_clauses(text)
    if verb.role == R.EFFECT and several and s.verb != "option":
        return f"({text})"
    return text


def _has_open_clauses(text: str) -> bool:
    """Whether a text has a "; " outside brackets (or brackets that do not pair up, when a
    name holds one: then any "; " counts)."""
    depth = 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                return "; " in text
        elif ch == ";" and depth == 0 and text[i + 1:i + 2] == " ":
            return True
    return depth != 0 and "; " in text


def block_text(block: ast.Block | None, scope: Scope) -> str:
    if block is None:
        return ""
    return "; ".join(statement(s, scope) for s in block.statements)


def statement(s: ast.Statement, scope: Scope, kind: str | None = None) -> str:
    """English for one statement, not capitalized."""
    text = _statement(s, scope, kind)
    if s.block is None and s.verb in R.CLAMPED and s.args and may_be_below_zero(s.args[0]):
        # (what the game does, which the arithmetic as written does not say: check warns W508)
        text += ", none if that comes to less than 0"
    if s.verb == "shields":  # shields pushed on another player's behalf
        pusher = next((k.value for k in s.kwargs if k.name == "by"), None)
        if isinstance(pusher, ast.Name) and pusher.name != "me":
            text += ", for " + (scope.opponent.ref if pusher.name == "opponent" else words(pusher.name))
    return text


def may_be_below_zero(e: ast.Expr) -> bool:
    """Whether a computed count subtracts and can come to less than 0 at some player count (2 to
    7: what explain does not know of the game), as W508 judges it."""
    from .bounds import below_zero
    return below_zero(e, range(2, 8))[0]


def _statement(s: ast.Statement, scope: Scope, kind: str | None = None) -> str:
    verb = R.verb_for(kind, s.verb) if kind else _shape(s)
    if verb is None or not verb.explain:
        parts = [unparse(a) for a in s.args] + [f"{k.name}={unparse(k.value)}" for k in s.kwargs]
        text = " ".join([words(s.verb)] + parts)
        return text + (f": {block_text(s.block, scope)}" if s.block is not None else "")
    expanded = _expand_either(s, scope)
    if expanded is not None:
        return expanded
    if s.verb == "run":
        return _run_text(s, scope)
    if s.verb == "trade" and s.args and _name(s.args[0]) == "none":
        return "nothing is bought, from the bank or anyone: a build takes what its player produces"
    kw = _kw(s)
    if s.verb in ("choose", "param") and _name(kw.get("owner")) == "all":
        # (one item picked from all the players' zones is picked from any player's)
        kw = {**kw, "owner": ast.Name("any", kw["owner"].span)}
    values = _Values()
    values["me"] = subject_val(scope.me)
    values["who"] = subject_val(subject_of(kw.get("who"), scope))
    values["by"] = subject_val(subject_of(kw.get("by"), scope))
    args = list(s.args)
    i = 0
    count_text, source_zone = None, None
    for p in verb.params:
        if p.type in (R.AMOUNTS, R.WORDS, R.INTS, R.PRODUCTS):
            values[p.name] = Val(_list_text(p.type, args[i:], scope))
            i = len(args)
            break
        if p.literal:
            if i < len(args) and _name(args[i]) in p.literal:
                values[p.name] = Val(args[i].name)
                i += 1
            continue
        if i >= len(args):
            break
        values[p.name] = _value(args[i], p.type, kw, scope)
        if p.name == "count":
            count_text = phrase(args[i], scope)
        if p.type in (R.ZONE, R.SELECTOR_ZONE) and source_zone is None:
            source_zone = _common_zone_noun_source(args[i], scope)
        i += 1
    kwtypes = verb.kwarg_types
    for name, e in kw.items():
        if name not in ("who", "by"):
            values[name] = _value(e, kwtypes.get(name), kw, scope)
            if kwtypes.get(name) == R.BOOL and _name(e) == "false":
                values[name] = Val("")   # (a flag turned off says nothing: not "face down never")
    if "where" in kw:
        values["where"] = Val(where_text(kw["where"], scope))
    if s.verb == "rotate" and args:   # (every seat's zone moves: "their hand", not "your hand")
        values["zone"] = Val(zone_phrase(args[0], None, attrs.evolve(scope, me=EACH_PLAYER)))
    if s.verb == "tiebreak_by" and args:
        values["value"] = Val(ranked(args[0], scope))
    filters = {k: v for k, v in kw.items() if k in ("color", "kind", "age", "deck")}
    found = noun_of(source_zone, filters, scope)
    if found:
        values["noun"], values["nouns"] = Val(found[0]), Val(found[1])
    else:
        values["noun"], values["nouns"] = Val("item"), Val("items")
    counted = None   # a computed count said after the sentence: "..., where N is the number of players"
    if count_text is not None:
        values["what"] = Val(_what(count_text, s.args[0] if s.args else None, found))
        if s.block is None and s.args and not isinstance(ast.folded(s.args[0]), ast.Int):
            # ("the top a number of cards equal to the number of players of the deck" lost its
            # `of`; a statement with a block goes on after its count, and keeps the long form)
            values["what"] = Val(f"N {found[1] if found else 'items'}")
            counted = count_text
    only = noun_of(None, filters, scope) if filters else None
    own = words(_name(args[0])) if s.verb == "param" and args and _name(args[0]) else None
    values["filter"] = Val(article(only[0]) if only and only[0] != own else "")
    inner = scope
    if s.verb == "when":
        clause, actor, noun = _event_clause(s, kw, scope)
        values["event"] = Val(clause)
        inner = attrs.evolve(scope, event=_name(s.args[0]) if s.args else None, actor=actor, event_noun=noun)
    elif s.verb in ("choose", "choose_space"):
        many = s.verb == "choose" and count_text != "1"
        names = ("chosen",) + ((_name(kw["as"]),) if _name(kw.get("as")) else ())
        pick = "that space" if s.verb == "choose_space" else "them" if many else "it"
        inner = attrs.evolve(_chooser_scope(kw.get("by"), scope, LEFT_OUT), chosen=pick, chosen_player=False,
                             chosen_names=names, earlier=_earlier(scope), chosen_noun=found[0] if found else "item")
    elif s.verb == "choose_player":
        inner = attrs.evolve(_chooser_scope(kw.get("by"), scope, THEY), chosen="that player", chosen_player=True)
    elif s.verb == "choose_one":
        inner = _chooser_scope(kw.get("by"), scope, THEY)
    elif s.verb == "each_player":
        inner = attrs.evolve(scope, me=EACH_PLAYER)
        if _has_conditions(s.block):
            # ("if they ..., each player ..." would read as a condition on nobody, then an
            # effect on everyone: the condition is each player's own)
            inner = attrs.evolve(scope, me=THEY)
    values["block"] = Val(_nested_block(s, verb, inner))
    if s.verb == "choose" and "optional" in kw and _name(kw["optional"]) != "false":
        values["by"] = subject_val(_May(subject_of(kw.get("by"), scope)))
    template = verb.explain
    if s.verb == "each_player" and inner.me is THEY:
        template = EACH_PLAYER_IF
    ctx = scope.ctx
    if s.verb == "tiebreak_by" and ctx is not None and ctx.tiebreak_category is not None:
        values["category"] = word_val(ctx.tiebreak_category, scope)
        template = TIEBREAK_BY_THEN_CATEGORY
    elif s.verb == "tiebreak" and ctx is not None and ctx.tiebreak_value is not None:
        values["value"] = Val(ranked(ctx.tiebreak_value, scope))
        template = TIEBREAK_AFTER_VALUE
    if s.verb == "move_all" and "where" in kw:
        # (the registry's text says "everything", and the engine leaves what fails the filter)
        values["moved"] = Val(_filtered_items(source_zone, str(values["from"]), kw["where"], scope))
        template = MOVE_ALL_WHERE
    try:
        text = template.format_map(values)
    except (ValueError, IndexError, AttributeError):
        return words(s.verb)
    return f"{text}, where N is {counted}" if counted is not None and "N " in text else text


# `each_player` whose block tests something: each player's own test, said for each in turn.
EACH_PLAYER_IF = "for each player: {block}"


def _has_conditions(block: ast.Block | None) -> bool:
    return block is not None and any(x.verb in ("if", "else") for x in block.statements)


# `run NAME` explains the procedure's block in place, to this depth of procedures inside
# procedures and this length; past them (or for a procedure that runs itself) it names it.
RUN_DEPTH = 3
RUN_LENGTH = 1200


def _run_text(s: ast.Statement, scope: Scope) -> str:
    """`run my_block`: "run `my_block` (repeat ... times: ...)", the body read
    where it runs (the same player, the same names in scope)."""
    name = _name(s.args[0]) if s.args else None
    if name is None:
        return "run " + (unparse(s.args[0]) if s.args else "?")
    label = f"run `{name}`"
    body = scope.ctx.procedures.get(name) if scope.ctx is not None else None
    if body is None:
        return label
    if name in scope.running or len(scope.running) >= RUN_DEPTH:
        return f"{label} (see `explain procedure {name}`)"
    try:
        key = (name, attrs.evolve(scope, ctx=None))
        known = scope.ctx.run_texts.get(key)
    except TypeError:   # (a scope holding something unhashable: explained anew)
        key, known = None, None
    if known is not None:
        return known
    text = block_text(body, attrs.evolve(scope, running=scope.running + (name,)))
    if not text or len(text) > RUN_LENGTH:
        found = f"{label} (see `explain procedure {name}`)" if text else f"{label} (which does nothing)"
    else:
        found = f"{label} ({text})"
    if key is not None:
        scope.ctx.run_texts[key] = found
    return found


# A game with both tie-breaks: `tiebreak_by` first, then the category, then a shared victory
# (written in either order).
TIEBREAK_BY_THEN_CATEGORY = ("a tie goes to the player with the highest {value}; still tied, to the player with "
                             "more VP from {category:source}")
TIEBREAK_AFTER_VALUE = ("if the {value} is tied too, a tie goes to the player with more VP from {category:source}; "
                        "still tied, the victory is shared")
# `move_all ... where=`: what is moved is named by the filter.
MOVE_ALL_WHERE = "{me:move} {moved} to {at:?the % of |}{to}"


def _what(count_text: str, count: ast.Expr | None, found: tuple[str, str] | None) -> str:
    """The count and noun of a choose or deal: "1 card", "3 tokens"; a computed count reads "a
    number of cards equal to the number of players plus 2" (not "the number of players plus 2
    cards")."""
    if count is not None and not isinstance(ast.folded(count), ast.Int):
        return f"a number of {found[1] if found else 'items'} equal to {count_text}"
    if not found:
        return count_text
    return f"{count_text} {found[0] if count_text == '1' else found[1]}"


def _filtered_items(zone: str | None, place: str, where: ast.Expr, scope: Scope) -> str:
    """The items of `zone` (said `place`) a `where=` lets through: "the red cards in the discard
    pile"; a filter that is not one colour is said as a condition on each item."""
    colour = _colour_filter(where, scope)
    if colour is not None:
        nouns = noun_of(zone, {"color": colour}, scope)
        if nouns:
            return f"the {nouns[1]} in {place}"
    nouns = noun_of(zone, {}, scope)
    return f"the {nouns[1] if nouns else 'items'} in {place} for which {where_text(where, scope)}"


def _colour_filter(where: ast.Expr, scope: Scope) -> ast.Expr | None:
    """The colour of a filter `it.color == COLOUR` (either way round), as a `color=` value."""
    if not (isinstance(where, ast.BinOp) and where.op == "=="):
        return None
    for attr, value in ((where.left, where.right), (where.right, where.left)):
        if isinstance(attr, ast.Attribute) and attr.name == "color" and _name(attr.obj) == "it" \
                and isinstance(value, ast.Name) and (scope.ctx is None or value.name in scope.ctx.colors):
            return value
    return None


def _chooser_scope(by: ast.Expr | None, scope: Scope, chooser: Subject) -> Scope:
    """The scope of a choice's block: the engine runs it as the chooser, so where another player
    chooses, "you" and "the opponent" of the block are the chooser's (`chooser`: how the block
    names them)."""
    who = _name(by)
    if by is None or who == "me":
        return scope
    if who == "opponent" and scope.me is YOU and scope.opponent is OPPONENT:
        return attrs.evolve(scope, me=chooser, opponent=YOU_SAID)
    if who == "opponent" and scope.opponent is YOU_SAID:
        # (inside the opponent's choice, their opponent is the owner: the owner chooses back)
        return attrs.evolve(scope, me=YOU, opponent=OPPONENT)
    return attrs.evolve(scope, me=chooser, opponent=THEIR_OPPONENT)


def _common_zone_noun_source(e: ast.Expr, scope: Scope) -> str | None:
    """The zone whose noun describes what `e` (a zone, or a list of zones) holds."""
    if isinstance(e, ast.ListExpr):
        zones = [_name(z) for z in e.items]
        nouns = {zone_noun(z, scope) for z in zones}
        return zones[0] if len(nouns) == 1 and None not in nouns else None
    return _name(e)


def _earlier(scope: Scope) -> tuple[tuple[str, str], ...]:
    """Entering a new pick: the names of the current one now read as "the NAME"."""
    if not scope.chosen:
        return scope.earlier
    # (a name given with `as=` reads as a name: "the `first` card", "the `from` space")
    noun = "space" if scope.chosen == "that space" else scope.chosen_noun
    names = tuple((n, "the one chosen before" if n == "chosen" else f"the {noun}" if words(n) == noun
                   else f"the `{n}` {noun}") for n in scope.chosen_names)
    return names + tuple(e for e in scope.earlier if e[0] not in scope.chosen_names)


def _shape(s: ast.Statement) -> R.Verb | None:
    """The verb, guessing the definition kind from the statement's shape where a verb has
    several (`points 3` on an item, `points 0 2 2 5` on a track)."""
    if s.verb == "points" and len(s.args) > 1:
        return R.TRACK_POINTS
    if s.verb == "trade_price" and len(s.args) == 1:
        return R.GAME_TRADE_PRICE
    if s.verb == "science" and len(s.args) > 1:
        return R.GAME_SCIENCE
    return R.VERBS.get(s.verb)


def english(s: ast.Statement, block_text: Callable[[ast.Block | None], str] | None = None,
            context: Context | None = None, kind: str | None = None, running: tuple[str, ...] = ()) -> str:
    """A statement as an English sentence (capitalized, no final full stop).

    `context` says what the game's zones are; without it, it is taken from the compiler that
    passes its `block_text` (or phrasing falls back to what the statement alone says).
    `kind` is the kind of the definition the statement stands in, when known; `running`, the
    procedures it stands in (a `run` of one of them names it rather than explain it again)."""
    ctx = context if context is not None else _context_of(block_text)
    return capitalize(statement(s, Scope(ctx, running=tuple(running)), kind))
