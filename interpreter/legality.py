"""What the player to move may do now: the legal actions (listed, or one drawn at random without
listing them), and why an action is not legal.  An action is legal when its turn-wide guards
hold, each parameter is one of its selector's candidates, its requirements hold for the binding
and the player can pay for what it builds and pays."""

from __future__ import annotations

import functools
import random
from itertools import product
from typing import TYPE_CHECKING, Callable, Iterator, Sequence

from rulesdsl.diagnostics import did_you_mean, elide
from rulesdsl.model import STRUCTURE
from rulesdsl.names import check_seat

from . import decisions, economy, selection, trade
from .actions import (CHOOSE, CHOOSE_OPTION, CHOOSE_PLAYER, CHOOSE_SPACE, PASS, Action, GameOver, malformed, new_action,
                      shown)
from .budget import GameStuck
from .economy import IMPOSSIBLE, available_coins, price
from .state import Frame

if TYPE_CHECKING:
    from .game import Game


def acting_seat(g: Game, seat: int | None) -> int | None:
    """The seat whose turn actions are asked for (`seat`, or the one to move), or None when that
    seat has no turn action to take now (a decision is pending, it waits, it has chosen)."""
    st = g.state
    if st.flow == "round":
        if seat is None:
            choices = st.choices
            for p in st.acting:   # (a loop, not next() over a generator: asked at every choice)
                if choices[p] is None:
                    return p
            return None
        return seat if seat in st.acting and st.choices[seat] is None else None
    return st.current if seat is None or seat == st.current else None


def legal_actions(g: Game, seat: int | None = None) -> list[Action]:
    """The legal actions of `seat` (default: the seat to move); none for a seat that does not
    have to act now.  Copies of one item make one action; a build that needs trade with
    neighbours makes one action per way to pay (`pay=p1:2`).  A pending decision's answers
    are one per option, copies among its options merged too (a random answer still weighs
    each copy: `random_action` and `play_out` draw among the options alike)."""
    if seat is not None:
        check_seat(seat, g.state.players)
    answers = pending_answers(g, seat)
    if answers is not None:
        listed = list(dict.fromkeys(answers))
        if listed:
            _keep(g, None, listed)
        return listed
    st = g.state
    if st.flow == "over":
        return []
    me = acting_seat(g, seat)
    if me is None:
        return []
    listed = _listed(g, me)
    if g.copied_names or len(g.action_by_name) != len(g.content.actions):
        listed = list(dict.fromkeys(listed))   # (copies of one item name the same action: merged)
    _keep(g, me, listed)
    return listed   # (each binding names its own items: no two alike)


def _keep(g: Game, me: int | None, listed: list[Action]) -> None:
    """Keep what `legal_actions` listed for seat `me` (None: the answers to the decision
    pending), with what tells its state from a later one (`was_listed`).  A copy: the caller
    may change the list it was given."""
    st = g.state
    g._kept_legal = (st, len(st.history), st.pending, st.flow, st.current, st.coins[:], st.choices[:], me,
                     listed[:])


_ANSWERS = frozenset((CHOOSE, CHOOSE_PLAYER, CHOOSE_SPACE, CHOOSE_OPTION, PASS))


def was_listed(g: Game, action: Action, seat: int | None) -> bool:
    """Whether `action` is one `legal_actions` listed for the seat `seat` acts as, in this very
    position: then `explain_illegal` has nothing to say of it (`Game.apply` takes it without
    asking).  The position is the one listed for while the state is the same object, no
    action was applied since (every action adds to the history, but a round's choice made
    out of seat order, which changes the choices), and nothing ran, moved or was forgotten
    through the game (`Game.run`, `advance`, `schedule`, `relocate`, `core.clear_caches`,
    `Game._apply` forget what was kept).  The decision pending, the flow, the seat to move and
    the coins are compared too: a state written to directly needs `core.clear_caches`, as for
    every other kept value, but a test that sets a seat's coins by hand is still refused."""
    kept = g._kept_legal
    if kept is None:
        return False
    st = g.state
    if (kept[0] is not st or kept[1] != len(st.history) or kept[2] is not st.pending or kept[3] != st.flow
            or kept[4] != st.current or kept[5] != st.coins or kept[6] != st.choices):
        return False
    if seat is not None and type(seat) is not int:   # (refused by `explain_illegal`: not a seat)
        return False
    if malformed(action) is not None:   # (an equal tuple that is not an Action, a str subclass)
        return False
    me = kept[7]
    if me is None:   # (the answers to a decision: `explain_illegal` takes its player's, by name)
        if seat is not None and seat != st.pending.player or action.name not in _ANSWERS:
            return False
    elif acting_seat(g, seat) != me:
        return False
    return action in kept[8]


