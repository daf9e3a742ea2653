"""Which items can ever lie in each zone: a fixed point over every statement of the content that
moves items, so that an action's parameter is numbered only for the items that could fill it.

Sound by construction (a superset): an item starts in its deck; a statement that moves items
into a zone adds every item its source could hold (a named item, `chosen` from a choice's
zone, an action parameter from its zone, anything else: every item); building or acquiring
adds items to the build zone of their kind; the discard pile and the structure take what
discarding and dealing can put there; a verb this analysis does not know sends every item to
every zone it names.  The cost is precision, never a legal action without a number: tests play
every bundled game checking the masks against the engine's legal actions."""

from __future__ import annotations

from pathlib import Path

import attrs

from rulesdsl import ast
from rulesdsl.loader import load_paths, resolve_layers
from rulesdsl.model import STRUCTURE, STRUCTURE_ALL, Content
from rulesdsl.pipeline import canonical_expansions
from rulesdsl.registry import EFFECT, ITEM, SELECTOR_ZONE, VERBS, ZONE

# Effects that move no item into a zone (they bind a choice, order, reveal, count cubes...).
STILL = {"choose", "choose_space", "shuffle", "return_to_deck", "trigger", "put_coins", "add_cube",
         "remove_cube", "move_cube", "reveal", "rotate"}


def reachable(content: Content, expansions: tuple[str, ...], base: str | Path) -> dict[int, frozenset[int]]:
    """Zone id (and STRUCTURE) -> the items that can lie there."""
    return reach_and_face_down(content, expansions, base)[0]


def reach_and_face_down(content: Content, expansions: tuple[str, ...],
                        base: str | Path) -> tuple[dict[int, frozenset[int]], frozenset[int]]:
    """`reachable`, and the zones items can be put in face down (`place`/`deal ... face_down=`)."""
    found = analyse(content, expansions, base)
    return found.reach, found.face_down


@attrs.frozen
class Analysis:
    """What the content's statements say about where items go and how a game may end."""

    reach: dict[int, frozenset[int]]
    face_down: frozenset[int]   # zones a statement puts items in face down
    victories: tuple[str, ...]  # the kinds of immediate victory its `win` statements name, sorted
    laid_out: frozenset[int]    # the items `deal_structure` can lay out as the structure's cards


def analyse(content: Content, expansions: tuple[str, ...], base: str | Path) -> Analysis:
    merged = load_paths(resolve_layers(canonical_expansions(list(expansions)), base))
    reach = Reach(content, merged.definitions)
    return Analysis(reach.run(), frozenset(reach.face_down), tuple(sorted(reach.victories)),
                    frozenset(reach.laid_out))


