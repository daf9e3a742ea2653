"""A search agent: information-set Monte Carlo tree search (ISMCTS).

The agent decides for the seat to move from what that seat may see: each iteration plays on a
*determinization*, a copy of the game in which everything the seat cannot see is drawn again
at random among the possibilities its observation leaves (`determinize`). One tree is shared by
all determinizations (single-observer ISMCTS): an edge is a seat and an action's text, and
selection counts how often an edge was available (UCB with availability counts), since the legal
actions of the other seats differ from one determinization to the next.

Hidden, and so redrawn: the items of zones nobody sees (decks, the box), other seats' private
zones (hands) and face-down items (but those it knows stay where they lie: it saw them before
they were turned down or put into a deck, knowledge.py), by class (kind and age; an item whose
back shows keeps its deck: a face-down structure card, an item face down in a zone the seat
sees, an item still in the deck it started in), the other seats' choices already made in a
simultaneous round, and the dice.  The search never reads the real arrangement of any of
these: the same observation gives the same decision, whatever lies face down
(tests/test_balance_agents.py checks it).

It knows no content: rewards are wins (a shared victory splits one) and a small share for the
score margin, read from `Game.score`."""

from __future__ import annotations

import math
import random

import attrs

from rulesdsl.names import check_seat, integer

from . import core, seats
from .actions import Action
from .budget import MAX_GAME_ACTIONS
from .chance import derive
from .game import Game
from .knowledge import known_to
from .playout import play_out, too_long
from .random_agent import RandomAgent, playing
from .state import DRAW

ROLLOUTS = ("random", "greedy")


Place = tuple[str, int, int, int]


def unknown_items(game: Game, seat: int, kept_places: bool = True) -> dict[tuple[str, int], list[Place]]:
    """The places whose item `seat` cannot see, by the class of item that may lie there:
    ("zone", slot, index, deck) or ("structure", position, -1, deck), where `deck` (-1: any) is
    the deck the item drawn there must come from, its back being known.  A class is an item kind
    and age; an
    item without an age counts as of the age being played (a card whose copies serve two ages
    is one of the cards of the age it is dealt in).  Only the places and what the seat sees decide the classes
    (how many items each zone holds, the ages in play, which structure cards lie face down and
    their backs), so the same observation gives the same places.  A back shows on a face-down
    structure card and on an item face down in a zone the seat sees (the observation names its
    deck), and a zone items start in keeps as many of its own items as it holds (those of other
    decks of the same class do not slip into it: each deck's later draws stay its own).  In a
    zone nobody sees, its first places take them: where in it they lie is not seen.  An unseen item lying on
    another, under it, on a space or holding coins is drawn again too (an item face down with
    another slid under it, one face down on a space, a card tucked face down under another, a
    face-down card carrying a token): what lies there stays tied to the place, whatever item it
    now is (`determinize`).
    Seen items are never drawn again, nor those the seat knows where they lie (face down, or in
    a deck: knowledge.py), nor those a choice of the seat's offers it (face up)."""
    st, c = game.state, game.content
    hidden = set(st.hidden)
    knows: set[int] = set()
    if st.known:   # (an item the seat saw before it was turned down or put in a deck: it knows what lies there)
        knows.update(known_to(game, seat))
        hidden.difference_update(knows)
    # What a choice of the seat's offers it, it sees (a discard pile searched face down), unless
    # that lies face down (offered by its place)
    d = st.pending
    offered = {o for o in d.options if o not in hidden} if d is not None and d.kind == "item" and d.player == seat \
        else set()
    places: dict[tuple[str, int], list[Place]] = {}
    # (a zone nobody sees, where nothing is offered or known, gives the same places for the same
    # items at the same age, whoever asks: kept with the content, since its decks and box change
    # seldom and listing them was most of a look-ahead's redraw)
    kept = c._unseen_places if kept_places and not offered and not knows else None   # (False: every item asked)
    for z in c.zones:
        nobody = not z.public and not z.private
        for owner in range(c.players if z.per_player else 1):
            slot = game.slot(z.id, owner)
            if nobody and kept is not None:
                items = st.zones[slot]
                entry = kept.get(slot)
                if entry is None or entry[1] != st.age or entry[0] != items:
                    entry = kept[slot] = (items[:], st.age, _nobody_sees(c, z.id, slot, items, st.age))
                for key, group in entry[2]:
                    places.setdefault(key, []).extend(group)
                continue
            unseen = nobody or (z.private and (not z.per_player or owner != seat))
            if not unseen and not hidden:
                continue   # (a zone the seat sees, and nothing lies face down: none of its items is asked)
            # (in a zone nobody sees, per class: how many of its own items the zone holds)
            own: dict[tuple[str, int], int] = {}
            held = []
            for index, item in enumerate(st.zones[slot]):
                if (unseen and item not in offered and item not in knows) or item in hidden:
                    it = c.items[item]
                    key = _class(it, st.age)
                    held.append((index, it, key))
                    if unseen and it.deck == z.id:
                        own[key] = own.get(key, 0) + 1
            for index, it, key in held:
                if unseen:
                    deck = z.id if own.get(key, 0) > 0 else -1
                    own[key] = own.get(key, 0) - 1
                else:
                    deck = it.deck
                places.setdefault(key, []).append(("zone", slot, index, deck))
    for position, item in enumerate(st.structure):
        if item >= 0 and not st.face_up[position]:
            it = c.items[item]
            places.setdefault(_class(it, st.age), []).append(("structure", position, -1, it.deck))
    return places


