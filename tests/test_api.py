"""The Python API (interpreter): games, actions, illegal actions, clones, observations, agents."""

from __future__ import annotations

import unicodedata

import json
import random

import attrs
import pytest

from rulesdsl.interpreter import DRAW, Action, Game, IllegalAction, load_ruleset, new_game
from rulesdsl.interpreter.agents import GreedyAgent, RandomAgent, make_agent
from rulesdsl.interpreter.observation import observe
from rulesdsl.interpreter.persistence import dumps
from rulesdsl.interpreter.state import State
from rulesdsl.simulate import game_seed, play_one, simulate

RULES = load_ruleset()
AGE1 = [it.name for it in RULES.content.items if it.kind == "card" and it.age == 1]
TOKENS = ["Law", "Urbanism", "Economy", "Masonry", "Strategy"]


def beginner(seed: int = 2) -> Game:
    """A game past set-up: beginner wonders, the Age I structure in the order of AGE1."""
    return new_game(seed=seed, options=["beginner_wonders"],
                    script={"age1": AGE1[:20], "progress_deck": TOKENS})


def play_random(game: Game, moves: int, seed: int = 0) -> Game:
    agent = RandomAgent(seed)
    for _ in range(moves):
        if game.over:
            break
        game.apply(agent.act(game))
    return game


def saved(game: Game) -> str:
    return dumps(game.state)


# -- creating games -------------------------------------------------------------------------------

def test_new_game_starts_with_the_wonder_draft():
    game = new_game(seed=3)
    assert not game.over and game.to_move() == 0
    assert game.state.pending is not None
    actions = game.legal_actions()
    assert len(actions) == 4 and all(a.name == "choose" for a in actions)
    assert sorted(a.args[0] for a in actions) == sorted(game.items_in("draft"))
    assert len(game.items_in("board_tokens")) == 5
    assert game.state.coins == [7, 7]


def test_beginner_wonders_skip_the_draft():
    game = new_game(seed=3, options=["beginner_wonders"])
    assert game.items_in("wonders", 0) == ["Pyramids", "Great Lighthouse", "Temple of Artemis", "Statue of Zeus"]
    assert game.items_in("wonders", 1) == ["Circus Maximus", "Piraeus", "Appian Way", "Colossus"]
    assert game.state.pending is None and game.state.flow == "turn" and game.state.age == 0
    assert {a.name for a in game.legal_actions()} <= {"build", "discard", "wonder"}


def test_script_dictates_the_random_draws():
    wonders = ["Pyramids", "Colossus", "Sphinx", "Piraeus", "Mausoleum", "Great Library", "Appian Way",
               "Hanging Gardens"]
    game = new_game(seed=99, script={"wonder_deck": wonders, "progress_deck": TOKENS, "age1": AGE1[:20]})
    assert game.items_in("board_tokens") == TOKENS
    assert game.items_in("draft") == wonders[:4]
    for name in ("Pyramids", "Colossus", "Sphinx"):          # p0 1, p1 2, p0 the last
        game.apply(Action("choose", (name,)))
    assert game.items_in("draft") == wonders[4:]
    for name in ("Mausoleum", "Great Library", "Appian Way"):  # p1 1, p0 2, p1 the last
        game.apply(Action("choose", (name,)))
    assert game.items_in("wonders", 0) == ["Pyramids", "Piraeus", "Great Library", "Appian Way"]
    assert game.items_in("wonders", 1) == ["Colossus", "Sphinx", "Mausoleum", "Hanging Gardens"]
    assert game.items_in("structure") == AGE1[:20]
    # The last row (6 cards) is what can be taken.
    assert [a.args[0] for a in game.legal_actions() if a.name == "build"] == AGE1[14:20]


