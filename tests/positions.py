"""Building test positions without playing a whole game (a test helper).

Everything goes through the runtime's own item-moving verbs (`Game.relocate`/`Game.move`), so an
item is always in exactly one zone list, `loc[item]` is that slot, and the derived caches
(production, prices) are invalidated the way the interpreter itself does it.

Typical use::

    game = fresh_game()                       # beginner wonders, Age I, player 0 to move
    give(game, 0, "Shelf Quarry", "Law")      # a card into p0's city, a token to p0's tokens
    set_coins(game, 1, 20)
    put_accessible(game, "Aqueduct")          # now `build Aqueduct` can be offered
    game.apply(act("build", "Aqueduct"))

Placing items does NOT run their effects (no coins from Tavern, no shields, no science pairs):
it is as if they had been in play for a while.
"""

from __future__ import annotations

from rulesdsl.interpreter import Action, Game, IllegalAction, new_game
from rulesdsl.interpreter.persistence import dumps

BEGINNER = "beginner_wonders"


# -- creating games -----------------------------------------------------------------------------

def fresh_game(seed: int = 0, options: tuple[str, ...] = (BEGINNER,), script=None) -> Game:
    """A new base game whose wonder draft is already answered (beginner wonders: p0 has
    Pyramids, Great Lighthouse, Temple of Artemis, Statue of Zeus; p1 has Circus Maximus,
    Piraeus, Appian Way, Colossus).  Age I, player 0 to move, 7 coins each."""
    game = new_game(seed=seed, options=list(options), script=script)
    assert game.state.pending is None and game.state.flow == "turn", "the draft was not answered"
    return game


def to_age(game: Game, age: int, starter: int = 0) -> Game:
    """Play on (discarding accessible cards, nothing else) until Age `age` (1, 2 or 3) begins with
    `starter` to move; then coins are reset to 7 each and the discard pile is emptied into the
    box, so the position is as clean as a fresh one, with a real structure for that age."""
    st = game.state
    while st.age < age - 1:
        assert not game.over
        if st.pending is not None:
            if st.pending.kind == "player":
                game.apply(Action("choose_player", (f"p{starter}",)))
            else:
                game.apply(game.legal_actions()[0])
            continue
        card = game.accessible()[0]
        game.apply(Action("discard", (game.name(card),)))
    assert st.pending is None and st.flow == "turn" and st.current == starter
    for p in range(st.players):
        set_coins(game, p, 7)
    box = slot_of(game, "box")
    for item in list(st.zones[slot_of(game, "discard")]):
        game.relocate(item, box)
    return game


# -- looking things up ----------------------------------------------------------------------------

def item(game: Game, name: str) -> int:
    try:
        return game.content.item_index[name]
    except KeyError:
        raise KeyError(f"no item named {name!r}") from None


def zone_id(game: Game, zone: str) -> int:
    return game.content.zone_index[zone]


def slot_of(game: Game, zone: str, owner: int = 0) -> int:
    return game.slot(zone_id(game, zone), owner)


def where(game: Game, name: str) -> tuple[str, int | None]:
    """(zone name, owner or None) of an item; ("structure", slot index) for a laid-out card;
    ("nowhere", None) for an item out of the game (a military token that was applied)."""
    i = item(game, name)
    slot = game.state.loc[i]
    if slot < 0:
        return ("nowhere", None)
    if slot == game.structure_slot:
        return ("structure", game.state.structure.index(i))
    if slot == game.track_slot:
        return ("track", None)
    zone = game.content.zones[game.slot_zone[slot]]
    return (zone.name, game.slot_owner[slot] if zone.per_player else None)


def names(game: Game, zone: str, owner: int = 0) -> list[str]:
    return game.items_in(zone, owner)


def act(name: str, *args: str) -> Action:
    return Action(name, tuple(args))


# -- changing the position --------------------------------------------------------------------------

def refresh(game: Game) -> None:
    """Rebuild the game's derived caches (accessible cards, cover counts, production, prices)
    from its state, as loading a saved state does.  Needed after writing `state.structure`
    directly (the dice live in the state, so their position is kept)."""
    game.__init__(game.content, game.state)


def _take_out_of_structure(game: Game, i: int) -> None:
    """If item i is laid out in the structure, put a box card in its slot (so the structure keeps
    its shape) and park i in the box."""
    st = game.state
    if st.loc[i] != game.structure_slot:
        return
    slot = st.structure.index(i)
    box = slot_of(game, "box")
    me = game.content.items[i]
    spare = [j for j in st.zones[box] if game.content.items[j].kind == "card" and j != i]
    spare.sort(key=lambda j: game.content.items[j].age != me.age)
    game.relocate(i, box)   # leaves -1 in the slot
    if spare:
        j = spare[0]
        game.relocate(j, game.structure_slot)
        st.structure[slot] = j
    refresh(game)