def pending_answers(g: Game, seat: int | None) -> list[Action] | None:
    """The answers to the decision pending, one per option (copies each again), for `seat`
    (None: whoever must answer); [] for another seat; None where no decision is pending."""
    st = g.state
    if st.pending is None or st.flow == "over":
        return None
    return decisions.answers(g, st.pending) if seat is None or seat == st.pending.player else []


def first_legal_action(g: Game, seat: int | None = None) -> Action | None:
    """`legal_actions(g, seat)[0]` (None: there is none), without listing the others."""
    if seat is not None:
        check_seat(seat, g.state.players)   # (as legal_actions: a seat the game lacks is an error, not None)
    answers = pending_answers(g, seat)
    if answers is not None:
        return answers[0] if answers else None
    return next(_turn_actions(g, seat), None)


def not_stuck(g: Game, seat: int) -> None:
    """GameStuck where `seat`, to move, has no legal action (content `check` warns of, W504):
    raised before anything is applied, where an agent would fail on an empty list its own way.
    Asked before every decision of a seat that is not random (the greedy agent's, the
    search's): on a turn where no neighbour is paid, whether a binding is legal is what
    `can_act` answers, mostly from an action that needs no check, without naming one."""
    st = g.state
    if st.pending is None and st.flow != "over" and not g.content.trade_base:
        me = acting_seat(g, seat)
        if me is not None and can_act(g, me):
            return
    elif first_legal_action(g, seat) is not None:   # (a decision's answers; and a payment to choose)
        return
    raise GameStuck(seat)


def stuck(g: Game) -> str | None:
    """Why the game could not go on from its position (a seat to act with no legal action, or
    no seat to act in a game not over), or None.  Asked of a loaded save (`load_game`): one
    edited by hand (every open card of the structure turned face down) loaded, and was found
    stuck only at its first move."""
    if g.state.flow == "over":
        return None
    seats = g.to_act()
    if not seats:
        return "no seat is to act in it, and the game is not over"
    for p in seats:
        if first_legal_action(g, p) is None:
            return f"seat {p}, to act, has no legal action in it (the game could not go on)"
    return None


def _turn_actions(g: Game, seat: int | None) -> Iterator[Action]:
    """The legal actions of `seat` where no decision is pending, in order, one by one (the
    copies of one item each again)."""
    st = g.state
    if st.flow == "over":
        return
    me = acting_seat(g, seat)
    if me is None:
        return
    trades = bool(g.content.trade_base)
    coins = st.coins[me]
    for act, binding in bindings(g, me):
        if trades and act.paid:
            for pay in payments_for(g, act, binding, me, coins):
                yield named(g, act, binding, pay)
        else:
            yield named(g, act, binding)


def payments_for(g: Game, act, binding, me: int, coins: int) -> list:
    """The payments an action may name (one empty one when it needs no purchase)."""
    options = economy.payment_options(g, me, binding[act.paid[0]])
    if not options:
        return [()]
    # (loops, not comprehensions: those would make these names cells every call pays for)
    other = 0
    for i in act.paid[1:]:
        other += economy.price(g, me, binding[i])[0]
    out = []
    for total, pay in options:
        if total + other <= coins:
            out.append(pay)
    if g.state.item_coins and len(out) < len(options):
        # (coins lying on the seat's items pay too, as the price's check lets them: the
        # treasury alone left a build it allows with no payment to name)
        have = economy.available_coins(g, me)
        out = []
        for total, pay in options:
            if total + other <= have:
                out.append(pay)
    return out