def test_script_for_every_age():
    cards = [it for it in RULES.content.items if it.kind == "card"]
    age2 = [it.name for it in cards if it.age == 2][:20]
    guilds = [it.name for it in cards if it.color == "purple"][-3:]
    age3 = [it.name for it in cards if it.age == 3 and it.color != "purple"][:17]
    deck3 = (age3 + guilds)[::-1]
    game = new_game(seed=1, options=["beginner_wonders"],
                    script={"age1": AGE1[3:], "age2": age2, "age3": deck3, "guilds": guilds})
    assert game.items_in("structure") == AGE1[3:]
    agent = RandomAgent(1)
    while game.state.age < 1:
        game.apply(agent.act(game))
    assert game.items_in("structure") == age2
    while game.state.age < 2:
        game.apply(agent.act(game))
    assert game.items_in("structure") == deck3


def test_script_with_a_card_that_is_not_there_fails():
    with pytest.raises(ValueError):
        new_game(seed=1, script={"progress_deck": ["Lumber Yard"]})


def test_load_ruleset_is_cached_and_creates_independent_games():
    assert load_ruleset() is RULES
    a, b = RULES.new_game(seed=5), RULES.new_game(seed=5)
    a.apply(a.legal_actions()[0])
    assert saved(b) == saved(RULES.new_game(seed=5))


def test_unknown_expansion():
    with pytest.raises(ValueError, match="unknown expansion `no-such-expansion`; expansions: agora, pantheon \\(for duel\\); nor is there a folder `no-such-expansion` here$"):
        load_ruleset(["no-such-expansion"])


# -- determinism ----------------------------------------------------------------------------------

def test_same_seed_and_actions_give_the_same_state():
    a, b = new_game(seed=42), new_game(seed=42)
    agent = RandomAgent(1)
    while not a.over:
        action = agent.act(a)
        a.apply(action)
        b.apply(action)
    assert b.over
    assert dumps(a.state) == dumps(b.state)
    assert saved(a) == saved(b)


def test_other_seed_other_game():
    assert saved(new_game(seed=1)) != saved(new_game(seed=2))


# -- illegal actions ------------------------------------------------------------------------------

def assert_illegal(game: Game, action, *words: str) -> None:
    before = saved(game)
    legal = game.legal_actions()
    with pytest.raises(IllegalAction) as info:
        game.apply(action)
    assert info.value.reason and info.value.action == action
    for word in words:
        assert word in info.value.reason
    assert saved(game) == before, "an illegal action changed the state"
    assert game.legal_actions() == legal


def test_illegal_actions_raise_and_change_nothing():
    game = beginner()
    accessible = [a.args[0] for a in game.legal_actions() if a.name == "build"]
    covered = AGE1[0]  # the top row of Age I: covered, face up
    assert covered not in accessible
    assert_illegal(game, Action("steal", (accessible[0],)), "unknown action")
    assert_illegal(game, Action("build", (covered,)), "not accessible")
    assert_illegal(game, Action("build", (AGE1[2],)), "not accessible")       # face down
    assert_illegal(game, Action("build", (AGE1[21],)), "not accessible")      # in the box
    assert_illegal(game, Action("build", ("No Such Card",)), "no item named")
    assert_illegal(game, Action("build", ()), "argument")
    assert_illegal(game, Action("build", (accessible[0], accessible[1])), "argument")
    assert_illegal(game, Action("wonder", (accessible[0],)), "argument")
    # Pyramids: 3 stone and a papyrus, all bought at 2 = 8 coins; player 0 has 7.
    assert_illegal(game, Action("wonder", (accessible[0], "Pyramids")), "costs 8 coins", "has 7")
    assert_illegal(game, Action("wonder", (accessible[0], "Colossus")), "not in wonders")  # the opponent's
    assert_illegal(game, Action("choose", (accessible[0],)))
    assert_illegal(game, "build Altar", "not an Action")
    assert_illegal(game, ("build", (accessible[0],)), "not an Action")


