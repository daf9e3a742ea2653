"""The economy: what a player's city gives (stats, production), the bank's prices, what an item
costs a player (cheapest payment, chains), coins gained, lost and spent, and building: paying
for an item and putting it into play.  Stats and prices are cached per player until a city
changes (`core.dirty`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import core, events, machine, seats
from . import trade as neighbour_trade
from .budget import MAX_QUANTITY
from .costs import Stats, cheapest_trade, compute_stats
from .state import Frame

if TYPE_CHECKING:
    from .game import Game


def stats(g: Game, p: int) -> Stats:
    s = g._stats[p]
    if s is None:
        s = g._stats[p] = _fresh_stats(g, p)
    return s


def _fresh_stats(g: Game, p: int) -> Stats:
    """Seat p's stats worked out from its items in play."""
    zones = g.state.zones
    mine: list[int] = []
    for slot in g.active_slots[p]:
        mine += zones[slot]
    for slot in g.ruled:
        mine += [i for i in zones[slot] if seats.ruled_owner(g, i, slot) == p]
    return compute_stats(g.content, mine, g.state.attached)


def modifier(g: Game, name: str, p: int) -> int:
    """What seat p's items in play add up to for a `modify NAME` amount."""
    s = g._stats[p]
    if s is None:
        s = stats(g, p)
    return s.modifiers.get(name, 0)


def kept_value(g: Game, fn, f) -> object:
    """`fn(g, f)`, an expression the compiler found reads nothing but seat f.me's `modify`
    amounts (several of them: a guard adding them up is read by every seat every round), kept
    with the seat's stats until an amount changes."""
    s = g._stats[f.me]
    if s is None:
        s = stats(g, f.me)
    value = s.kept.get(fn)
    if value is None:
        value = s.kept[fn] = fn(g, f)
    return value


def production(g: Game, p: int, resource, colors) -> int:
    r = g._resource_index[resource] if isinstance(resource, str) else resource
    s = g._stats[p]
    if s is None:
        s = stats(g, p)
    if colors is None:
        return s.produce[r]
    row = s.colored.get(colors)
    if row is None:  # what the cards of these colours make together, once per city change
        row = s.colored[colors] = _colored(s, colors)
    return row[r]


def _colored(s: Stats, colors) -> list[int]:
    """What the cards of these colours produce together, per resource."""
    rows = []   # (a loop: a comprehension is a function made at every call)
    for color, row in s.by_color.items():
        if color in colors:
            rows.append(row)
    # (column sums: `zip` turns the rows into columns without a bytecode per cell)
    return list(map(sum, zip(*rows))) if rows else [0] * len(s.produce)


def trade_prices(g: Game, p: int) -> list[int]:
    """The bank price of each resource for player p (`IMPOSSIBLE` each where nothing is sold:
    `trade none`)."""
    if g.content.trade_none:
        return [IMPOSSIBLE] * len(g.content.resources)
    bank = g._bank_price
    return [bank(g, p, r) for r in range(len(g.content.resources))]


def trade_price(g: Game, p: int, r: int) -> int:
    """The bank price of one resource, computed when first needed after a city changes.  (Its
    definition: games read the one written for their content, `g._bank_price`, the formula
    written in: interpreter/pricing.py; tests/test_pricing.py holds the two to each other.)"""
    prices = g._prices[p]
    if prices is None:
        prices = g._prices[p] = [-1] * len(g.content.resources)
    price = prices[r]
    if price < 0:
        s = g._stats[p]
        if s is None:
            s = stats(g, p)
        # The formula's value is kept apart: a change in p's city that leaves what the seats
        # produce alone changes p's adjustments below, not the formula (`Content.price_spread`).
        formula = g._trade_formula[p]
        if formula is None:
            formula = g._trade_formula[p] = [-1] * len(prices)
        price = formula[r]
        if price < 0:
            fn = g.content.trade_price
            price = formula[r] = fn(g, g._pricing[p][r]) if fn else 2
        fixed = s.fixed[r]
        if fixed is not None and fixed < price:   # (tests, not `min` and `max`: `pricing` writes the same)
            price = fixed
        if s.trade_discount[r]:
            price -= s.trade_discount[r]
            if price < 1:
                price = 1
        prices[r] = price
    return price