def can_act(g: Game, me: int) -> bool:
    """Whether seat `me` has a turn action now: an open action (its guards hold, every parameter
    has candidates) with no requirement, cost or shared list answers at once, before any
    binding is looked at."""
    record = g._round_record
    if record is not None and g.state.flow == "round":
        if record(g, me)[-1]:   # (what the round keeps for the seat's draw says it at once)
            return True
    else:
        spaces, _ = g._open_spaces(g, me)
        for act, _, _ in spaces:
            if not act.checked:
                return True
    return next(bindings(g, me), None) is not None


def pools_of(g: Game, act, me: int) -> list[list[int]]:
    """The candidates of each parameter of `act` for `me` (kept while a round waits: those the
    seat's open actions kept, when `act` is one of them)."""
    st = g.state
    cache = g._round_pools if st.flow == "round" else None
    if cache is None:
        return _pools(g, act, me, False)
    key = (act.id, me)
    pools = cache.get(key)
    if pools is None:
        kept = cache.get(("spaces", me, st.before_used))
        if kept is not None:
            for open_act, open_pools, _ in kept[0]:
                if open_act is act:
                    pools = open_pools
                    break
        if pools is None:
            pools = _pools(g, act, me, True)
        cache[key] = pools
    return pools


def _pools(g: Game, act, me: int, shared: bool) -> list[list[int]]:
    """Each parameter's candidates; `shared`: a shared list (`Param.pool`) read as its zone's pool."""
    return [selection.zone_pool(g, p.selector, p.selector.zone, me) if shared and p.pool >= 0
            else selection.candidates(g, p.selector, me) for p in act.params]


def decode(g: Game, action: Action, me: int):
    """(action definition, its items, its payment or None) for an action legal for `me`: each
    argument names the first candidate of that name (copies of one item are alike)."""
    act = g.action_by_name[action.name]
    args = action.args
    pay = None
    if args and args[-1][:4] == "pay=":
        pay = trade.parse_pay(args[-1])
        args = args[:-1]
    binding = list(map(g.content.item_index.__getitem__, args))
    if g.copied_names:
        binding = canonical(g, act, binding, me)
    return act, binding, pay


def canonical(g: Game, act, binding: list[int], me: int, pools: list[list[int]] | None = None) -> list[int]:
    """The binding `decode` makes of these items' names: where copies of an item share a name,
    the first candidate of that name not taken yet (copies are alike; which one moves is not).
    `pools`: the candidates of the action's parameters, when the caller has them."""
    copied = g.copied_names
    names = g.item_names
    if len(binding) == 1 and pools is not None:   # (most actions take one item: nothing taken yet)
        name = names[binding[0]]
        if name not in copied:
            return [binding[0]]
        for item in pools[0]:   # (the first copy of that name)
            if names[item] == name:
                return [item]
        raise ValueError(f"{name!r} is not among the candidates")
    out: list[int] = []
    for k, item in enumerate(binding):
        name = names[item]
        if name not in copied:
            out.append(item)  # one item of that name: no need to look for it
            continue
        if pools is None:
            pools = pools_of(g, act, me)   # (kept while a simultaneous round waits)
        first = _first_untaken(pools[k], name, names, out)
        if first < 0:
            # An earlier parameter took the only copy this one may have (two parameters from
            # zones of different seats, both holding a copy): the first binding of these names
            # in order where each takes a copy of its own.
            wanted = list(map(names.__getitem__, binding))   # (not a comprehension: a cell every call would pay for)
            found = _first_binding(pools, wanted, names)
            if found is None:   # (the names came from a binding of these candidates: never)
                raise ValueError(f"no binding of the candidates names {', '.join(wanted)}")
            return found
        out.append(first)
    return out


def _first_untaken(pool: list[int], name: str, names: list[str], taken: Sequence[int]) -> int:
    """The first item of `pool` named `name` that is not in `taken` (-1: none)."""
    for item in pool:
        if names[item] == name and item not in taken:
            return item
    return -1


