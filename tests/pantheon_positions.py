"""Building Pantheon test positions (a test helper for tests/test_pantheon_*.py).

Built on the base-game helper `positions.py` (not edited here): everything moves through the
runtime's own verbs (`Game.relocate`, `Game.move`, `Game.place`), so zone lists, `loc`, spaces
and the derived caches stay consistent.

Typical use::

    game = pantheon_game(age=2)           # Age II, player 0 to move, 7 coins each, empty Pantheon
    put_god(game, "Mars", 3)              # Mars on Pantheon space 3
    set_coins(game, 0, 10)
    game.apply(act("activate", "Mars"))

Items placed this way do NOT run their effects (as if in play for a while).
"""

from __future__ import annotations

from rulesdsl.interpreter import Action, Game, new_game
from positions import (BEGINNER, act, assert_illegal, discard_pile, give, give_wonders, item, leave_only,  # noqa: F401
                       names, place, put_accessible, refresh, remove_military_tokens, set_board_tokens, set_coins,
                       set_pawn, set_turn, set_wonders, slot_of, to_age, total, where, zone_id)

PANTHEON = ["pantheon"]

MYTHOLOGIES = {
    "mesopotamian": ["Enki", "Ishtar", "Nisaba"],
    "phoenician": ["Astarte", "Baal", "Tanit"],
    "greek": ["Aphrodite", "Hades", "Zeus"],
    "egyptian": ["Anubis", "Isis", "Ra"],
    "roman": ["Mars", "Minerva", "Neptune"],
}
GODS = [g for gods in MYTHOLOGIES.values() for g in gods]
DECK_OF = {g: f"{m}_gods" for m, gods in MYTHOLOGIES.items() for g in gods}
TEMPLES = {m: f"{m.capitalize()} Grand Temple" for m in MYTHOLOGIES}
MYTHOLOGY_TOKENS = {m: [f"{m.capitalize()} token A", f"{m.capitalize()} token B"] for m in MYTHOLOGIES}
OFFERINGS = {2: "Offering 2", 3: "Offering 3", 4: "Offering 4"}

# The first player's price by Pantheon space 0..5 (the rulebook's board: 8 7 6 5 4 3 on one row,
# the mirror row for the other player).
PRICE_P0 = [8, 7, 6, 5, 4, 3]


def price(player: int, space: int) -> int:
    """What `player` pays to activate the card on `space` (the Gate: twice this)."""
    return PRICE_P0[space] if player == 0 else PRICE_P0[5 - space]


# -- creating games -------------------------------------------------------------------------------

def pantheon_game(age: int = 1, seed: int = 0, starter: int = 0, clean: bool = True) -> Game:
    """A Pantheon game (beginner wonders) at the start of Age `age` with `starter` to move.

    Ages II/III are reached by discarding cards (positions.to_age: coins reset to 7, discard pile
    boxed).  With `clean`, the Pantheon is emptied (gods back to their decks, the Gate to its pile),
    the players' mythology/offering tokens go to the box and the pawn is centred, so a test sets
    up exactly what it needs."""
    game = new_game(expansions=PANTHEON, seed=seed, options=[BEGINNER])
    assert game.state.flow == "turn" and game.state.pending is None
    if age > 1:
        to_age(game, age, starter)
    elif starter != 0:
        set_turn(game, starter)
    if clean:
        clear_pantheon(game)
        box = slot_of(game, "box")
        for p in range(game.content.players):
            for i in list(game.state.zones[slot_of(game, "tokens", p)]):
                game.relocate(i, box)
        set_pawn(game, 0)
    return game


def clear_pantheon(game: Game) -> None:
    """Every god on the Pantheon back to the top of its deck, the Gate back to its pile, and the
    progress tokens lying open on a turned-up Enki back with those left out."""
    items = game.content.items
    for i in list(game.state.zones[slot_of(game, "pantheon")]):
        game.relocate(i, game.slot(items[i].deck, 0))
    for i in list(game.state.zones[slot_of(game, "enki_offer")]):
        game.relocate(i, slot_of(game, "progress_deck"))


# -- the Pantheon -----------------------------------------------------------------------------------

def put_god(game: Game, name: str, space: int) -> None:
    """A god (or the Gate) onto a Pantheon space, from wherever it is."""
    game.place(item(game, name), zone_id(game, "pantheon"), 0, space)


def pantheon(game: Game) -> dict[int, str]:
    """{space: name} of the Pantheon."""
    st = game.state
    return {st.positions[i]: game.name(i) for i in st.zones[slot_of(game, "pantheon")]}