def price(g: Game, p: int, item: int) -> tuple[int, int, bool]:
    """(coins to pay in all, of which for trading, whether free by chain)."""
    cache = g._price_cache[p]
    hit = cache.get(item)
    if hit is not None:
        return hit
    s = g._stats[p]
    if s is None:
        s = stats(g, p)
    # (written per item, interpreter/pricing.py; the unusual cases handed to `_priced`)
    result = cache[item] = g._priced[item](g, p, s)
    return result


def _priced(g: Game, p: int, it, s: Stats) -> tuple[int, int, bool]:
    """Seat p's price of `it` (`s`: its stats), not kept: the generic way."""
    if it.chain_from and _chained(g, p, it, s):
        return (0, 0, True)
    if it.chain_from and s.chain_price is not None and (it.cost is None or _cost(g, p, it, s)[0] > s.chain_price):
        return (s.chain_price, 0, False)
    if it.cost is None:
        return (0, 0, False)
    return _cost(g, p, it, s)


def _chained(g: Game, p: int, it, s: Stats) -> bool:
    """Whether seat p (stats `s`) holds, or may borrow from a neighbour, a chain that makes `it`
    free.  (Apart from `price`, so that its names are not cells every price pays to create.)"""
    if not s.chains.isdisjoint(it.chain_from):
        return True
    return bool(s.borrow_chains) and any(not _card_chains(g, q).isdisjoint(it.chain_from)
                                         for q in seats.seats_of(g, "neighbours", p))


def _card_chains(g: Game, q: int) -> set[str]:
    """The chain symbols on the cards seat q has in play (`borrow_chains` borrows those: not what
    its other items give, a token standing for a chain among them)."""
    items, zones = g.content.items, g.state.zones
    out: set[str] = set()
    for slot in g.active_slots[q]:
        for i in zones[slot]:
            it = items[i]
            if it.chain_gives and it.kind == "card":
                out.update(it.chain_gives)
    return out


IMPOSSIBLE = 10**9   # the price of what cannot be had at all (neighbours lacking a resource; `trade none`)


def _cost(g: Game, p: int, it, s: Stats) -> tuple[int, int, bool]:
    cost = it.cost
    coins = cost.coins + (max(0, cost.coins_fn(g, g._reading[p])) if cost.coins_fn else 0)
    if g.content.trade_base:
        need = _missing(cost.needs, s.produce)
        if need is None:
            return (coins, 0, False)
        if s.discounts:   # (some missing units may be free)
            least = neighbour_trade.cheapest_waived(g, p, tuple(need), s, free_units(it, s))
        else:
            least = neighbour_trade.cheapest(g, p, tuple(need), s)
        return (coins + least, least, False) if least is not None else (IMPOSSIBLE, IMPOSSIBLE, False)
    discount = waive = 0
    for n, kind, color, or_coins in s.discounts:
        if (kind is None or kind == it.kind) and (color is None or color == it.color):
            discount += n
            waive += or_coins
    if not discount and not waive and not s.one_of:
        # Every missing unit bought at its price (`cheapest_trade` with nothing to weigh up).
        trade = 0
        produce = s.produce
        kept = g._prices[p]   # (`trade_price`'s kept prices read here: most are kept)
        for r, c in cost.needs:
            q = produce[r]
            if c > q:
                unit = kept[r] if kept is not None else -1
                trade += (c - q) * (unit if unit >= 0 else g._bank_price(g, p, r))
        return (coins + trade, trade, False)
    produce = s.produce
    need = [0] * len(produce)
    prices = None   # (each resource's price where a unit is missing; None: nothing is)
    for r, c in cost.needs:
        q = produce[r]
        if c > q:
            need[r] = c - q
            if prices is None:
                prices = [0] * len(produce)
            prices[r] = g._bank_price(g, p, r)
    trade = cheapest_trade(need, prices, s.one_of, discount) if prices else 0
    total = coins + trade
    if waive and coins:
        # "Ignore one cost symbol": the coin cost instead of a resource, whichever is cheaper.
        without = cheapest_trade(need, prices, s.one_of, discount - waive) if prices else 0
        if without < total:
            return (without, without, False)
    return (total, trade, False)


def _missing(needs, produce: list[int]) -> list[int] | None:
    """The units of each resource a cost (`needs`: (resource, units)) lacks beyond what is
    produced (`produce`), by resource; None where nothing lacks (no list made)."""
    need = None
    for r, c in needs:
        q = produce[r]
        if c > q:
            if need is None:
                need = [0] * len(produce)
            need[r] = c - q
    return need