def _first_binding(pools: list[list[int]], wanted: list[str], names: list[str]) -> list[int] | None:
    """The first binding, parameter by parameter in the order of their candidates, that gives
    each parameter an item of its wanted name, no item twice (None: there is none)."""
    out: list[int] = []

    def extend(k: int) -> bool:
        if k == len(wanted):
            return True
        for item in pools[k]:
            if names[item] == wanted[k] and item not in out:
                out.append(item)
                if extend(k + 1):
                    return True
                out.pop()
        return False

    return out if extend(0) else None


def bindings(g: Game, me: int):
    """(action, binding) of every legal binding of seat `me`'s open actions, in order, one by
    one.  The open actions (those whose turn-wide conditions hold and whose parameters all have
    candidates, each with its parameters' candidates) come from the function written for the
    content (interpreter/spaces.py), which keeps a waiting round's."""
    coins = g.state.coins[me]
    for act, pools, _ in g._open_spaces(g, me)[0]:
        for binding in _bindings_of(g, act, pools, me, coins):
            yield act, binding


def _bindings_of(g: Game, act, pools: list[list[int]], me: int, coins: int):
    """The legal bindings of one open action, its parameters' candidates `pools`."""
    if len(pools) == 1:
        combos = ((x,) for x in pools[0])
    else:
        combos = product(*pools)
        if act.paid and not (act.requires or act.pays) and len(act.paid) == 1:
            # Whether it can be paid for depends on the one item paid for alone (`allowed`):
            # asked once per item, not once per binding it stands in (a wonder with each card).
            yield from _paid_bindings(g, act, combos, me, coins)
            return
    check = bool(act.requires or act.paid or act.pays)
    for binding in combos:
        if act.shared_pools and len(set(binding)) != len(binding):
            continue
        if check and not allowed(g, act, binding, me, coins):
            continue
        yield binding


def listed_bindings(g: Game, me: int) -> list[tuple]:
    """(action, binding) of every legal binding of seat `me`'s open actions, in order: what
    `bindings` yields, made as a list (a bot, or the learning environment's mask, lists them
    at every decision; the generators' layers cost more than the listing's own work).  An
    action of one parameter (take, build or discard a card) is listed by a loop of its own,
    its one condition, where it has one, its price against the seat's coins, its requirements
    asked on one frame refilled; one of two parameters with at most one item paid for (a
    wonder with a card) by a nested loop over the items it can pay for, each priced once, as
    `_paid_bindings` does; the rest as `_bindings_of` finds them."""
    coins = g.state.coins[me]
    out: list[tuple] = []
    append = out.append
    for act, pools, _ in g._open_spaces(g, me)[0]:
        if len(pools) == 2 and not (act.requires or act.pays) and len(act.paid) <= 1 and not act.shared_pools:
            # (no item may stand in both: each item's price asked once, in the order the
            # bindings would ask it, the items it refuses dropped before the bindings are made)
            first, second = pools
            if act.paid and first and second:
                ok = []
                for item in (second if act.paid[0] else first):
                    if _affordable(g, me, item, coins):
                        ok.append(item)
                if act.paid[0]:
                    second = ok
                else:
                    first = ok
            for x in first:
                for y in second:
                    append((act, (x, y)))
        elif len(pools) == 2 and not (act.requires or act.pays) and len(act.paid) <= 1:
            paid = act.paid[0] if act.paid else -1
            shared = act.shared_pools
            affordable: dict[int, bool] = {}
            second = pools[1]
            for x in pools[0]:
                for y in second:
                    if shared and x == y:
                        continue
                    if paid >= 0:
                        item = y if paid else x
                        ok = affordable.get(item)
                        if ok is None:
                            ok = affordable[item] = _affordable(g, me, item, coins)
                        if not ok:
                            continue
                    append((act, (x, y)))
        elif len(pools) != 1 or len(act.paid) > 1:
            for binding in _bindings_of(g, act, pools, me, coins):
                append((act, binding))
        elif act.requires or act.pays:   # (`allowed` of each item, written out: one frame refilled)
            f = g._binding_frame
            block, key, requires, pays = act.block, act.param_names[0], act.requires, act.pays
            for x in pools[0]:
                f.block = block
                f.me = me
                f.env = {key: x}
                for req in requires:
                    if not req(g, f):
                        break
                else:
                    if act.paid or pays:
                        total = price(g, me, x)[0] if act.paid else 0
                        for fn in pays:
                            amount = fn(g, f)
                            if amount > 0:
                                total += amount
                        if total > coins and total > available_coins(g, me) or total >= IMPOSSIBLE:
                            continue
                    append((act, (x,)))
        elif act.paid:   # (`_affordable` of each item, written out: a kept price is read in place)
            for x in pools[0]:
                cost = g._price_cache[me].get(x)
                cost = price(g, me, x)[0] if cost is None else cost[0]
                if (cost <= coins or cost <= available_coins(g, me)) and cost < IMPOSSIBLE:
                    append((act, (x,)))
        else:
            for x in pools[0]:
                append((act, (x,)))
    return out


