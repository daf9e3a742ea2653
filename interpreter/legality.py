"""What the player to move may do now: the legal actions (listed, or one drawn at random without
listing them), and why an action is not legal.  An action is legal when its turn-wide guards
hold, each parameter is one of its selector's candidates, its requirements hold for the binding
and the player can pay for what it builds and pays."""

from __future__ import annotations

import random
from itertools import product
from typing import TYPE_CHECKING

from rulesdsl.model import STRUCTURE

from . import core, decisions, economy, selection
from .actions import CHOOSE, CHOOSE_OPTION, CHOOSE_PLAYER, CHOOSE_SPACE, PASS, Action, malformed
from .state import Frame

if TYPE_CHECKING:
    from .game import Game


def legal_actions(g: Game) -> list[Action]:
    st = g.state
    if st.flow == "over":
        return []
    if st.pending is not None:
        return decisions.answers(g, st.pending)
    out = []
    items = g.content.items
    for act, binding in bindings(g):
        out.append(Action(act.name, tuple(items[i].name for i in binding)))
    return out


def open_actions(g: Game, me: int):
    """The actions whose turn-wide conditions hold now, each with its parameters' candidates."""
    st = g.state
    guard_frame = Frame(0, 0, 0, me, {})
    for act in g.content.actions:
        if act.before_turn and st.before_used:
            continue
        if act.guards and not all(guard(g, guard_frame) for guard in act.guards):
            continue
        yield act, [selection.candidates(g, p.selector, me) for p in act.params]


def bindings(g: Game):
    st = g.state
    me = st.current
    coins = st.coins[me]
    for act, pools in open_actions(g, me):
        combos = ((x,) for x in pools[0]) if len(pools) == 1 else product(*pools)
        check = bool(act.requires or act.paid or act.pays)
        for binding in combos:
            if act.shared_pools and len(set(binding)) != len(binding):
                continue
            if check and not allowed(g, act, binding, me, coins):
                continue
            yield act, binding


def random_action(g: Game, rng: random.Random) -> Action:
    """A legal action drawn uniformly at random, without listing them all: candidate
    bindings are drawn uniformly and the illegal ones rejected (never drawn twice)."""
    st = g.state
    if st.pending is not None or st.flow == "over":
        actions = legal_actions(g)
        return actions[rng.randrange(len(actions))]
    me = st.current
    coins = st.coins[me]
    spaces = []
    total = 0
    for act, pools in open_actions(g, me):
        size = 1
        for pool in pools:
            size *= len(pool)
        if size:
            spaces.append((act, pools, size))
            total += size
    tried: set[int] = set()
    while len(tried) < total:
        r = rng.randrange(total)
        if r in tried:
            continue
        tried.add(r)
        k = r
        for act, pools, size in spaces:
            if k < size:
                break
            k -= size
        binding = []
        for pool in reversed(pools):
            k, j = divmod(k, len(pool))
            binding.append(pool[j])
        binding.reverse()
        if act.shared_pools and len(set(binding)) != len(binding):
            continue
        if (act.requires or act.paid or act.pays) and not allowed(g, act, binding, me, coins):
            continue
        return Action(act.name, tuple(core.name(g, i) for i in binding))
    raise RuntimeError("no legal action")


def allowed(g: Game, act, binding, me: int, coins: int) -> bool:
    if act.requires:
        f = Frame(act.block, 0, 0, me, {p.name: i for p, i in zip(act.params, binding)})
        for req in act.requires:
            if not req(g, f):
                return False
    if act.paid or act.pays:
        total = 0
        for idx in act.paid:
            total += economy.price(g, me, binding[idx])[0]
        if act.pays:
            f = Frame(act.block, 0, 0, me, {p.name: i for p, i in zip(act.params, binding)})
            total += sum(max(0, fn(g, f)) for fn in act.pays)
        if total > coins and total > economy.available_coins(g, me):
            return False
    return True


def explain_illegal(g: Game, action: Action) -> str | None:
    """Why an action is not legal now, or None when it is."""
    st = g.state
    if st.flow == "over":
        return "the game is over"
    problem = malformed(action)
    if problem is not None:
        return problem
    if st.pending is not None:
        d = st.pending
        if action.name not in (CHOOSE, CHOOSE_PLAYER, CHOOSE_SPACE, CHOOSE_OPTION, PASS):
            return f"player {d.player} must first answer a choice ({d.prompt or 'choose'})"
        if action in legal_actions(g):
            return None
        options = ", ".join(str(a) for a in legal_actions(g))
        return f"not one of the options: {options}"
    act = next((a for a in g.content.actions if a.name == action.name), None)
    if act is None:
        names = ", ".join(a.name for a in g.content.actions)
        return f"unknown action `{action.name}` (actions: {names})"
    if act.before_turn and st.before_used:
        return f"`{act.name}` comes only first in a turn, once"
    if len(action.args) != len(act.params):
        return f"`{act.name}` takes {len(act.params)} argument(s): {', '.join(p.name for p in act.params)}"
    binding = []
    for p, arg in zip(act.params, action.args):
        item = g.content.item_index.get(arg)
        if item is None:
            return f"there is no item named {arg!r}"
        if item not in selection.candidates(g, p.selector, st.current):
            where = "accessible in the structure" if p.selector.zone == STRUCTURE else f"in {p.selector.text}"
            return f"{arg} is not {where}"
        binding.append(item)
    if len(set(binding)) != len(binding):
        return "the same item twice"
    me = st.current
    f = Frame(act.block, 0, 0, me, {p.name: i for p, i in zip(act.params, binding)})
    for req in act.guards + act.requires:
        if not req(g, f):
            return "a requirement of this action does not hold now"
    if act.paid or act.pays:
        total = sum(economy.price(g, me, binding[i])[0] for i in act.paid)
        total += sum(max(0, fn(g, f)) for fn in act.pays)
        have = economy.available_coins(g, me)
        if total > have:
            return f"it costs {total} coins and player {me} has {have}"
    return None