def _nobody_sees(c, zone: int, slot: int, items: list[int], age: int) -> list[tuple[tuple[str, int], list[Place]]]:
    """The places of a slot of a zone nobody sees (`unknown_items`, where nothing is offered or
    known), grouped by class in the order each class first comes: every item is drawn again,
    its first places per class keeping the zone's own deck."""
    own: dict[tuple[str, int], int] = {}
    held = []
    for index, item in enumerate(items):
        it = c.items[item]
        key = _class(it, age)
        held.append((index, key))
        if it.deck == zone:
            own[key] = own.get(key, 0) + 1
    groups: dict[tuple[str, int], list[Place]] = {}
    for index, key in held:
        deck = zone if own.get(key, 0) > 0 else -1
        own[key] = own.get(key, 0) - 1
        groups.setdefault(key, []).append(("zone", slot, index, deck))
    return list(groups.items())


def _class(it, age: int) -> tuple[str, int]:
    return it.kind, it.age if it.age is not None else age + 1


def determinize(game: Game, seat: int, rng: random.Random,
                places: dict[tuple[str, int], list[Place]] | None = None) -> Game:
    """A copy of `game` in which what `seat` cannot see is drawn again: the unseen items of each
    class are dealt afresh over that class's unseen places (a place whose back shows keeps it:
    an item of the same deck), the other seats' choices of the current round are forgotten
    (they choose again), and the dice get a new state.  `places`: `unknown_items(game, seat)`,
    where the caller has them (the search draws the same position again at every iteration).
    The copy keeps what `game` keeps but what the items drawn again reach (`_forget_redrawn`).
    A seat the game lacks is UnknownName, as `observe` says: `None` (`to_move()` once the game
    is over) or seat 5 of two drew every hand again and was taken for a seat's view."""
    if not isinstance(game, Game):
        raise TypeError(f"determinize draws again a Game, not {type(game).__name__}")
    check_seat(seat, game.state.players)
    if not isinstance(rng, random.Random):
        raise TypeError(f"rng must be a random.Random, not {type(rng).__name__}")
    g = game.clone()
    st = g.state
    mapping: dict[int, int] = {}
    moved_from: dict[int, int] = {}   # (each item drawn again -> the slot it lay in)
    if places is None:
        places = unknown_items(g, seat)
    zones, structure = st.zones, st.structure
    for key in sorted(places):
        spots = places[key]
        # (`_item_at` written in: some hundred places at every decision of a look-ahead)
        olds = [zones[where][index] if kind == "zone" else structure[where] for kind, where, index, _ in spots]
        pool = sorted(olds)   # sorted: the draw must not depend on where the items really are
        rng.shuffle(pool)
        # Places whose back shows take, in turn, the first items of their deck left in the pool
        # (each such place's own item has that back, so the pool holds enough of each deck); the
        # other places take what is left, in the pool's order.  (The pool is sorted by deck once:
        # a search of it for each place was quadratic.)
        shown = [(i, spot[3]) for i, spot in enumerate(spots) if spot[3] >= 0]
        if shown:
            decks = g.content.items
            by_deck: dict[int, list[int]] = {}
            for j, item in enumerate(pool):
                by_deck.setdefault(decks[item].deck, []).append(j)
            if len(shown) < len(spots) or len(by_deck) > 1:   # (else: every place of one deck, in order)
                news: list[int | None] = [None] * len(spots)
                next_of = {deck: iter(js) for deck, js in by_deck.items()}
                taken = set()
                for i, deck in shown:
                    j = next(next_of[deck])
                    taken.add(j)
                    news[i] = pool[j]
                rest = iter([item for j, item in enumerate(pool) if j not in taken])
                pool = [n if n is not None else next(rest) for n in news]
        mapping.update(zip(olds, pool))   # (the pool now in the places' order)
    if mapping:
        loc = st.loc
        moved_from = {old: loc[old] for old in mapping}
        for spot_items in (zones[s] for s in set(moved_from.values())):
            spot_items[:] = [mapping.get(i, i) for i in spot_items]
        st.structure = [mapping.get(i, i) if i >= 0 else i for i in structure]
        for new, slot in zip(mapping.values(), moved_from.values()):   # (in the mapping's order: each old item's slot)
            loc[new] = slot
        st.hidden = [mapping.get(i, i) for i in st.hidden]
        if st.known:   # (another seat knows what now lies at the place it knew)
            st.known = {mapping.get(i, i): seats for i, seats in st.known.items()}
        # What lay on, under or at a place stays there, whatever item the place now holds.
        if st.attached:
            st.attached = {mapping.get(i, i): mapping.get(on, on) for i, on in st.attached.items()}
        for ties in ("positions", "item_coins", "prepaid"):
            held = getattr(st, ties)
            if held:
                setattr(st, ties, {mapping.get(i, i): v for i, v in held.items()})
        # A choice among unseen items offers what lies at their places now, and an unseen item an
        # effect under way has bound (a face-down item picked by its place, to be placed next) is
        # what lies at its place now: the names that hold it follow (only names that hold items:
        # a space or a count may be the same number as an item).
        blocks = g.content.blocks
        for f in st.frames + st.deferred:
            _follow(f.env, blocks[f.block].items, mapping)
        d = st.pending
        if d is not None:
            if d.kind == "item" and any(o in mapping for o in d.options):
                d = st.pending = attrs.evolve(d, options=[mapping.get(o, o) for o in d.options])
            _follow(d.env, _items_named(blocks, d), mapping)
    if st.flow == "round":
        for p in st.acting:
            if p != seat:
                st.choices[p] = None
        st.current = next(p for p in st.acting if st.choices[p] is None)
    st.rng = rng.getrandbits(64)
    _forget_redrawn(g, mapping, moved_from)
    return g