def _affordable(g: Game, me: int, item: int, coins: int) -> bool:
    """`allowed` of an action whose one condition is the price of `item`: the seat can pay it."""
    cost = price(g, me, item)[0]
    return (cost <= coins or cost <= available_coins(g, me)) and cost < IMPOSSIBLE


def _one(g: Game, one: list[list], act, item: int) -> Action:
    """The Action of `act` naming `item` alone, made once per content (`Content._named_one`)."""
    row = one[act.id]
    action = row[item]
    if action is None:
        action = row[item] = new_action((act.name, (g.item_names[item],)))
    return action


def _listed(g: Game, me: int) -> list[Action]:
    """The legal turn actions of seat `me`, to act, in order (copies of one item each again):
    what `_turn_actions` yields, made as a list."""
    names = g.item_names
    trades = bool(g.content.trade_base)
    coins = g.state.coins[me]
    one = g.content._named_one
    if one is None:
        one = g.content._named_one = [[None] * len(names) for _ in g.content.actions]
    out: list[Action] = []
    append = out.append
    for act, binding in listed_bindings(g, me):
        if trades and act.paid:
            for pay in payments_for(g, act, binding, me, coins):
                append(named(g, act, binding, pay) if pay or len(binding) != 1 else _one(g, one, act, binding[0]))
        elif len(binding) == 1:   # (most actions take one item: its Action, made once per content)
            action = one[act.id][binding[0]]
            append(_one(g, one, act, binding[0]) if action is None else action)
        else:
            append(named(g, act, binding))
    return out


def _paid_bindings(g: Game, act, combos, me: int, coins: int):
    """`bindings` of an action of several parameters whose only condition is paying for the
    item of one of them."""
    paid = act.paid[0]
    answers: dict[int, bool] = {}
    for binding in combos:
        if act.shared_pools and len(set(binding)) != len(binding):
            continue
        item = binding[paid]
        ok = answers.get(item)
        if ok is None:
            ok = answers[item] = allowed(g, act, binding, me, coins)
        if ok:
            yield binding


# What `random.Random` draws a number below n with, where its bits come from `getrandbits`.
_RANDBELOW_WITH_BITS = getattr(random.Random, "_randbelow_with_getrandbits", None)


def below_of(rng: random.Random) -> Callable[[int], int]:
    """A function drawing a uniform integer in [0, n), n > 0: the numbers `rng.randrange(n)`
    draws.  For a `random.Random` it is `_randbelow` written out with `getrandbits` bound once
    (the method looks it up at every call: a random game draws a few hundred numbers), and
    carries that `getrandbits` as `bits`, so that the draws written for a content
    (interpreter/spaces.py) make the same numbers without a call per number.  Any other
    generator's function carries `bits` None: its numbers are its own."""
    if getattr(type(rng), "_randbelow", None) is not _RANDBELOW_WITH_BITS or _RANDBELOW_WITH_BITS is None:
        # randrange(n) is _randbelow(n) once n > 0 is checked: the same numbers, less work
        own = getattr(rng, "_randbelow", None) or getattr(rng, "randrange", None)
        if own is None:
            raise TypeError(f"a random generator (random.Random) is needed, not {type(rng).__name__}")

        def below_own(n: int) -> int:
            if n <= 0:   # (`_randbelow` of nothing draws for ever)
                raise nothing_to_draw(n)
            return own(n)
        below_own.bits = None   # type: ignore[attr-defined]
        return below_own
    getrandbits = rng.getrandbits

    def below(n: int) -> int:
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            if n <= 0:   # (asked only of a number drawn again: a draw from nothing would loop for ever)
                raise nothing_to_draw(n)
            r = getrandbits(k)
        return r
    below.bits = getrandbits   # type: ignore[attr-defined]
    return below