def test_unaffordable_card_after_spending():
    game = beginner()
    game.state.coins[0] = 1
    game.state.coins[1] = 1
    baths = AGE1.index("Baths")
    assert baths >= 14  # accessible; costs a stone, bought for 2
    assert_illegal(game, Action("build", ("Baths",)), "costs 2 coins", "has 1")
    assert Action("discard", ("Baths",)) in game.legal_actions()


def test_answering_a_pending_decision_with_a_non_option():
    game = new_game(seed=3)
    options = [a.args[0] for a in game.legal_actions()]
    other = next(n for n in ("Pyramids", "Colossus", "Sphinx", "Piraeus", "Great Library") if n not in options)
    assert_illegal(game, Action("choose", (other,)), "not one of the options")
    assert_illegal(game, Action("choose", ("Lumber Yard",)), "not one of the options")
    assert_illegal(game, Action("choose", ()), "not one of the options")
    assert_illegal(game, Action("choose", (options[0], options[1])), "not one of the options")
    assert_illegal(game, Action("choose_player", ("p0",)), "not one of the options")
    assert_illegal(game, Action("build", ("Baths",)), "must first answer")


def test_choose_player_decision():
    game = beginner()
    agent = RandomAgent(0)
    while game.state.age == 0 and game.state.pending is None or game.state.pending.kind != "player":
        game.apply(agent.act(game))
    assert game.state.age == 0
    assert game.legal_actions() == [Action("choose_player", ("p0",)), Action("choose_player", ("p1",))]
    assert_illegal(game, Action("choose_player", ("p2",)), "not one of the options")
    assert_illegal(game, Action("choose", ("p0",)), "not one of the options")
    chooser = game.to_move()
    game.apply(Action("choose_player", ("p1",)))
    assert game.state.age == 1 and game.to_move() == 1
    assert chooser in (0, 1)


def test_no_action_once_the_game_is_over():
    game = play_random(new_game(seed=8), 10_000)
    assert game.over and game.legal_actions() == []
    assert_illegal(game, Action("build", ("Baths",)), "over")


# -- actions as values ----------------------------------------------------------------------------

def test_actions_are_hashable_printable_and_parse_back():
    game = new_game(seed=4)
    agent = RandomAgent(4)
    kinds = set()
    while not game.over:
        actions = game.legal_actions()
        assert len(set(actions)) == len(actions)
        for a in actions:
            assert isinstance(a, Action) and isinstance(a.name, str) and isinstance(a.args, tuple)
            assert all(isinstance(x, str) for x in a.args)
            text = str(a)
            assert Action.parse(text) == a, text
            assert hash(a) == hash(Action(a.name, tuple(a.args)))
            kinds.add(a.name)
        game.apply(agent.act(game))
    assert {"build", "discard", "wonder", "choose", "choose_player"} <= kinds
    assert str(Action("wonder", ("Lumber Yard", "Great Library"))) == 'wonder "Lumber Yard" "Great Library"'
    assert Action.parse('build "Lumber Yard"') == Action("build", ("Lumber Yard",))
    assert Action.parse("choose_player p1") == Action("choose_player", ("p1",))
    with pytest.raises(ValueError):
        Action.parse("   ")


def test_random_action_is_legal():
    rng = random.Random(1)
    for seed in range(5):
        game = new_game(seed=seed)
        while not game.over:
            action = game.random_action(rng)
            assert action in game.legal_actions()
            game.apply(action)


# -- clones ---------------------------------------------------------------------------------------

def test_clone_is_independent():
    game = play_random(beginner(), 5)
    before = saved(game)
    copy = game.clone()
    assert saved(copy) == before
    play_random(copy, 10_000, seed=3)
    assert copy.over
    assert saved(game) == before
    # And the other way round: the original moves on, the clone keeps its state.
    copy2 = game.clone()
    snapshot = saved(copy2)
    play_random(game, 30, seed=5)
    assert saved(copy2) == snapshot