def _forget_redrawn(g: Game, mapping: dict[int, int], moved_from: dict[int, int]) -> None:
    """What copy `g` keeps (`core.copy_caches`) that the items drawn again (`mapping`: each old
    item to the one now lying where it lay, `moved_from[old]`) can make untrue, forgotten, as
    `core.relocate` forgets it for an item coming or going: where one lies in play (in a city,
    or on a space of a ruled zone that a seat controls), everything; in the structure, the
    structure's places; anywhere, what lies on what.  Mostly they lie in decks, in the box and
    in other seats' hands, and the seats' stats, prices and points stay (the greedy agent
    weighs every action of a round on such a copy)."""
    kinds = g.slot_kind
    structure = False
    # (most lie only in slots whose items reach nothing kept, decks, hands and the box: each
    # item is asked only where some slot they lay in may reach something)
    reaching = mapping if any(kinds[slot] for slot in set(moved_from.values())) else {}
    for old, new in reaching.items():
        slot = moved_from[old]
        kind = kinds[slot]
        if not kind or new == old:   # (an item may be drawn again where it lay)
            continue
        if kind & core.ACTIVE_SLOT or kind & core.RULED_SLOT and seats.ruled_owner(g, new, slot) >= 0:
            core.clear_caches(g)
            return
        structure = structure or bool(kind & core.STRUCTURE_SLOT)
    if structure:
        core.forget_structure(g)
    if mapping:
        g._hosts = None
        g._placed = None