def nothing_to_draw(n: int) -> ValueError:
    """The error of a draw among `n` <= 0 choices: a caller that lost its candidates (an engine
    fault), said at once instead of drawing numbers for ever."""
    return ValueError(f"a random draw among {n} choices: there is nothing to draw from")


def random_action(g: Game, rng: random.Random, seat: int | None = None) -> Action:
    """A legal action drawn uniformly at random, without listing them all: candidate
    bindings are drawn uniformly and the illegal ones rejected (never drawn twice); then,
    when it needs trade, one of its payments."""
    st = g.state
    if st.flow == "over":
        raise GameOver()
    below = below_of(rng)
    if st.pending is not None:
        me = None
    elif seat is None and st.flow != "round":
        me = st.current
    else:
        me = acting_seat(g, seat)
    if me is None:
        # (a decision's answers one per option, copies each again: `play_out` draws so)
        actions = pending_answers(g, seat)
        if actions is None:
            actions = legal_actions(g, seat)
        if not actions:
            raise RuntimeError("no legal action")
        return actions[below(len(actions))]
    if st.flow != "round":
        return named(g, *g._draw(g, me, below))   # the same draw, written for the content (interpreter/spaces.py)
    if g._draw_in_round is not None:   # (a round's seat: its open actions are kept for the round)
        act, binding, pay, _ = g._draw_in_round(g, me, below)
        return named(g, act, binding, pay)
    spaces, total = g._open_spaces(g, me)
    return draw_among(g, me, below, spaces, total)


def draw_among(g: Game, me: int, below, spaces, total: int) -> Action:
    """A legal action of `me` drawn among open actions with their candidates and binding counts
    (`spaces`, `total`: what `open_spaces` gives), with the numbers `below(n)` draws in [0, n):
    a binding of all of theirs drawn uniformly (the last parameter varying fastest), the illegal
    rejected, none drawn twice; then, when it trades with neighbours, one of its payments."""
    act, binding, pay, _ = drawn_among(g, me, below, spaces, total)
    return named(g, act, binding, pay)


def unrefused(tried: set[int], total: int, below) -> int:
    """A number in [0, total) not in `tried`, drawn among those left: where a generator keeps
    giving numbers already refused (one that always says the same number would never stop), the
    draw goes on among the others, so it still ends, on a legal action or on none."""
    left = [n for n in range(total) if n not in tried]
    return left[below(len(left))]


# How many numbers already refused a draw takes from its generator, per number it may draw
# (plus one), before it draws among the others (`unrefused`): a fair generator gets there with
# odds below e**-32, so the same numbers still draw the same actions.
REPEATS_PER_NUMBER = 32