def test_a_clone_shares_no_list_dict_or_set_of_the_state():
    # (`copy_state` sets each field of the state on a new one, every container copied: a field
    # added to the state and left out there would be missing, one set as it is would be shared
    # between a game and its clones)
    game = play_random(new_game(["pantheon", "agora"], seed=4), 40, seed=3)
    copy = game.clone()
    for field in attrs.fields(State):
        mine, theirs = getattr(game.state, field.name), getattr(copy.state, field.name)
        assert mine == theirs, field.name
        if isinstance(mine, (list, dict, set)) and field.name != "setup_script":   # (never changed)
            assert mine is not theirs, field.name


def test_clone_continues_like_the_original():
    game = play_random(new_game(seed=21), 12, seed=2)
    copy = game.clone()
    a, b = RandomAgent(9), RandomAgent(9)
    while not game.over:
        x, y = a.act(game), b.act(copy)
        assert x == y
        game.apply(x)
        copy.apply(y)
    assert saved(game) == saved(copy)


# -- observations ---------------------------------------------------------------------------------

def test_observation_hides_face_down_cards_and_decks():
    game = play_random(new_game(seed=6), 30, seed=6)
    assert game.state.age == 1  # Age II: cards tucked under wonders, the box filled
    st = game.state
    names = game.name
    face_down = [names(i) for slot, i in enumerate(st.structure) if i >= 0 and not st.face_up[slot]]
    assert face_down
    hidden_zones = {z.name: (0, 1) if z.per_player else (0,) for z in game.content.zones if not z.public and not z.private}
    hidden = face_down + [n for z, owners in hidden_zones.items() for p in owners for n in game.items_in(z, p)]
    for player in (0, 1):
        o = observe(game, player)
        text = json.dumps(o)
        for name in hidden:
            assert json.dumps(name) not in text, f"{name} shows in player {player}'s observation"
        for slot, cell in enumerate(o["structure"]):
            item = st.structure[slot]
            if item < 0:
                assert cell is None
            elif st.face_up[slot]:
                assert cell["card"] == names(item)
            else:
                assert set(cell) <= {"back", "accessible"} and cell["back"] == "age2"
                assert not cell["accessible"]
        for z, owners in hidden_zones.items():
            assert z not in o["zones"]
            assert o["hidden_counts"][z] == sum(len(game.items_in(z, p)) for p in owners)
        assert {"box", "age3", "guilds", "progress_deck", "under"} <= set(o["hidden_counts"])
        assert o["hidden_counts"]["box"] > 0
        assert o["coins"] == st.coins and o["pawn"] == st.pawn
        assert (o["legal_actions"] != []) == (game.to_move() == player)


def test_observation_hides_the_other_players_options():
    game = new_game(seed=3)
    mine, theirs = observe(game, 0), observe(game, 1)
    assert mine["pending"]["options"] == game.items_in("draft")
    assert "options" not in theirs["pending"] and theirs["legal_actions"] == []
    assert mine["legal_actions"] == [str(a) for a in game.legal_actions()]


# -- scores ---------------------------------------------------------------------------------------

def test_score_breakdown_sums_to_the_result():
    for seed in range(10):
        game = play_random(new_game(seed=seed), 10_000, seed)
        totals = [sum(game.score(p).values()) for p in (0, 1)]
        assert all(isinstance(v, int) for p in (0, 1) for v in game.score(p).values())
        assert {"coins", "military"} <= set(game.score(0))
        st = game.state
        if st.victory == "civilian":
            if totals[0] != totals[1]:
                assert st.winner == totals.index(max(totals))
            else:
                blue = [game.score(p).get("blue", 0) for p in (0, 1)]
                assert st.winner == (DRAW if blue[0] == blue[1] else blue.index(max(blue)))
        assert game.score(0)["coins"] == st.coins[0] // 3