def _follow(env: dict, names: frozenset[str], mapping: dict[int, int]) -> None:
    """The names of `env` that hold an item drawn again name the item at its place now."""
    for name in names:
        v = env.get(name)
        if type(v) is int and v in mapping:
            env[name] = mapping[v]


def _items_named(blocks, d) -> frozenset[str]:
    """The names of a pending decision's frame that hold items: those of the block that asks it
    (an item choice knows it), else those its answer's block has from around it (its `chosen`
    and alias are a space or a player, bound by the answer)."""
    if d.again_block >= 0:
        return blocks[d.again_block].items
    if d.kind == "option":
        return blocks[d.bodies[0]].items if d.bodies else frozenset()
    return blocks[d.body].items if d.body >= 0 else frozenset()


def greedy_step(game: Game, rng: random.Random) -> Action:
    """The greedy rollout policy: the action after which the seat to move leads the best other
    seat by the most points (ties at random).  In a simultaneous round the action takes effect
    only when the round resolves, so there every action looks alike and the draw decides."""
    me = game.to_move()
    actions = game.legal_actions()
    if len(actions) == 1:
        return actions[0]
    best, best_value = [], -math.inf
    for action in actions:
        trial = game.clone()
        trial._apply(action)
        value = rewards(trial)[me]
        if value > best_value + 1e-12:
            best, best_value = [action], value
        elif value >= best_value - 1e-12:
            best.append(action)
    return best[rng.randrange(len(best))]


def rewards(game: Game) -> list[float]:
    """Each seat's reward in [0, 1]: 0.8 for a win (shared among the seats of a shared victory;
    an unfinished game: none) and 0.2 times a logistic of the seat's lead over the best other
    seat, so that among equal results the search prefers the larger margin."""
    st = game.state
    n = st.players
    totals = [game.total_score(p) for p in range(n)]
    out = []
    for p in range(n):
        best_other = max((totals[q] for q in range(n) if q != p), default=0)
        # (the lead clamped where the logistic is flat to a float's precision: a margin of
        # thousands of points, which content may give, overflowed math.exp)
        lead = max(-500.0, min(500.0, (totals[p] - best_other) / 5.0))
        out.append(0.2 / (1.0 + math.exp(-lead)))
    if st.flow == "over":
        if st.winner is not None and st.winner >= 0:
            out[st.winner] += 0.8
        elif st.winner == DRAW:
            top = max(totals)
            tied = [p for p in range(n) if totals[p] == top] or list(range(n))
            for p in tied:
                out[p] += 0.8 / len(tied)
    return out


@attrs.define(eq=False)
class Node:
    visits: int = 0
    available: int = 0
    reward: list[float] = attrs.Factory(list)
    children: dict[tuple[int, Action], "Node"] = attrs.Factory(dict)