def drawn_among(g: Game, me: int, below, spaces, total: int) -> tuple:
    """`draw_among` in numbers: (action definition, its items, its payment: () when none, the
    candidates of its parameters the items were drawn from)."""
    coins = g.state.coins[me]
    tried: set[int] = set()
    repeats = 0
    while len(tried) < total:
        r = below(total)
        if r in tried:
            repeats += 1
            if repeats <= REPEATS_PER_NUMBER * (total + 1):
                continue
            r = unrefused(tried, total, below)
        tried.add(r)
        k = r
        for act, pools, size in spaces:
            if k < size:
                break
            k -= size
        if len(pools) == 1:
            binding = [pools[0][k]]
        else:
            binding = []
            for pool in reversed(pools):
                k, j = divmod(k, len(pool))
                binding.append(pool[j])
            binding.reverse()
            if act.shared_pools and len(set(binding)) != len(binding):
                continue
        if act.requires or act.pays:
            if not allowed(g, act, binding, me, coins):
                continue
        elif act.paid:  # `allowed` for an action that only builds: its price against the coins
            cost = 0
            for idx in act.paid:
                cost += economy.price(g, me, binding[idx])[0]
            if cost > coins and cost > economy.available_coins(g, me):
                continue
        pay = None
        if act.paid and g.content.trade_base:
            pays = payments_for(g, act, binding, me, coins)
            pay = pays[below(len(pays))]
        return act, binding, pay, pools
    raise GameStuck(me)


def named(g: Game, act, binding: list[int], pay=None) -> Action:
    """The Action that names a drawn binding (and its payment to neighbours, when it has one)."""
    names = g.item_names
    if len(binding) == 1:   # (most actions take one item)
        args = (names[binding[0]],)
    else:
        named_items = []   # (a loop: `map` over a bound method costs more per item)
        for item in binding:
            named_items.append(names[item])
        args = tuple(named_items)
    if pay:
        args += (pay_label(pay),)
    return new_action((act.name, args))


# A payment's label, kept: a listing names every way to pay for every build each time, and the
# same few payments come again and again (formatting one costs as much as listing a binding).
pay_label = functools.lru_cache(maxsize=1024)(trade.pay_label)


def binding_frame(g: Game, act, binding, me: int) -> Frame:
    """The frame a binding's requirements and payments read: one per game, refilled (they
    keep nothing of it, and a guard asks it at every draw)."""
    f = g._binding_frame
    f.block = act.block
    f.me = me
    f.env = dict(zip(act.param_names, binding))
    return f


def allowed(g: Game, act, binding, me: int, coins: int) -> bool:
    if act.requires:
        f = binding_frame(g, act, binding, me)
        for req in act.requires:
            if not req(g, f):
                return False
    if act.paid or act.pays:
        total = 0
        for idx in act.paid:
            total += economy.price(g, me, binding[idx])[0]
        if act.pays:
            if not act.requires:  # (else the frame the requirements read)
                f = binding_frame(g, act, binding, me)
            for fn in act.pays:
                amount = fn(g, f)
                if amount > 0:
                    total += amount
        if total > coins and total > economy.available_coins(g, me) or total >= economy.IMPOSSIBLE:
            return False
    return True