def _priced_untraded(g: Game, p: int, it, s: Stats) -> tuple[int, int, bool]:
    """`_priced` in a game where nothing is bought (`trade none`)."""
    if it.chain_from and _chained(g, p, it, s):
        return (0, 0, True)
    if it.chain_from and s.chain_price is not None and (it.cost is None
                                                        or _untraded(g, p, it, s)[0] > s.chain_price):
        return (s.chain_price, 0, False)
    if it.cost is None:
        return (0, 0, False)
    return _untraded(g, p, it, s)


def _untraded(g: Game, p: int, it, s: Stats) -> tuple[int, int, bool]:
    """`_cost` in a game where nothing is bought (`trade none`): the units the seat's own
    production lacks are covered by its one-of producers and its discounts or not at all (no bank
    price is worked out: there is none to pay)."""
    cost = it.cost
    coins = cost.coins + (max(0, cost.coins_fn(g, g._reading[p])) if cost.coins_fn else 0)
    produce = s.produce
    need = _missing(cost.needs, produce)
    discount = waive = 0
    for n, kind, color, or_coins in s.discounts:
        if (kind is None or kind == it.kind) and (color is None or color == it.color):
            discount += n
            waive += or_coins
    if need is None:
        # ("Ignore one cost symbol": with no unit missing, the coin cost is the one waived)
        return (0, 0, False) if waive and coins else (coins, 0, False)
    # (every unit priced 1: what is left to buy is the number of units nothing covers)
    ones = [1] * len(produce)
    if waive and coins and not cheapest_trade(need, ones, s.one_of, discount - waive):
        return (0, 0, False)
    if cheapest_trade(need, ones, s.one_of, discount):
        return (IMPOSSIBLE, IMPOSSIBLE, False)
    return (coins, 0, False)


def free_units(it, s: Stats) -> int:
    """How many missing units of `it`'s cost a seat's discounts (`s`) make free in a game that
    trades with neighbours: those whose kind and colour fit it, as at the bank."""
    free = 0
    for n, kind, color, _ in s.discounts:
        if (kind is None or kind == it.kind) and (color is None or color == it.color):
            free += n
    return free


def payment_options(g: Game, p: int, item: int) -> list[tuple[int, neighbour_trade.Payment]] | None:
    """A game that trades with neighbours: the ways p can pay for `item`, (coins in all, coins
    to each seller), cheapest first; None when it needs no purchase (or the game trades with
    the bank, or a chain makes it free)."""
    if not g.content.trade_base:
        return None
    # (the price and the stats read where they are kept: a listing asks this of every build
    # it just priced)
    priced = g._price_cache[p].get(item)
    total, traded, chain = price(g, p, item) if priced is None else priced
    if chain or not traded or total >= IMPOSSIBLE:
        return None
    it = g.content.items[item]
    s = g._stats[p]
    if s is None:
        s = stats(g, p)
    need = missing(it.cost, s.produce)
    coins = total - traded
    out = []   # (a loop: a comprehension would make `coins` a cell every call pays for)
    if s.discounts:
        ways = neighbour_trade.payments_waived(g, p, need, s, free_units(it, s))
    else:
        ways = neighbour_trade.payments(g, p, need, s)
    for t, pay in ways:
        out.append((coins + t, pay))
    return out


def missing(cost, produce: list[int]) -> tuple[int, ...]:
    """How many units of each resource a cost asks for beyond what is produced."""
    need = [0] * len(produce)
    for r, c in cost.needs:
        if c > produce[r]:
            need[r] = c - produce[r]
    return tuple(need)