class Reach:
    def __init__(self, content: Content, definitions: list[ast.Definition]):
        self.content = content
        self.definitions = definitions
        self.all = frozenset(range(len(content.items)))
        self.by_name: dict[str, set[int]] = {}
        for it in content.items:
            self.by_name.setdefault(it.name, set()).add(it.id)
        self.zones = content.zone_index
        self.k: dict[int, set[int]] = {z.id: set() for z in content.zones}
        self.k[STRUCTURE] = set()
        for it in content.items:
            if it.deck >= 0:   # (no deck: out of play at this seat count, until moved by name)
                self.k[it.deck].add(it.id)
        self.params = {a.name: a.params for a in content.actions}
        # Items something may lie on, by the zone of what lies there (`move X Z onto=H`; tokens
        # dealt onto the structure lie on its cards): what host() of an item of Z may give.  An
        # item loses what it lay on whenever it moves (core.relocate), so the zone tells.
        self.hosts: dict[int, set[int]] = {}
        self.face_down: set[int] = set()   # zones a statement puts items in face down
        self.victories: set[str] = set()
        self.laid_out: set[int] = set()   # (the structure's cards, not what is dealt onto them)
        self.changed = False

    def run(self) -> dict[int, frozenset[int]]:
        self.changed = True
        while self.changed:
            self.changed = False
            for d in self.definitions:
                if d.block is None:
                    continue
                scope: dict[str, frozenset[int]] = {}
                if d.name in self.by_name:   # an item's own text: `this` is that item
                    scope["this"] = frozenset(self.by_name[d.name])
                if d.kind == "action":
                    for p in self.params.get(d.name, ()):
                        scope[p.name] = self.selector_items(p.selector.zone, p.selector.more_zones)
                self.walk(d.block.statements, scope)
        out = {z: frozenset(items) for z, items in self.k.items()}
        out[STRUCTURE_ALL] = out[STRUCTURE]
        return out

    def selector_items(self, zone: int, more: tuple[int, ...] = ()) -> frozenset[int]:
        zone = STRUCTURE if zone == STRUCTURE_ALL else zone
        out = set(self.k.get(zone, self.all))
        for z in more:
            out |= self.k.get(z, self.all)
        return frozenset(out)

    def add(self, zone: int, items) -> None:
        held = self.k.setdefault(zone, set())
        before = len(held)
        held.update(items)
        if len(held) != before:
            self.changed = True

    def zone_of(self, expr) -> int | None:
        if isinstance(expr, ast.Name):
            if expr.name == "structure":
                return STRUCTURE
            return self.zones.get(expr.name)
        return None

    def zones_of(self, expr) -> list[int] | None:
        """The zones a selector names (one, or a list), None when one is not a zone."""
        exprs = expr.items if isinstance(expr, ast.ListExpr) else (expr,)
        zones = [self.zone_of(e) for e in exprs]
        return None if any(z is None for z in zones) else zones

    def items_of(self, expr, scope) -> frozenset[int]:
        if isinstance(expr, ast.Str):
            return frozenset(self.by_name.get(expr.value, ()))
        if isinstance(expr, ast.Name) and expr.name in scope:
            return scope[expr.name]
        if isinstance(expr, ast.Call) and expr.func == "host":
            zones = scope.get("_zones", {}).get(expr.args[0].name) \
                if expr.args and isinstance(expr.args[0], ast.Name) else None
            if zones is None:
                zones = list(self.hosts)
            out: set[int] = set()
            for z in zones:
                out |= self.hosts.get(z, set())
            return frozenset(out)
        return self.all

    def into(self, expr, items) -> None:
        zone = self.zone_of(expr)
        if zone is None:   # not a zone we can name: every zone may receive them
            for z in list(self.k):
                self.add(z, items)
        else:
            self.add(zone, items)

    def note_face_down(self, s, dst) -> None:
        """A statement with `face_down=`: its zone may hold items lying face down (every zone, if
        it names none we can tell)."""
        if any(kw.name == "face_down" for kw in s.kwargs):
            zone = self.zone_of(dst)
            self.face_down.update([zone] if zone is not None else self.zones.values())

    def built(self, items) -> None:
        build_zone, kinds = self.content.build_zone, self.content.items
        for i in items:
            zone = build_zone.get(kinds[i].kind)
            if zone is not None:
                self.add(zone, (i,))

    def taken_along(self, items) -> None:
        """Items lying on a card of the structure leave it with the card: the seat that takes the
        card acquires them, or they go to the discard pile (`economy.taken_along`)."""
        self.built(items)
        self.add(self.content.discard_zone, items)

    def walk(self, statements, scope) -> None:
        for s in statements:
            verb, args = s.verb, s.args
            inner = scope
            onto = next((kw.value for kw in s.kwargs if kw.name == "onto"), None)
            if onto is not None and len(args) >= 2:
                if self.content.structure_riders:   # (what lies on a structure card may leave with it)
                    self.taken_along(self.items_of(args[0], scope))
                found = self.items_of(onto, scope)
                for z in self.zones_of(args[1]) or list(self.k):
                    hosts = self.hosts.setdefault(z, set())
                    if not found <= hosts:
                        hosts |= found
                        self.changed = True
            if verb == "choose" and len(args) >= 3:
                zones = self.zones_of(args[2])
                chosen = self.selector_items(zones[0], tuple(zones[1:])) if zones else self.all
                kind = next((kw.value for kw in s.kwargs if kw.name == "kind"), None)
                if isinstance(kind, ast.Name):
                    chosen = frozenset(i for i in chosen if self.content.items[i].kind == kind.name)
                inner = dict(scope, chosen=chosen)
                known = dict(scope.get("_zones", {}))
                known["chosen"] = zones
                alias = next((kw.value for kw in s.kwargs if kw.name == "as"), None)
                if isinstance(alias, ast.Name):
                    inner[alias.name] = chosen
                    known[alias.name] = zones
                inner["_zones"] = known
            elif verb in ("move", "claim", "place") and len(args) >= 2:
                self.into(args[1], self.items_of(args[0], scope))
                self.note_face_down(s, args[1])
            elif verb in ("move_all", "deal", "take_top") and len(args) >= 2:
                src, dst = (args[0], args[1]) if verb == "move_all" else (args[1], args[2])
                self.note_face_down(s, dst)
                zone = self.zone_of(src)
                self.into(dst, self.selector_items(zone) if zone is not None else self.all)
            elif verb in ("build", "acquire") and args:
                self.built(self.items_of(args[0], scope))
            elif verb == "take_attached":
                self.built(self.all)   # whatever lay on the item
            elif verb == "discard":
                self.add(self.content.discard_zone, self.all)   # the item and whatever lay on it
            elif verb in ("deal_structure", "deal_onto_structure") and args:
                zone = self.zone_of(args[-1])
                dealt = self.selector_items(zone) if zone is not None else self.all
                self.add(STRUCTURE, dealt)
                if verb == "deal_structure":
                    self.laid_out |= dealt
                if verb == "deal_onto_structure":
                    self.taken_along(dealt)
                    hosts = self.hosts.setdefault(STRUCTURE, set())
                    if not self.k[STRUCTURE] <= hosts:
                        hosts |= self.k[STRUCTURE]
                        self.changed = True
            elif verb == "win" and args and isinstance(args[0], ast.Name):
                self.victories.add(args[0].name)
            elif verb not in STILL:
                self.unknown(s, scope)
            if s.block is not None:
                self.walk(s.block.statements, inner)

    def unknown(self, s, scope) -> None:
        verb = VERBS.get(s.verb)
        if verb is None or verb.role != EFFECT:
            return
        types = [p.type for p in verb.params]
        items = [self.items_of(a, scope) for a, t in zip(s.args, types) if t == ITEM]
        zones = [a for a, t in zip(s.args, types) if t in (ZONE, SELECTOR_ZONE)]
        for a in zones:
            self.into(a, self.all)
        for found in items:
            for z in list(self.k):
                self.add(z, found)
