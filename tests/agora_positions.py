"""Building Agora test positions (a test helper for tests/test_agora_*.py).

Built on the base-game helper `positions.py` (read-only here): items move through the runtime's
own verbs (`Game.relocate`, `Game.move`, `Game.place`), cubes through `Game.add_cube` /
`remove_cube` / `move_cube` (the verbs the cards use), so zone lists, spaces, control and the
derived caches stay consistent.

Typical use::

    game = agora_game()                       # Age I, p0 to move, 7 coins each, no decree, no cube
    set_decree(game, 2, "Decree: discard bonus")
    add_cubes(game, 0, 2)                     # p0 now controls chamber 2 (events run)
    game.apply(act("discard", game.name(game.accessible()[0])))

Senate chambers are spaces 0..5: left section 0-1, middle 2-3, right 4-5.
Items placed this way do NOT run their effects (as if in play for a while).
"""

from __future__ import annotations

from rulesdsl.interpreter import Action, Game, new_game
from positions import (BEGINNER, act, assert_illegal, discard_pile, give, give_wonders, item, leave_only,  # noqa: F401
                       names, place, put_accessible, refresh, remove_military_tokens, set_board_tokens, set_coins,
                       set_pawn, set_turn, set_wonders, slot_of, to_age, total, where, zone_id)

AGORA = ["agora"]
CHAMBER_POINTS = [1, 2, 3, 3, 2, 1]
FACE_DOWN_CHAMBERS = (1, 3, 5)

POLITICIANS = {
    "left": ["Politician (left) A", "Politician (left) B"],
    "middle": ["Politician (middle) A", "Politician (middle) B", "Politician (middle) C"],
    "right": ["Politician (right) A", "Politician (right) B"],
}
SECTION_SPACES = {"left": [0, 1], "middle": [2, 3], "right": [4, 5]}
CONSPIRATORS = [f"Conspirator {c}" for c in "ABCDEF"]
SENATORS = [p for ps in POLITICIANS.values() for p in ps] + CONSPIRATORS

CONSPIRACIES = ["Extortion", "Blackmail", "Expropriation", "Swindle", "Obscurantism", "Coup", "Property Fraud",
                "Treason", "Political Maneuver", "Espionage", "Turn Of Events", "Embezzlement", "Foreclosure",
                "Coercion", "Insider Influence", "Sabotage"]
DECREES = ["Decree: blue coins", "Decree: green coins", "Decree: yellow coins", "Decree: red coins",
           "Decree: wonder coins", "Decree: yellow discount", "Decree: red discount", "Decree: green discount",
           "Decree: wonder discount", "Decree: cheaper raw materials", "Decree: cheaper goods",
           "Decree: two more blue", "Decree: shield", "Decree: discard bonus", "Decree: opponent's chains",
           "Decree: conspirator replay"]
MILITARY = {
    (0, "small"): "Senate 1 (first player's side)", (0, "large"): "Senate 2 (first player's side)",
    (1, "small"): "Senate 1 (second player's side)", (1, "large"): "Senate 2 (second player's side)",
}


# -- creating games -------------------------------------------------------------------------------

def agora_game(age: int = 1, seed: int = 0, starter: int = 0, clean: bool = True,
               expansions: list[str] | tuple[str, ...] = ("agora",)) -> Game:
    """An Agora game (beginner wonders) at the start of Age `age` with `starter` to move, 7 coins
    each.  With `clean`, every decree leaves the Senate (to the box) and the pawn is centred, so
    a test puts exactly the decrees it needs (`set_decree`).  The Senate starts empty."""
    game = new_game(expansions=list(expansions), seed=seed, options=[BEGINNER])
    assert game.state.flow == "turn" and game.state.pending is None
    if age > 1:
        advance_to_age(game, age, starter)
    elif starter != 0:
        set_turn(game, starter)
    assert senate(game) == [[0] * 6, [0] * 6], "cubes were placed on the way"
    if clean:
        clear_decrees(game)
        set_pawn(game, 0)
    return game


def advance_to_age(game: Game, age: int, starter: int = 0) -> Game:
    """Discard accessible cards (nothing else) until Age `age` begins with `starter` to move; then
    7 coins each and the discard pile leaves the game.  Unlike positions.to_age, nothing is added
    to the box: it still holds exactly what the set-up put there (the removed Age cards)."""
    st = game.state
    while st.age < age - 1:
        assert not game.over
        if st.pending is not None:
            if st.pending.kind == "player":
                game.apply(Action("choose_player", (f"p{starter}",)))
            else:
                game.apply(game.legal_actions()[0])
            continue
        game.apply(Action("discard", (game.name(game.accessible()[0]),)))
    assert st.pending is None and st.flow == "turn" and st.current == starter
    for p in range(st.players):
        set_coins(game, p, 7)
    for i in list(st.zones[slot_of(game, "discard")]):
        game.relocate(i, -1)
    return game


def put_in_slot(game: Game, name: str, slot: int) -> None:
    """A card onto a given structure slot (keeping its face); the card there goes where `name` was."""
    st = game.state
    i = item(game, name)
    other = st.structure[slot]
    assert other >= 0, "the slot is empty"
    if other == i:
        return
    if st.loc[i] == game.structure_slot:
        old = st.structure.index(i)
        st.structure[slot], st.structure[old] = i, other
    else:
        back = st.loc[i]
        game.relocate(other, back)
        game.relocate(i, game.structure_slot)
        st.structure[slot] = i
    refresh(game)


# -- the Senate -----------------------------------------------------------------------------------

def senate(game: Game) -> list[list[int]]:
    """Cubes per chamber: [p0's six, p1's six]."""
    return [row[:] for row in game.state.cubes["senate"]]