def round_payment(g: Game, p: int, act, binding: list[int], pay) -> tuple[int, dict[int, int], list[int], list]:
    """What seat p's action in a simultaneous round pays before anything resolves: (coins to the
    bank, coins to each seller, the items it paid for, (seller, resource, coins) trades; the
    units bought from neighbours are worked out only where a trigger hears `traded`)."""
    bank = 0
    to_seats: dict[int, int] = {}
    paid: list[int] = []
    trades: list[tuple[int, str, int]] = []
    for idx in act.paid:
        item = binding[idx]
        total, traded, chain = price(g, p, item)
        if pay and idx == act.paid[0]:
            # The action is legal, so a payment it names is one of its first item's ways to pay.
            chosen = pay
        elif chain or not traded:   # (`payment_options` lists no way: nothing is bought)
            chosen = None
        else:
            options = payment_options(g, p, item)
            chosen = None
            if options:
                chosen = options[0][1]
                for option in options:
                    if option[1] == pay:
                        chosen = pay
                        break
        if chosen is not None:
            bank += total - traded
            for seller, coins in chosen:
                to_seats[seller] = to_seats.get(seller, 0) + coins
            if "traded" in g.content.triggers_by_event:  # (which units were bought: for the triggers only)
                trades += _bought(g, p, item, chosen)
        else:
            bank += total
            if traded:
                trades.append((-1, "", traded))
        paid.append(item)
    return bank, to_seats, paid, trades


def _bought(g: Game, p: int, item: int, pay) -> list[tuple[int, str, int]]:
    """(seller, resource, coins) of each unit seat p buys from neighbours for `item`, paying `pay`."""
    s = stats(g, p)
    it = g.content.items[item]
    need = missing(it.cost, s.produce)
    resources = g.content.resources
    free = free_units(it, s) if s.discounts else 0
    return [(seller, resources[r], coins) for seller, r, coins in neighbour_trade.purchases(g, p, need, s, pay, free)]


def available_coins(g: Game, p: int) -> int:
    """Treasury plus coins lying on the player's items in play (spendable, not losable)."""
    st = g.state
    if not st.item_coins:
        return st.coins[p]
    return st.coins[p] + _coins_on_items(g, p)


def _coins_on_items(g: Game, p: int) -> int:
    st = g.state
    return sum(n for i, n in st.item_coins.items() if core.owner_of(g, i) == p and g.slot_active[st.loc[i]])


def gain_coins(g: Game, p: int, n: int) -> None:
    if n > 0:
        coins = g.state.coins
        have = coins[p] + n
        if have >= MAX_QUANTITY:
            raise machine.too_large(g, f"player {p}'s coins", have)
        coins[p] = have


def lose_coins(g: Game, p: int, n: int) -> None:
    if n > 0:
        g.state.coins[p] = max(0, g.state.coins[p] - n)


def put_coins(g: Game, amount: int, item: int) -> None:
    if amount > 0:
        lying = g.state.item_coins.get(item, 0) + amount
        if lying >= MAX_QUANTITY:
            raise machine.too_large(g, f"the coins on {g.content.items[item].name}", lying)
        g.state.item_coins[item] = lying


def spend(g: Game, p: int, amount: int) -> None:
    """Pay the bank: treasury first, then coins lying on the player's items."""
    st = g.state
    if amount <= 0:
        return
    have = st.coins[p]
    if amount <= have:  # the treasury pays it all: the common case
        st.coins[p] = have - amount
        return
    from_treasury = have
    st.coins[p] -= from_treasury
    amount -= from_treasury
    for i in sorted(st.item_coins):
        if amount <= 0:
            break
        if core.owner_of(g, i) == p and g.slot_active[st.loc[i]]:
            take = min(amount, st.item_coins[i])
            st.item_coins[i] -= take
            amount -= take


def build(g: Game, p: int, item: int, free: bool = False) -> None:
    via = "free"
    frames: list[Frame] = []
    prepaid = g.state.prepaid
    if prepaid and prepaid.get(item) == p:
        # Paid with the round's payments (turns.resolve_round), before any effect resolved.
        del prepaid[item]
        via = "chain" if price(g, p, item)[2] else "paid"
    elif not free:
        # (the kept price read here, no call: a build mostly follows the draw that priced it)
        priced = g._price_cache[p].get(item)
        total, trade, chain = price(g, p, item) if priced is None else priced
        via = "chain" if chain else "paid"
        if total > 0:   # (`spend`'s common case without its call: the treasury pays it all)
            coins = g.state.coins
            if total <= coins[p]:
                coins[p] -= total
            else:
                spend(g, p, total)
        if trade:
            if g.content.trade_base and not chain:
                frames += _pay_neighbours(g, p, item)
            else:
                # (`events.event_frames` without its call: an event of no item reads what hears
                # it by its name alone, kept once looked for; mostly a trigger out of play)
                hearing = g._hearing.get("traded")
                if hearing is None:
                    frames += events.event_frames(g, "traded", p, fields={"seller": -1, "resource": "", "amount": trade})
                elif hearing and events.in_play(g, hearing):
                    frames += events.heard_frames(g, hearing, "traded", p, -1, None,
                                                  {"seller": -1, "resource": "", "amount": trade})
    g._arrive[item](g, p, "built", via, frames)


