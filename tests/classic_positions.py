"""Building classic 7 Wonders test positions (a test helper, like tests/positions.py for Duel).

A classic game starts with every player holding a hand of 7 and all seats to act.  These helpers
put named items where a test wants them through the runtime's own `Game.relocate` (no effect runs:
a card given to a city is as if built long ago), and play rounds through the simultaneous API
(`to_act`, `legal_actions(seat)`, `apply(action, seat=k)`).

Copies share a name, so a name picks a copy: one lying outside the players' zones first, else one
taken from another player's hand, which is then refilled with a spare card so that every hand keeps
its size (the round and passing rules need equal hands).

Typical use::

    game = classic_game(3)
    set_board(game, 0, "Gizah (Day)")
    give(game, 0, "Stone Pit", "Ore Vein")
    set_hand(game, 0, "Barracks", "Guard Tower", ...)
    play_round(game, {0: act("build", "Barracks")})      # the other seats sell a card
"""

from __future__ import annotations

from pathlib import Path

from rulesdsl.interpreter import Action, Game
from rulesdsl.pipeline import new_game

CLASSIC = str(Path(__file__).resolve().parent.parent / "cards" / "classic")


def classic_game(players: int = 3, seed: int = 0, options: tuple[str, ...] = ()) -> Game:
    return new_game(base=CLASSIC, players=players, seed=seed, options=list(options))


def act(name: str, *args: str, pay: tuple[tuple[int, int], ...] = ()) -> Action:
    """An action; `pay` is the coins to each neighbour, written as the engine's last argument
    `pay=p1:2,p2:1`."""
    if pay:
        args = (*args, "pay=" + ",".join(f"p{s}:{c}" for s, c in pay))
    return Action(name, tuple(args))


# -- looking things up ----------------------------------------------------------------------------

def zone_id(game: Game, zone: str) -> int:
    return game.content.zone_index[zone]


def slot_of(game: Game, zone: str, owner: int = 0) -> int:
    return game.slot(zone_id(game, zone), owner)


def names(game: Game, zone: str, owner: int = 0) -> list[str]:
    return game.items_in(zone, owner)


def copies(game: Game, name: str) -> list[int]:
    return [it.id for it in game.content.items if it.name == name]


def owner_zone(game: Game, i: int) -> tuple[str, int | None]:
    """(zone name, owner or None) of item i; ("nowhere", None) out of the game."""
    slot = game.state.loc[i]
    if slot < 0:
        return ("nowhere", None)
    zone = game.content.zones[game.slot_zone[slot]]
    return (zone.name, game.slot_owner[slot] if zone.per_player else None)


def hand(game: Game, p: int) -> list[str]:
    return sorted(names(game, "hand", p))


def score(game: Game, p: int, category: str) -> int:
    return game.score(p).get(category, 0)


# -- changing the position --------------------------------------------------------------------------

def _spare(game: Game, avoid: set[int]) -> int:
    """A card to refill a hand with: from the box, a guild the game can spare, the discard pile, or
    a later age's deck."""
    st = game.state
    for j in st.zones[slot_of(game, "box")]:
        if game.content.items[j].kind == "card" and j not in avoid:
            return j
    guilds = [j for j in st.zones[slot_of(game, "guilds")] if j not in avoid]
    if len(guilds) > game.content.players + 2:
        return guilds[0]
    for j in st.zones[slot_of(game, "discard")]:
        if j not in avoid:
            return j
    # Last resort: a card of a later age's deck (that age then deals one hand a card short).
    for zone in ("age2", "age3"):
        for j in st.zones[slot_of(game, zone)]:
            if j not in avoid:
                return j
    raise AssertionError("no spare card to keep the hands even")


def take(game: Game, name: str, avoid: set[int] = frozenset()) -> int:
    """A copy of `name` for a test to place: one outside the players' zones (decks, box) if any,
    else one from a player's hand (refilled with a spare card)."""
    st = game.state
    ids = [i for i in copies(game, name) if i not in avoid]
    loose = [i for i in ids if st.loc[i] >= 0 and not game.content.zones[game.slot_zone[st.loc[i]]].per_player]
    loose.sort(key=lambda i: owner_zone(game, i)[0] == "discard")      # the discard pile last
    if loose:
        return loose[0]
    held = [i for i in ids if owner_zone(game, i)[0] == "hand"]
    if held:
        i = held[0]
        slot = st.loc[i]
        game.relocate(_spare(game, avoid | {i}), slot)
        return i
    raise AssertionError(f"no copy of {name!r} to take")


def place(game: Game, name: str, zone: str, owner: int = 0) -> int:
    i = take(game, name)
    game.relocate(i, slot_of(game, zone, owner))
    return i


def give(game: Game, p: int, *item_names: str) -> None:
    """Cards into the player's city, stages into their built stages: as if built earlier."""
    for name in item_names:
        i = take(game, name)
        kind = game.content.items[i].kind
        game.relocate(i, slot_of(game, {"card": "city", "stage": "built_stages"}[kind], p))


def set_hand(game: Game, p: int, *card_names: str, keep: tuple[int, ...] = ()) -> None:
    """Exactly these cards in the player's hand; the cards held before go to the box.  The hands of
    the seats in `keep` (set up already) are not taken from."""
    box = slot_of(game, "box")
    for i in list(game.state.zones[slot_of(game, "hand", p)]):
        game.relocate(i, box)
    chosen: set[int] = {i for q in keep for i in game.state.zones[slot_of(game, "hand", q)]}
    for name in card_names:
        i = take(game, name, avoid=chosen)
        chosen.add(i)
        game.relocate(i, slot_of(game, "hand", p))