def supply(game: Game, player: int) -> int:
    return game.state.supply["senate"][player]


def control(game: Game) -> list[int]:
    """The controller of each chamber (-1: nobody)."""
    return list(game.state.control["senate"])


def add_cubes(game: Game, player: int, space: int, n: int = 1) -> None:
    """Put n of the player's cubes in a chamber with the runtime's verb, then let the triggered
    effects run (decrees turned up, control events, supremacy).  A decision they raise stays pending."""
    z = zone_id(game, "senate")
    for _ in range(n):
        game.add_cube(z, player, space)
        game.advance()


def remove_cubes(game: Game, player: int, space: int, n: int = 1) -> None:
    z = zone_id(game, "senate")
    for _ in range(n):
        game.remove_cube(z, player, space)
        game.advance()


def move_cube(game: Game, player: int, src: int, dst: int) -> None:
    game.move_cube(zone_id(game, "senate"), player, src, dst)
    game.advance()


def set_senate(game: Game, p0: list[int], p1: list[int]) -> None:
    """Exactly these cubes on the Senate (supplies adjusted), without any event: control is
    recomputed silently, as if the position had been reached earlier."""
    st = game.state
    st.cubes["senate"] = [list(p0), list(p1)]
    st.supply["senate"] = [12 - sum(p0), 12 - sum(p1)]
    ctrl = []
    for space in range(6):
        a, b = p0[space], p1[space]
        ctrl.append(0 if a > b else 1 if b > a else -1)
    st.control["senate"] = ctrl
    refresh(game)


# -- decrees --------------------------------------------------------------------------------------

def clear_decrees(game: Game) -> None:
    box = slot_of(game, "box")
    for i in list(game.state.zones[slot_of(game, "decrees")]):
        game.relocate(i, box)


def set_decree(game: Game, space: int, name: str, face_down: bool = False) -> None:
    """A decree onto a chamber (from wherever it is), face up unless told."""
    game.place(item(game, name), zone_id(game, "decrees"), 0, space, hidden=face_down)
    refresh(game)


def decrees(game: Game) -> dict[int, list[str]]:
    """{chamber: [decree names]} of the Senate."""
    st = game.state
    out: dict[int, list[str]] = {}
    for i in st.zones[slot_of(game, "decrees")]:
        out.setdefault(st.positions[i], []).append(game.name(i))
    return out


def is_hidden(game: Game, name: str) -> bool:
    return item(game, name) in game.state.hidden


# -- conspiracies ---------------------------------------------------------------------------------

def give_conspiracy(game: Game, player: int, name: str, prepared: bool = False, card: str | None = None) -> None:
    """A conspiracy into the player's hand (face down); `prepared` slides a card under it: `card`
    if named, else a spare guild (from the guild deck, or the box once Age III is laid out), so
    that neither the structure nor the cards removed at set-up change."""
    plot = item(game, name)
    game.move(plot, zone_id(game, "conspiracies"), player)
    if prepared:
        if card is None:
            spare = game.state.zones[slot_of(game, "guilds")] + game.state.zones[slot_of(game, "box")]
            c = next(i for i in spare if game.content.items[i].kind == "card"
                     and game.name(i) not in SENATORS and game.content.items[i].color == "purple"
                     and game.state.loc[i] != game.structure_slot)
        else:
            c = item(game, card)
            if game.state.loc[c] == game.structure_slot:
                place(game, card, "box")
        game.move(c, zone_id(game, "prepared"), player, onto=plot)
    refresh(game)


def set_conspiracy_deck(game: Game, *bottom_to_top: str) -> None:
    """Exactly these conspiracies in the deck (the last named is the top); the others to the box."""
    slot = slot_of(game, "conspiracy_deck")
    box = slot_of(game, "box")
    for i in list(game.state.zones[slot]):
        game.relocate(i, box)
    for name in bottom_to_top:
        game.relocate(item(game, name), slot)


def conspiracy_deck(game: Game) -> list[str]:
    """The conspiracy deck, bottom to top."""
    return names(game, "conspiracy_deck")


# -- answering decisions --------------------------------------------------------------------------

def answer(game: Game, *answers) -> None:
    """Answer pending decisions in order: an int for a space, "pN" for a player, an option's label
    for a choose_one, an item's name otherwise; None (or "pass" outside a choose_one) passes an
    optional choice."""
    for a in answers:
        d = game.state.pending
        assert d is not None, f"no decision pending for answer {a!r}"
        if a is None or (a == "pass" and d.kind != "option"):
            game.apply(Action("pass"))
        elif d.kind == "space":
            game.apply(Action("choose_space", (str(a),)))
        elif d.kind == "player":
            game.apply(Action("choose_player", (a,)))
        elif d.kind == "option":
            game.apply(Action("choose_option", (a,)))
        else:
            game.apply(Action("choose", (a,)))


def pending_kind(game: Game) -> str | None:
    d = game.state.pending
    return None if d is None else d.kind


def offered(game: Game) -> list[str]:
    """The answers the pending decision offers (names, spaces as strings, labels, 'pass')."""
    return [a.args[0] if a.args else a.name for a in game.legal_actions()]


def recruit(game: Game, name: str) -> None:
    """Make a senator accessible and build it (recruit it)."""
    put_accessible(game, name)
    game.apply(act("build", name))


def any_card(game: Game, avoid: tuple[str, ...] = ()) -> str:
    """The name of an accessible structure card that is not a senator (nor one of `avoid`)."""
    for i in game.accessible():
        n = game.name(i)
        if n not in SENATORS and n not in avoid:
            return n
    raise AssertionError("no accessible non-senator card")