def explain_illegal(g: Game, action: Action, seat: int | None = None) -> str | None:
    """Why an action is not legal now for `seat` (default: the seat to move), or None when it is."""
    st = g.state
    if st.flow == "over":
        return "the game is over"
    problem = malformed(action)
    if problem is not None:
        return problem
    if seat is not None and (type(seat) is not int or not 0 <= seat < st.players):
        if type(seat) is not int:   # (a numpy integer read "there is no seat np.int64(1)")
            return f"{seat!r} is not a seat: a seat is an int, not {type(seat).__name__} (seats 0 to {st.players - 1})"
        return f"there is no seat {seat!r} (seats 0 to {st.players - 1})"
    if st.pending is not None:
        d = st.pending
        if seat is not None and seat != d.player:
            return f"seat {seat} does not act now: player {d.player} must first answer a choice"
        if action.name not in (CHOOSE, CHOOSE_PLAYER, CHOOSE_SPACE, CHOOSE_OPTION, PASS):
            return f"player {d.player} must first answer a choice ({d.prompt or 'choose'})"
        if action in legal_actions(g):
            return None
        options = ", ".join(str(a) for a in legal_actions(g))
        return f"not one of the options: {options}"
    me = acting_seat(g, seat)
    if me is None:
        if st.flow == "round" and seat in st.acting:
            return f"seat {seat} has already chosen its action this round"
        return f"seat {seat} does not act now (acting: {', '.join(map(str, _acting(g)))})"
    by_name = g.action_by_name
    if len(by_name) == len(g.content.actions):   # (names unique, as `check` holds them)
        act = by_name.get(action.name)
    else:
        act = next((a for a in g.content.actions if a.name == action.name), None)
    if act is None:
        names = ", ".join(a.name for a in g.content.actions)
        return f"unknown action `{elide(shown(action.name))}` (actions: {names})" + _guess(action.name, by_name)
    if act.before_turn and st.before_used:
        return f"`{act.name}` comes only first in a turn, once"
    args = list(action.args)
    pay = None
    if args and args[-1].startswith("pay="):
        pay = trade.parse_pay(args.pop())
        if pay is None:
            return (f"{elide(repr(action.args[-1]))} is not a payment (write pay=p1:2,p2:1: coins to each seat, seats in "
                    "order, as the legal actions list them)")
    if len(args) != len(act.params):
        return f"`{act.name}` takes {len(act.params)} argument(s): {', '.join(p.name for p in act.params)}"
    names = g.item_names
    index = g.content.item_index
    copied = g.copied_names
    pools = []
    for p, arg in zip(act.params, args):
        item = index.get(arg)
        if item is None:
            # (the names this argument may take first: `build press` most likely means the
            # `Press` at hand, whatever else the content holds)
            return f"there is no item named {elide(repr(arg))}" + (
                _guess(arg, {names[i] for i in selection.candidates(g, p.selector, me)}) or _guess(arg, index))
        pool = selection.candidates(g, p.selector, me)
        # (a name of one item: that item among the candidates; of copies: any of them)
        if (item not in pool) if arg not in copied else (arg not in (names[i] for i in pool)):
            where = "accessible in the structure" if p.selector.zone == STRUCTURE else f"in {p.selector.text}"
            return f"{elide(shown(arg))} is not {where}"
        pools.append(pool)
    # (the items these names bind as `decode` binds them: copies of a name are alike)
    if copied:
        binding = _first_binding(pools, args, names)
    else:   # (each name one item: those items, unless one is named twice)
        binding = [index[arg] for arg in args]
        if len(set(binding)) != len(binding):
            binding = None
    if binding is None:
        return "the same item twice"
    f = None
    if act.guards or act.requires or act.pays:
        f = Frame(act.block, 0, 0, me, dict(zip(act.param_names, binding)))
        for req in act.guards + act.requires:
            if not req(g, f):
                return "a requirement of this action does not hold now"
    if act.paid or act.pays:
        total = sum(economy.price(g, me, binding[i])[0] for i in act.paid)
        total += sum(max(0, fn(g, f)) for fn in act.pays)
        have = economy.available_coins(g, me)
        if total >= economy.IMPOSSIBLE and g.content.trade_none:
            return (f"it needs resources player {me} does not produce, and nothing can be bought in this game "
                    "(`trade none`)")
        if total >= economy.IMPOSSIBLE:
            return "what it needs cannot be produced or bought now"
        if total > have:
            return f"it costs {total} coins and player {me} has {have}"
    if act.paid and g.content.trade_base:
        pays = payments_for(g, act, binding, me, st.coins[me])
        if pays != [()] and pay not in pays:
            named = " or ".join(trade.pay_label(p) for p in pays)
            if pay is None:
                return f"it needs resources from neighbours: name a payment ({named})"
            return f"{elide(shown(action.args[-1]))} is not a way to pay for it ({named})"
        if pays == [()] and pay:
            return "it needs no purchase: name no payment"
    elif pay is not None:
        return "this action pays no one: name no payment"
    return None


def _acting(g: Game) -> list[int]:
    st = g.state
    if st.flow == "round":
        return [p for p in st.acting if st.choices[p] is None]
    return [st.current]


def _guess(word: str, known) -> str:
    """`: did you mean `X`?` for the known name closest to a misspelt one (letter case aside:
    names are matched exactly), or nothing.  Only on a refusal's way out: the names the content
    defines are public, so no hidden item is named."""
    hint = did_you_mean(word, known) if len(word) <= 100 else None   # (difflib on a huge name: a stall)
    return f": {hint}" if hint else ""