@pytest.mark.parametrize("expansions, base, players", [((), "duel", None), (("pantheon", "agora"), "duel", None),
                                                       ((), "classic", 5)])
def test_a_total_score_is_the_sum_of_the_categories(expansions, base, players):
    rules = load_ruleset(expansions, base, players)
    for seed in range(3):
        game = rules.new_game(seed=seed)
        rng = random.Random(seed)
        while True:
            for p in range(game.state.players):
                assert game.total_score(p) == sum(game.score(p).values())
            if game.over:
                break
            game._apply(game.random_action(rng))
        assert any(game.total_score(p) for p in range(game.state.players))


# -- agents and many games ------------------------------------------------------------------------

def test_make_agent():
    assert isinstance(make_agent("random", 1), RandomAgent)
    assert isinstance(make_agent("greedy", 1), GreedyAgent)
    with pytest.raises(ValueError, match="unknown agent"):
        make_agent("clever", 1)


def test_greedy_agent_acts_legally_and_deterministically():
    game = new_game(seed=12)
    a, b = GreedyAgent(3), GreedyAgent(3)
    for _ in range(15):
        action = a.act(game)
        assert action == b.act(game) and action in game.legal_actions()
        game.apply(action)


# Measured over seeds 0-12: greedy wins 25-30 of 30 games in either seat (about 92%).  22 of 30
# is more than 3 standard deviations below that, and far above the 15 a coin flip would give.
@pytest.mark.parametrize("seat", [0, 1])
def test_greedy_beats_random(seat):
    agents = ["greedy", "random"] if seat == 0 else ["random", "greedy"]
    result = simulate(RULES, 30, seed=2024, agents=agents)
    assert sum(result["wins"].values()) == 30
    assert result["wins"][str(seat)] >= 22, result["wins"]


def test_300_random_games_end_with_a_winner_or_a_draw():
    victories = {}
    for i in range(300):
        game = play_one(RULES, game_seed(7, i), ["random", "random"])
        st = game.state
        assert game.over and game.legal_actions() == []
        assert st.winner in (0, 1, DRAW)
        assert st.victory in ("civilian", "military", "science")
        victories[st.victory] = victories.get(st.victory, 0) + 1
        if st.victory == "military":
            assert abs(st.pawn) == 9
    assert victories.get("civilian", 0) > 200
    assert victories.get("military", 0) > 0


def test_simulate_summary_shape():
    result = simulate(RULES, 5, seed=1)
    assert result["games"] == 5 and result["seed"] == 1
    assert set(result["wins"]) == {"0", "1", "draw"} and sum(result["wins"].values()) == 5
    assert sum(result["victories"].values()) == 5 - result["wins"]["draw"]
    assert set(result["mean_score"]) == {"0", "1"}
    for scores in result["mean_score"].values():
        assert scores["total"] == pytest.approx(sum(v for k, v in scores.items() if k != "total"), abs=0.01)
    assert result["agents"] == ["random", "random"] and result["expansions"] == []
    again = simulate(RULES, 5, seed=1)
    for key in ("seconds", "games_per_second"):
        result.pop(key), again.pop(key)
    assert result == again


def test_simulate_means_each_seats_points_by_category_over_the_games():
    # The mean scores are each seat's points by category over the games played, the categories
    # in name order, then their total (what a run prints and writes as JSON, in that order).
    rules = load_ruleset(base="classic", players=3)
    games = [play_one(rules, game_seed(11, i), ["random"] * 3) for i in range(4)]
    summed: list[dict[str, int]] = [{}, {}, {}]
    for g in games:
        for p, seat in enumerate(summed):
            for cat, pts in g.score(p).items():
                seat[cat] = seat.get(cat, 0) + pts
    expected = {}
    for p, seat in enumerate(summed):
        means = {cat: round(seat[cat] / 4, 3) for cat in sorted(seat)}
        expected[str(p)] = {**means, "total": round(sum(means.values()), 3)}
    mean = simulate(rules, 4, seed=11)["mean_score"]
    assert mean == expected and [list(m) for m in mean.values()] == [list(m) for m in expected.values()]
    assert list(mean) == ["0", "1", "2"] and len(set(map(str, mean.values()))) == 3