def place(game: Game, name: str, zone: str, owner: int = 0) -> None:
    """Put an item straight into a zone (no effect runs).  From the structure, a spare card from
    the box takes its slot."""
    i = item(game, name)
    _take_out_of_structure(game, i)
    game.move(i, zone_id(game, zone), owner)


def give(game: Game, player: int, *item_names: str) -> None:
    """Cards into the player's city, progress tokens into their tokens, wonders into their built
    wonders — as if played earlier (no effects, no science pairs, no shields)."""
    for name in item_names:
        kind = game.content.items[item(game, name)].kind
        zone = {"card": "city", "token": "tokens", "wonder": "built_wonders"}[kind]
        place(game, name, zone, player)


def give_wonders(game: Game, player: int, *wonder_names: str) -> None:
    """Wonders (not yet built) into the player's wonders."""
    for name in wonder_names:
        place(game, name, "wonders", player)


def set_wonders(game: Game, player: int, *wonder_names: str) -> None:
    """Exactly these unbuilt wonders for the player (the others go to the box)."""
    for i in list(game.state.zones[slot_of(game, "wonders", player)]):
        game.relocate(i, slot_of(game, "box"))
    give_wonders(game, player, *wonder_names)


def discard_pile(game: Game, *card_names: str) -> None:
    for name in card_names:
        place(game, name, "discard")


def set_board_tokens(game: Game, *token_names: str) -> None:
    """Exactly these progress tokens on the board; the others wait in the progress deck (the
    tokens left out at setup, where the Great Library draws)."""
    board = slot_of(game, "board_tokens")
    deck = slot_of(game, "progress_deck")
    for i in list(game.state.zones[board]):
        game.relocate(i, deck)
    for name in token_names:
        game.relocate(item(game, name), board)


def set_coins(game: Game, player: int, n: int) -> None:
    game.state.coins[player] = n


def set_pawn(game: Game, n: int) -> None:
    """n > 0: n spaces towards player 1's capital (player 0 is ahead).  Military tokens stay."""
    game.state.pawn = n


def remove_military_tokens(game: Game, *token_names: str) -> None:
    for name in token_names:
        game.relocate(item(game, name), -1)


def set_turn(game: Game, player: int) -> None:
    """Make it `player`'s turn (no decision may be pending)."""
    assert game.state.pending is None and game.state.flow == "turn"
    game.state.current = player


def put_accessible(game: Game, name: str, avoid: tuple[str, ...] = ()) -> int:
    """Make a card accessible in the structure (face up); returns its slot.  The card it replaces
    goes where `name` was (or they swap slots, if `name` was laid out already).  Cards named in
    `avoid` are not displaced."""
    st = game.state
    i = item(game, name)
    acc = game.accessible()
    if i in acc:
        slot = st.structure.index(i)
        st.face_up[slot] = True
        return slot
    keep = {item(game, n) for n in avoid}
    slot = next(s for s, j in enumerate(st.structure) if j in acc and j not in keep)
    other = st.structure[slot]
    if st.loc[i] == game.structure_slot:
        old = st.structure.index(i)
        st.structure[slot], st.structure[old] = i, other
    else:
        back = st.loc[i]
        game.relocate(other, back)         # the structure slot is now empty
        game.relocate(i, game.structure_slot)
        st.structure[slot] = i
    st.face_up[slot] = True
    refresh(game)
    return slot


def leave_only(game: Game, *card_names: str) -> None:
    """Empty the structure except these cards (all then accessible): taking them ends the age."""
    st = game.state
    for name in card_names:
        if st.loc[item(game, name)] != game.structure_slot:
            put_accessible(game, name, avoid=card_names)
    keep = {item(game, n) for n in card_names}
    box = slot_of(game, "box")
    for slot, i in enumerate(st.structure):
        if i >= 0 and i not in keep:
            game.relocate(i, box)
    for slot, i in enumerate(st.structure):
        if i >= 0:
            st.face_up[slot] = True
    refresh(game)


# -- checks --------------------------------------------------------------------------------------

def assert_illegal(game: Game, action: Action) -> str:
    """The action is not offered, apply() refuses it, and the state is unchanged.  Returns the reason."""
    assert action not in game.legal_actions(), f"{action} is offered"
    before = dumps(game.state)
    try:
        game.apply(action)
    except IllegalAction as exc:
        assert dumps(game.state) == before, "a refused action changed the state"
        return exc.reason
    raise AssertionError(f"{action} was applied")


def total(game: Game, player: int) -> int:
    return sum(game.score(player).values())