def set_deck(game: Game, deck: str, *bottom_to_top: str) -> None:
    """Exactly these items in a deck, in this order (the last is the top); the deck's other
    items go to the box."""
    slot = slot_of(game, deck)
    box = slot_of(game, "box")
    for i in list(game.state.zones[slot]):
        game.relocate(i, box)
    for name in bottom_to_top:
        game.relocate(item(game, name), slot)


def deck(game: Game, deck_name: str) -> list[str]:
    """A deck, bottom to top."""
    return names(game, deck_name)


def give_god(game: Game, player: int, name: str) -> None:
    """A god into the player's gods zone (no effect runs)."""
    game.move(item(game, name), zone_id(game, "gods"), player)


def give_token(game: Game, player: int, *token_names: str) -> None:
    """Progress, mythology or offering tokens into the player's tokens (no effect runs)."""
    for name in token_names:
        game.relocate(item(game, name), slot_of(game, "tokens", player))


def build_wonder_with(game: Game, player: int, wonder: str, card: str) -> None:
    """The wonder built by `player` with `card` tucked under it (no effect runs)."""
    w, c = item(game, wonder), item(game, card)
    if game.state.loc[c] == game.structure_slot:
        place(game, card, "box")
    game.move(w, zone_id(game, "built_wonders"), player)
    game.move(c, zone_id(game, "under"), player, onto=w)


# -- answering decisions ------------------------------------------------------------------------------

def answer(game: Game, *answers) -> None:
    """Answer pending decisions in order: an int for a space, "pN" for a player, an option's
    label for a `choose_one`, a name otherwise."""
    for a in answers:
        d = game.state.pending
        assert d is not None, f"no decision pending for answer {a!r}"
        if d.kind == "space":
            game.apply(Action("choose_space", (str(a),)))
        elif d.kind == "player":
            game.apply(Action("choose_player", (a,)))
        elif d.kind == "option":
            game.apply(Action("choose_option", (a,)))
        else:
            game.apply(Action("choose", (a,)))


def options(game: Game) -> list:
    """The options of the pending decision: names, spaces or player labels."""
    d = game.state.pending
    assert d is not None, "no decision pending"
    return [a.args[0] if d.kind != "space" else int(a.args[0]) for a in game.legal_actions()]


# -- the structure ------------------------------------------------------------------------------------

def structure_tokens(game: Game) -> dict[int, str]:
    """{structure slot: token name} of the tokens lying on structure cards."""
    st = game.state
    return {st.structure.index(h): game.name(t) for t, h in st.attached.items()
            if st.loc[t] == game.structure_slot and h in st.structure}


def covers_of(game: Game, slot: int) -> set[int]:
    """Every structure slot that lies (directly or not) on `slot`."""
    lay = game.content.layouts[game.state.layout]
    out: set[int] = set()
    todo = list(lay.covered_by[slot])
    while todo:
        s = todo.pop()
        if s not in out:
            out.add(s)
            todo.extend(lay.covered_by[s])
    return out


def leave_one_cover(game: Game, slot: int) -> str:
    """Box every card lying on `slot` but one accessible card that is the last to cover it;
    returns that card's name: taking it uncovers `slot` at the end of the turn.  Asserts that no
    other face-down card is uncovered by the boxing (so nothing else is revealed)."""
    st = game.state
    lay = game.content.layouts[st.layout]
    above = {s for s in covers_of(game, slot) if st.structure[s] >= 0}
    direct = [s for s in lay.covered_by[slot] if st.structure[s] >= 0]
    assert direct, "the slot is not covered"
    last = direct[0]
    box = slot_of(game, "box")
    for s in above - {last}:
        game.relocate(st.structure[s], box)
    refresh(game)
    st.face_up[last] = True
    for s, i in enumerate(st.structure):
        if i >= 0 and not st.face_up[s] and s != slot:
            assert any(st.structure[c] >= 0 for c in lay.covered_by[s]), f"slot {s} would be revealed too"
    assert st.structure[last] in game.accessible()
    return game.name(st.structure[last])


def play_random_until(game: Game, rng, stop) -> None:
    """Random legal actions until stop(game) or the game is over."""
    while not game.over and not stop(game):
        game.apply(game.random_action(rng))


def _piece(game: Game, flag: str) -> int:
    found = [it.id for it in game.content.items if it.kind == "pawn" and getattr(it, flag)]
    assert len(found) == 1, f"expected one pawn with {flag}, found {found}"
    return found[0]


def minerva_pawn(game: Game) -> int:
    """The Minerva pawn: the one piece that blocks the conflict pawn."""
    return _piece(game, "blocks_pawn")


def snake_token(game: Game) -> int:
    """The Snake token: the one piece that copies a scientific symbol."""
    return _piece(game, "copy_science")