@pytest.mark.parametrize("base, expansions, players", [("duel", (), None), ("duel", ("pantheon", "agora"), None),
                                                     ("classic", (), 3), ("classic", (), 7)])
def test_the_first_legal_action_is_the_first_of_the_list(base, expansions, players):
    rules = load_ruleset(expansions, base, players)
    compared = 0
    for seed in range(2):
        game = rules.new_game(seed=seed)
        rng = random.Random(seed)
        while not game.over:
            for seat in [None, *range(game.state.players)]:
                listed = game.legal_actions(seat)
                assert game.first_legal_action(seat) == (listed[0] if listed else None)
                compared += bool(listed)
            game.apply(game.random_action(rng))
        assert game.first_legal_action() is None and game.legal_actions() == []
    assert compared > 100


# -- arguments a caller may get wrong: a clear ValueError or TypeError, never an internal error ------

@pytest.mark.parametrize("call, kind, message", [
    (lambda g: g.score(5), ValueError, "unknown seat `5`; seats: 0, 1"),
    (lambda g: g.score(-1), ValueError, "unknown seat `-1`"),   # (read as the last seat, it answered quietly)
    (lambda g: g.total_score(2), ValueError, "unknown seat `2`"),
    (lambda g: g.items_in("nozone"), ValueError, "no zone 'nozone'"),
    (lambda g: g.items_in("city", 5), ValueError, "unknown seat `5`"),
    (lambda g: g.price(0, 9999), ValueError, "no item 9999"),
    (lambda g: g.price(0, -1), ValueError, "no item -1"),
    (lambda g: g.price(5, 0), ValueError, "unknown seat `5`"),
    (lambda g: g.trade_prices(5), ValueError, "unknown seat `5`"),   # (an IndexError)
    (lambda g: g.trade_prices(-1), ValueError, "unknown seat `-1`"),   # (the last seat's, quietly)
    (lambda g: g.available_coins("0"), ValueError, "a seat is an int, not str"),   # (list indices...)
    (lambda g: g.random_action(5), TypeError, "a random generator"),
    (lambda g: g.legal_actions(1.0), ValueError, "unknown seat `1.0`"),
    (lambda g: g.first_legal_action(99), ValueError, "unknown seat `99`"),   # (it answered None)
    (lambda g: Action.parse(None), TypeError, "reads a string"),   # (shlex read standard input)
    (lambda g: Action.parse(5), TypeError, "reads a string, not int"),
    (lambda g: Action.parse('build "Lumber Yard'), ValueError,   # (shlex's bare "No closing quotation")
     "^cannot read the action 'build \"Lumber Yard': no closing quotation$"),
])
def test_a_query_with_a_bad_argument_says_what_is_wrong(call, kind, message):
    game = new_game(seed=1)
    with pytest.raises(kind, match=message):
        call(game)


def test_a_game_or_a_ruleset_is_made_of_compiled_content_only():
    # `Ruleset("duel")` and `Game.create(rules)` failed at the first game on an attribute
    # ("'str' object has no attribute 'options'").
    from rulesdsl.interpreter import Game, Ruleset

    with pytest.raises(TypeError, match=r"^a Ruleset holds compiled content, not str: load a game by name with "):
        Ruleset("duel")
    game = RULES.new_game(seed=1)
    for call in (lambda: Game.create("duel"), lambda: Game.create(RULES), lambda: Game(RULES, game.state)):
        with pytest.raises(TypeError, match=r"^a game is made of compiled content \(`load_ruleset\(...\).content`\), not "):
            call()
    assert Game(RULES.content, game.state).state == game.state