def discard_pile(game: Game, *card_names: str) -> None:
    for name in card_names:
        place(game, name, "discard")


def set_coins(game: Game, p: int, n: int) -> None:
    game.state.coins[p] = n


def stages_of(game: Game, board: str) -> list[int]:
    """The stages of a board side, in order (their `part_of` is the side, `value` the position)."""
    side = game.content.item_index[board]
    found = [it for it in game.content.items if it.kind == "stage" and it.part_of == side]
    return [it.id for it in sorted(found, key=lambda it: it.value)]


def set_board(game: Game, p: int, board: str) -> None:
    """The player's board becomes this side, with all its stages unbuilt.  If another player has
    that wonder (either side), the two players swap boards."""
    st = game.state
    want = game.content.item_index[board]
    mine = st.zones[slot_of(game, "board", p)][0]
    same_wonder = [it.id for it in game.content.items if it.kind == "board"
                   and it.value == game.content.items[want].value]
    holder = next((owner_zone(game, i)[1] for i in same_wonder if owner_zone(game, i)[0] == "board"), None)
    box = slot_of(game, "box")

    def clear(q: int) -> None:
        for zone in ("board", "stages", "built_stages"):
            for i in list(st.zones[slot_of(game, zone, q)]):
                game.relocate(i, box)

    def seat(q: int, side: int) -> None:
        game.relocate(side, slot_of(game, "board", q))
        for i in stages_of(game, game.name(side)):
            game.relocate(i, slot_of(game, "stages", q))

    if holder is not None and holder != p:
        clear(holder)
        clear(p)
        seat(holder, mine)
    else:
        clear(p)
    seat(p, want)


def build_stages(game: Game, p: int, count: int) -> None:
    """The player's first `count` stages built (as if long ago: no effect runs)."""
    for i in list(st_stages(game, p))[:count]:
        game.relocate(i, slot_of(game, "built_stages", p))


def st_stages(game: Game, p: int) -> list[int]:
    items = game.content.items
    return sorted(game.state.zones[slot_of(game, "stages", p)], key=lambda i: items[i].value)


# -- playing ----------------------------------------------------------------------------------------

def sell_any(game: Game, p: int) -> Action:
    """Some legal `sell` (always possible with a card in hand), else the first legal action."""
    legal = game.legal_actions(p)
    return next((a for a in legal if a.name == "sell"), legal[0])


def play_round(game: Game, chosen: dict[int, Action] | None = None) -> None:
    """Every seat that must act takes its action of `chosen`, the others sell a card."""
    chosen = chosen or {}
    seats = list(game.to_act())
    for p in seats:
        game.apply(chosen.get(p) or sell_any(game, p), seat=p)


def assert_hands_pass_from(game: Game, step: int) -> None:
    """Every seat sells its hand's first card, and each then holds the hand of the seat `step`
    from it (-1: its right neighbour, +1: its left), less the card that seat sold."""
    import collections
    seats = game.state.players
    before = {p: collections.Counter(names(game, "hand", p)) for p in range(seats)}
    sold = {p: names(game, "hand", p)[0] for p in range(seats)}
    play_round(game, {p: act("sell", sold[p]) for p in range(seats)})
    for p in range(seats):
        other = (p + step) % seats
        assert collections.Counter(names(game, "hand", p)) == before[other] - collections.Counter([sold[other]])


def play_until_age(game: Game, age: int) -> None:
    """Every player sells, round after round, until `age` (1, 2, 3) has begun (or the game is over;
    the state counts ages from 0)."""
    while not game.over and game.state.age < age - 1:
        play_round(game)


def _plain(action: Action) -> tuple[str, ...]:
    return tuple(a for a in action.args if not a.startswith("pay="))


def actions_named(game: Game, p: int, name: str, *args: str) -> list[Action]:
    """The legal actions of that name and arguments, whatever they pay."""
    return [a for a in game.legal_actions(p) if a.name == name and _plain(a) == args]


def payment(action: Action) -> tuple[tuple[int, int], ...]:
    """An action's payment to neighbours (its `pay=p1:2,p2:1` argument), as sorted (seat, coins)
    pairs without zeros."""
    pairs = []
    for a in action.args:
        if a.startswith("pay="):
            for part in a[len("pay="):].split(","):
                seat, coins = part.lstrip("p").split(":")
                pairs.append((int(seat), int(coins)))
    return tuple(sorted((s, c) for s, c in pairs if c))


def pays(game: Game, p: int, name: str, *args: str) -> set[tuple[tuple[int, int], ...]]:
    """The payments the legal actions offer for this action (empty: it is not legal)."""
    return {payment(a) for a in actions_named(game, p, name, *args)}


def paying(game: Game, p: int, name: str, *args: str, pay: tuple[tuple[int, int], ...] = ()) -> Action:
    """The legal action with this payment (sorted (seat, coins) pairs)."""
    found = [a for a in actions_named(game, p, name, *args) if payment(a) == tuple(sorted(pay))]
    assert found, f"{name} {args} paying {pay} is not offered: {pays(game, p, name, *args)}"
    return found[0]