def _pay_neighbours(g: Game, p: int, item: int) -> list[Frame]:
    """A build an effect makes (no action named its payment) in a game whose seats buy from
    their neighbours: the sellers of its first way to pay get their coins, as a round pays
    them; the frames of the `traded` it sets off."""
    options = payment_options(g, p, item)
    if not options:
        return []
    chosen = options[0][1]
    trades = _bought(g, p, item, chosen) if "traded" in g.content.triggers_by_event else ()
    return pay_sellers(g, p, chosen, trades)


def pay_sellers(g: Game, p: int, sellers, trades) -> list[Frame]:
    """Seat p's coins reach the seats it bought from: (seller, coins) of `sellers`; the frames
    of the `traded` each (seller, resource, coins) of `trades` sets off.  One place for a
    round's payment, an action's and a build an effect makes."""
    coins = g.state.coins
    for seller, amount in sellers:
        coins[seller] += amount
        if coins[seller] >= MAX_QUANTITY:   # (a seller near the limit paid more than it can hold)
            have, coins[seller] = coins[seller], coins[seller] - amount
            raise machine.too_large(g, f"player {seller}'s coins", have)
    frames: list[Frame] = []
    for seller, resource, amount in trades:
        frames += events.event_frames(g, "traded", p, fields={"seller": seller, "resource": resource,
                                                             "amount": amount})
    return frames


def taken_along(g: Game, p: int, riders: list[int], to: int = -1) -> None:
    """What lay on a card taken from the structure (built, or moved, placed or claimed: under a
    wonder) goes to the seat that took it, acquired as `take_attached` does; where the card went
    to the discard pile (slot `to`), or the item cannot come into play (its kind has no
    `build_zone`), or no seat took it, to the discard pile, as `discard` puts it there.  (Left
    behind, it lay in the structure on no card.)"""
    build_zone = g.content.build_zone
    pile = g.zone_base[g.content.discard_zone]
    for x in riders:
        if p >= 0 and to != pile and g.content.items[x].kind in build_zone:
            acquire(g, p, x)
        else:
            frames: list[Frame] = []
            core.arrive(g, x, pile, p, frames)
            if frames:
                machine.schedule(g, frames)


def acquire(g: Game, p: int, item: int) -> None:
    g._arrive[item](g, p, "acquired", None, [])


def _into_play(g: Game, p: int, item: int, event: str, via: str | None, frames: list[Frame]) -> None:
    """`item` comes into seat p's city: the generic arrival, which interpreter/arrivals.py writes
    out per item (`g._arrive`, what `build` and `acquire` call) and hands the unusual ones."""
    it = g.content.items[item]
    riders = core.leaving_with(g, item) if g.content.structure_riders else None
    try:
        core.relocate(g, item, g.zone_slots[g.content.build_zone[it.kind]][p])
    except KeyError:
        if it.kind in g.content.build_zone:
            raise
        # (content never builds such an item; a state edited by hand can ask it)
        raise machine.failure(g, f"{it.name} cannot come into play: its kind, {it.kind}, has no build_zone") from None
    # What happens because the item is now in play (the rules' and other items' `built`
    # triggers, e.g. "once 7 wonders are built") comes first, then the item's own effect.
    # (Asked only where a trigger may hear it: the triggers an item of that kind and colour,
    # come that way, could set off are kept once looked for, by `events.event_frames`.)
    if event in g.content.triggers_by_event:
        hearing = g._hearing.get((event, it.kind, it.color, via))
        if hearing is None:
            frames += events.event_frames(g, event, p, item, fields={"via": via})
        elif hearing:
            frames += events.heard_frames(g, hearing, event, p, item, it, {"via": via})
    if it.effect >= 0:
        frames.append(machine.frame(g, it.effect, g.block_stops[it.effect], p, {}))
    for sym in it.science:
        frames += events.event_frames(g, "gained_science", p, fields={"symbol": sym})
    if riders:   # (what they set off runs after the item's own: scheduled first)
        taken_along(g, p, riders)
    if frames:
        machine.schedule(g, frames)