def test_bad_creation_arguments_are_refused_and_leave_nothing_behind():
    with pytest.raises(ValueError, match="max_steps must be an integer of at least 1"):
        new_game(max_steps=-1)
    with pytest.raises(ValueError, match="max_steps"):
        new_game(max_steps="x")
    # A player count of another type is refused before the per-process cache: it kept the
    # ruleset that failed for 4.0 and handed it out for 4.
    with pytest.raises(TypeError, match="players must be an integer, not 4.0"):
        new_game(base="classic", players=4.0)
    assert new_game(base="classic", players=4).state.players == 4
    # One name alone is one expansion, not its letters.
    assert new_game(expansions="pantheon").state.layers == ["duel", "pantheon"]


def test_a_game_of_no_option_nor_script_is_checked_as_any_other():
    # An integer seed with no option (an empty tuple) and no script are taken as they are
    # (`creation.creation_args`, every game of a simulation): what the checks give for them,
    # and a seed or content they refuse is refused as ever.
    from rulesdsl.interpreter import creation
    from rulesdsl.limits import SEED_MAX, SEED_MIN

    content = RULES.content
    for seed in (0, 1, -1, SEED_MIN, SEED_MAX, 2**63 - 1):
        assert creation.creation_args(content, seed, (), None) == creation.creation_args(content, seed, [], {})
    assert Game.create(content, seed=3).state == Game.create(content, seed=3, options=[], script={}).state
    for seed in (SEED_MAX + 1, SEED_MIN - 1, True, 1.0):
        with pytest.raises(ValueError, match="the seed must be an integer from"):
            creation.creation_args(content, seed, (), None)
    with pytest.raises(TypeError, match="a game is made of compiled content"):
        creation.creation_args(RULES, 1, (), None)


def test_a_scripted_draw_that_cannot_happen_leaves_the_game_as_it_was():
    from rulesdsl.interpreter import EffectFailed
    from rulesdsl.interpreter.persistence import dumps
    game = new_game(seed=1, script={"age2": ["Baths"]})   # (Baths is a card of Age I)
    rng = random.Random(0)
    while True:
        action = game.random_action(rng)
        before = dumps(game.state)
        try:
            game.apply(action)
        except EffectFailed as exc:
            assert isinstance(exc, ValueError)
            assert "scripted draw from age2: 'Baths' is not there" in str(exc)
            assert dumps(game.state) == before and game.legal_actions()
            return
        assert not game.over


@pytest.mark.parametrize("options", [{"beginner_wonders": False}, {"beginner_wonders"}, b"x"])
def test_options_that_are_not_a_list_are_refused(options):
    """A dict's keys were taken for the options (`{"beginner_wonders": False}` switched it on),
    and a set's order follows the hash seed (the saved options with it)."""
    with pytest.raises(ValueError, match="options must be a list of names"):
        new_game(seed=1, options=options)
    assert new_game(seed=1, options=("beginner_wonders",)).state.options == ["beginner_wonders"]


def test_a_price_asked_by_name_says_where_a_names_number_is():
    game = RULES.new_game(seed=1)
    with pytest.raises(ValueError, match=r"items are numbered 0 to \d+ \(`content\.item_index\[name\]` is a name's\)$"):
        game.price(0, "Lumber Yard")
    assert game.price(0, RULES.content.item_index["Lumber Yard"]) == (0, 0, False)


def test_a_game_made_from_another_games_state_plays_on_a_copy_of_it():
    """`load_game(game.state)` and `Game(content, game.state)` shared the state: each game kept
    its own view of it, and the second built a card the first had built (a bot author's audit)."""
    from rulesdsl.pipeline import load_game
    g = new_game(seed=2, options=["beginner_wonders"])
    before = dumps(g.state)
    for other in (load_game(g.state), Game(g.content, g.state)):
        assert other.state is not g.state and dumps(other.state) == before
    snap = load_game(g.state)
    build = next(a for a in g.legal_actions() if a.name == "build")
    assert snap.explain_illegal(build) is None
    g.apply(build)
    assert dumps(snap.state) == before and snap.explain_illegal(build) is None   # (its own game)
    snap.apply(build)
    assert dumps(snap.state) == dumps(g.state)   # (the same move on the same position: the same game)