@attrs.define(eq=False)
class MCTSAgent:
    """ISMCTS for the seat to move: `iterations` determinized playouts per decision; `rollout`
    random (fast) or greedy (`greedy_step` plays the rest: slower); `depth` stops a
    playout after that many actions (None: at the end of the game) and scores the position as
    it stands; `exploration` is the UCB constant."""

    seed: int = 0
    iterations: int = 200
    rollout: str = "random"
    depth: int | None = None
    exploration: float = 0.7
    name: str = "mcts"
    rng: random.Random = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        # Checked here, not met inside `act` (iterations=2.5 failed there) nor taken silently
        # (depth=0 or -1, iterations=True; the command line refuses a depth below 1).
        self.seed = integer(self.seed, "seed")
        if not isinstance(self.rollout, str) or self.rollout not in ROLLOUTS:
            raise ValueError(f"unknown rollout {self.rollout!r}: one of {', '.join(ROLLOUTS)}")
        self.iterations = integer(self.iterations, "iterations", least=1)
        if self.depth is not None:
            self.depth = integer(self.depth, "depth", least=1, takes="an integer of at least 1, or None (each "
                                 "playout to the end of the game)")
        if isinstance(self.exploration, bool) or not isinstance(self.exploration, (int, float)):
            raise TypeError(f"exploration must be a number of at least 0, not {self.exploration!r}")
        if not 0 <= self.exploration < math.inf:
            raise ValueError(f"exploration must be a number of at least 0, not {self.exploration!r}")
        self.rng = random.Random(self.seed)

    def act(self, game: Game) -> Action:
        me = playing(game).to_move()
        actions = game.legal_actions()
        if len(actions) == 1:
            return actions[0]
        by_text = {str(a): a for a in actions}
        # Each decision draws from its own stream: a decision does not depend on how many
        # random numbers earlier searches used.
        rng = random.Random(derive("mcts", self.seed, len(game.state.history), me, self.rng.getrandbits(32)))
        n = game.state.players
        root = Node(reward=[0.0] * n)
        places = unknown_items(game, me)
        # (the tree's children keyed by seat and action: an action is a hashable value, its
        # text made only for the final choice's order)
        first_keys = [(me, a) for a in actions]
        for _ in range(self.iterations):
            g = determinize(game, me, rng, places)
            path = [root]
            node = root
            first = True
            while not g.over:
                p = me if first else g.to_move()
                legal = actions if first else g.legal_actions()
                keys = first_keys if first else [(p, a) for a in legal]
                for k in keys:
                    child = node.children.get(k)
                    if child is not None:
                        child.available += 1
                untried = [i for i, k in enumerate(keys) if k not in node.children]
                if untried:
                    i = untried[rng.randrange(len(untried))]
                    child = Node(available=1, reward=[0.0] * n)
                    node.children[keys[i]] = child
                    self._step(g, legal[i], p, first)
                    path.append(child)
                    break
                i = self._select(node, keys, p)
                node = node.children[keys[i]]
                self._step(g, legal[i], p, first)
                path.append(node)
                first = False
            result = self._playout(g, rng)
            for visited in path:
                visited.visits += 1
                for q in range(n):
                    visited.reward[q] += result[q]
        chosen = root.children
        best = max(sorted(by_text), key=lambda t: chosen[me, by_text[t]].visits if (me, by_text[t]) in chosen else -1)
        return by_text[best]

    @staticmethod
    def _step(g: Game, action: Action, seat: int, first: bool) -> None:
        # The root action is the searching seat's own, even where a lower seat of the round has
        # not chosen yet in this determinization.
        if first and g.state.flow == "round":
            g._apply(action, seat)
        else:
            g._apply(action)

    def _select(self, node: Node, keys: list[tuple[int, Action]], p: int) -> int:
        best, best_value = 0, -math.inf
        for i, k in enumerate(keys):
            child = node.children[k]
            value = child.reward[p] / child.visits + self.exploration * math.sqrt(
                math.log(max(child.available, 1)) / child.visits)
            if value > best_value:
                best, best_value = i, value
        return best

    def _playout(self, g: Game, rng: random.Random) -> list[float]:
        if self.rollout == "random" and self.depth is None:
            # Every seat drawing from `rng`, to the end: the game the loop below plays, action
            # for action and number for number, through the random turns of `play_out`.
            play_out(g, [RandomAgent(rng=rng)] * g.state.players)
            return rewards(g)
        steps = 0
        limit = MAX_GAME_ACTIONS if self.depth is None else min(self.depth, MAX_GAME_ACTIONS)
        while not g.over and steps < limit:
            if self.rollout == "greedy":
                g._apply(greedy_step(g, rng))
            else:
                g._apply(g.random_action(rng))
            steps += 1
        if self.depth is None:
            too_long(g)
        return rewards(g)