def test_copying_a_game_clones_it_and_pickling_says_what_to_send():
    import copy
    import pickle
    g = new_game(seed=1)
    for other in (copy.copy(g), copy.deepcopy(g)):
        assert other.state is not g.state and dumps(other.state) == dumps(g.state)
        other.apply(other.legal_actions()[0])
        assert dumps(other.state) != dumps(g.state)
    with pytest.raises(TypeError, match=r"a Game cannot be pickled .* send `persistence.dumps\(game.state\)`"):
        pickle.dumps(g)


@pytest.mark.parametrize("name", ["Hera's", 'x"y z', "a\\", "", "Lumber Yard", "Plain", "'", '"', "a b\\ c"])
def test_every_printable_name_reads_back_from_str(name):
    """`str(Action("build", ("Hera's",)))` was `build Hera's`, which `Action.parse` refused
    ("no closing quotation"); a quote, a backslash or nothing at all did not read back."""
    action = Action("build", (name,))
    assert Action.parse(str(action)) == action
    assert str(Action("build", ("Plain",))) == "build Plain"   # (a plain name stays bare)


def test_every_printable_name_reads_back_from_str_whatever_it_holds():
    from hypothesis import given, settings, strategies as st

    @settings(max_examples=300, deadline=None)
    @given(st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), max_size=12))
    def round_trip(name):
        if name.isprintable():
            # Content names are read in their composed form (NFC: docs/language.md), and so are
            # the names an action is parsed with; a name of another form reads back composed.
            composed = unicodedata.normalize("NFC", name)
            assert Action.parse(str(Action("build", (composed,)))) == Action("build", (composed,))
            assert Action.parse(str(Action("build", (name,)))) == Action("build", (composed,))
    round_trip()


def test_no_one_is_to_move_in_a_finished_game():
    """`to_move()` named a seat after the end, while `to_act()` and the legal actions were
    empty; `observe` showed it too (a bot author's audit)."""
    game = new_game(seed=3)
    agent = RandomAgent(3)
    while not game.over:
        assert game.to_move() in game.to_act()
        game.apply(agent.act(game))
    assert game.to_move() is None and game.to_act() == [] and game.legal_actions() == []
    assert observe(game, 0)["to_move"] is None


def test_every_exception_of_the_errors_table_in_docs_api_is_importable_where_it_says():
    # (ScriptedDrawFailed, named bare like GameStuck and ShortDeal, was not in rulesdsl.interpreter:
    # `from rulesdsl.interpreter import ScriptedDrawFailed` was an ImportError)
    import importlib
    import re
    from pathlib import Path
    doc = (Path(__file__).resolve().parent.parent / "docs" / "api.md").read_text(encoding="utf-8")
    table = doc[doc.index("## Errors"):].split("\n\n")[1]
    names = re.findall(r"^\| `([\w.]+)`", table, re.M)
    assert len(names) >= 10, names
    for name in names:
        *module, attr = name.split(".")
        candidates = ["rulesdsl.interpreter", "builtins"] if not module else [
            ".".join(["rulesdsl", *module]), ".".join(["rulesdsl", "interpreter", *module]), ".".join(module)]
        found = [c for c in candidates if _has(importlib, c, attr)]
        assert found, f"docs/api.md names `{name}`: not importable from {candidates}"
        assert issubclass(getattr(importlib.import_module(found[0]), attr), Exception)


def _has(importlib, module: str, attr: str) -> bool:
    try:
        return hasattr(importlib.import_module(module), attr)
    except ImportError:
        return False
