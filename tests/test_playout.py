"""`playout.play_out`, the loop `rulesdsl simulate` plays its games with, plays the game the
agents play through `Game._apply(agent.act(game))`: the same actions, the same random numbers,
the same state at the end, for every bundled content set, with random seats (whose turns it
takes in numbers, without naming them) and with other agents beside them.  A runaway action
stops it as it stops `_apply`: the error names the action, and the state is as before it."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from golden_games import SETS
from rulesdsl.interpreter import BudgetExceeded, Ruleset
from rulesdsl.interpreter.agents import RandomAgent, make_agent
from rulesdsl.interpreter.persistence import dumps
from rulesdsl.interpreter import decisions, legality, turns
from rulesdsl.interpreter.legality import drawn_among, named
from rulesdsl.interpreter.playout import play_out
from rulesdsl.pipeline import load_ruleset
from rulesdsl.simulate import agent_seed, game_seed


def agents_for(names: list[str], seed: int):
    return [make_agent(name, agent_seed(seed, i)) for i, name in enumerate(names)]


def by_apply(rules, seed: int, names: list[str]):
    game = rules.new_game(seed=seed)
    agents = agents_for(names, seed)
    while not game.over:
        game._apply(agents[game.to_move()].act(game))
    return game


def by_play_out(rules, seed: int, names: list[str]):
    game = rules.new_game(seed=seed)
    play_out(game, agents_for(names, seed))
    return game


@pytest.mark.parametrize("name", list(SETS))
def test_play_out_plays_the_game_apply_plays(name):
    expansions, base, players = SETS[name][:3]
    rules = load_ruleset(expansions, base, players)
    seats = rules.content.players
    for i in range(6):
        seed = game_seed(5, i)
        names = ["greedy" if i % 3 == 2 else "random"] + ["random"] * (seats - 1)
        plain, fast = by_apply(rules, seed, names), by_play_out(rules, seed, names)
        assert fast.state.flow == "over" and len(fast.state.history) > 20
        assert fast.state.history == plain.state.history, (name, i)
        assert dumps(fast.state) == dumps(plain.state), (name, i)


HANDS = str(Path(__file__).parent / "data" / "hands")


@pytest.mark.parametrize("base, players", [(HANDS, 3), ("classic", 3), ("classic", 5)])
def test_a_round_a_later_seat_has_chosen_in_first_plays_out_as_apply_plays_it(base, players):
    # `apply(action, seat)` lets any acting seat choose first (a search tries its own choice
    # so); `play_out` then draws for the seats still to choose, not the whole round again.
    rules = load_ruleset((), base, players)
    for seed in range(6):
        plain, fast = rules.new_game(seed=seed), rules.new_game(seed=seed)
        last = plain.to_act()[-1]
        first = plain.random_action(random.Random(seed), last)
        plain._apply(first, last)
        fast._apply(first, last)
        agents = [RandomAgent(seed * 10 + p) for p in range(players)]
        while not plain.over:
            plain._apply(agents[plain.to_move()].act(plain))
        play_out(fast, [RandomAgent(seed * 10 + p) for p in range(players)])
        assert dumps(fast.state) == dumps(plain.state), seed


@pytest.mark.parametrize("name", ["duel", "agora+pantheon", "classic-5"])
def test_seats_sharing_one_generator_play_the_game_random_action_plays(name):
    # (the search's random rollouts: every seat draws from the search's own generator)
    rules = load_ruleset(*SETS[name][:3])
    for seed in range(4):
        plain, fast = rules.new_game(seed=seed), rules.new_game(seed=seed)
        mine, theirs = random.Random(seed), random.Random(seed)
        while not plain.over:
            plain._apply(plain.random_action(mine))
        play_out(fast, [RandomAgent(rng=theirs)] * rules.content.players)
        assert dumps(fast.state) == dumps(plain.state), seed
        assert mine.getrandbits(64) == theirs.getrandbits(64)   # (the same numbers used, no more)


@pytest.mark.parametrize("name, names", [("duel", ["greedy", "random"]), ("duel", ["random", "random"]),
                                         ("agora+pantheon", ["random", "random"]), ("classic-3", ["random", "greedy", "random"]),
                                         ("classic-5", ["random"] * 5)])
def test_after_sees_every_action_as_a_loop_of_apply_does(name, names):
    # (the balance lab's tracker of what each seat took is called so: one call per action)
    rules = load_ruleset(*SETS[name][:3])
    seed = game_seed(9, 1)

    def looked(game, seen):
        st = game.state
        seen.append((len(st.history), st.turn, st.flow, [len(z) for z in st.zones]))

    plain, fast = rules.new_game(seed=seed), rules.new_game(seed=seed)
    by_loop, by_play_out = [], []
    agents = agents_for(names, seed)
    while not plain.over:
        plain._apply(agents[plain.to_move()].act(plain))
        looked(plain, by_loop)
    play_out(fast, agents_for(names, seed), after=lambda game: looked(game, by_play_out))
    assert by_play_out == by_loop and len(by_loop) > 20


class Counting(RandomAgent):
    """A random agent that is not the plain one: its turns go through `act`."""

    def __init__(self, seed: int):
        super().__init__(seed)
        self.asked = 0

    def act(self, game):
        self.asked += 1
        return super().act(game)


def test_only_the_plain_random_agent_is_drawn_for_in_numbers():
    rules = load_ruleset((), "duel", None)
    seed = game_seed(5, 0)
    counted = Counting(agent_seed(seed, 0))
    game = rules.new_game(seed=seed)
    play_out(game, [counted, make_agent("random", agent_seed(seed, 1))])
    # Every action of seat 0, and no other, was asked of it; the game is the plain one's.
    assert counted.asked == sum(1 for h, p in zip(game.state.history, actors(rules, seed)) if p == 0)
    assert dumps(game.state) == dumps(by_apply(rules, seed, ["random", "random"]).state)


def actors(rules, seed: int) -> list[int]:
    """Who took each action of the plain game."""
    game, agents, out = rules.new_game(seed=seed), agents_for(["random", "random"], seed), []
    while not game.over:
        out.append(game.to_move())
        game._apply(agents[out[-1]].act(game))
    return out


ECHO = """
rule "Echo" {
    when built {
        if coins >= 0 { build event.item free }
    }
}
"""


@pytest.mark.parametrize("name, kinds", [
    ("agora+pantheon", {("item", False), ("option", False), ("player", False), ("space", False)}),
    ("classic-3", {("item", True)})])   # (a free build from the discard pile, or none)
def test_a_random_seats_answer_to_a_decision_is_the_answer_random_action_draws(name, kinds):
    """`play_out` answers a random seat's pending decision by number (`decisions.answer_at`):
    the answer `random_action` draws from the list of answers, at every decision of seeded games."""
    rules = load_ruleset(*SETS[name])
    met = set()
    for seed in range(6):
        game = rules.new_game(seed=seed)
        rng = random.Random(seed)
        while not game.over:
            d = game.state.pending
            if d is not None:
                answers = decisions.answers(game, d)
                assert decisions.answer_count(d) == len(answers)
                assert [decisions.answer_at(game, d, k) for k in range(len(answers))] == answers
                met.add((d.kind, d.optional))
            game._apply(game.random_action(rng))
    assert met == kinds


@pytest.mark.parametrize("base, players", [("duel", None), ("classic", 3)])
def test_a_runaway_action_stops_play_out_as_it_stops_apply(tmp_path: Path, base, players):
    folder = tmp_path / "runaway"
    folder.mkdir()
    (folder / "cards.rules").write_text(ECHO, encoding="utf-8")
    rules = Ruleset.load([str(folder)], base, players)
    seats = rules.content.players
    seed = game_seed(5, 1)   # (any game: its first build runs away)
    errors, states = [], []
    for play in (_apply_until_error, play_out):
        game = rules.new_game(seed=seed, max_steps=300)
        agents = agents_for(["random"] * seats, seed)
        with pytest.raises(BudgetExceeded) as info:
            play(game, agents)
        errors.append((str(info.value), info.value.action))
        states.append(dumps(game.state))
    assert errors[0] == errors[1]
    message, action = errors[1]
    assert message.startswith(f"the action `{action}`: ") and "300 steps" in message
    assert states[0] == states[1]
    if base == "duel":
        # Undone: every build runs away, so the history holds none, only what came before.
        assert action.name in ("build", "wonder")
        assert not [h for h in game.state.history if h[0] in ("build", "wonder")]
    else:
        # A round runs away when it resolves: the last seat's choice is undone, and the round
        # waits for it again (the earlier seats' choices stand).
        assert game.state.flow == "round" and game.to_move() == game.state.acting[-1]
    assert len(game.state.history) > 0


def _apply_until_error(game, agents) -> None:
    while not game.over:
        game._apply(agents[game.to_move()].act(game))


def test_random_action_names_what_the_written_draw_draws():
    rules = load_ruleset((), "duel", None)
    game = rules.new_game(seed=3)
    while game.state.pending is not None:
        game._apply(game.legal_actions()[0])
    rng, twin = random.Random(9), random.Random(9)
    act, binding, pay = game._draw(game, game.state.current, twin._randbelow)
    action = game.random_action(rng)
    assert pay is None and action.name == act.name
    assert action.args == tuple(game.name(i) for i in binding)


@pytest.mark.parametrize("base, players", [("duel", None), ("classic", 3)])
def test_a_simulation_reports_each_seats_score_at_the_end(base, players):
    """Games that reached the last age's end were scored then (`turns.finish`); a simulation
    reports those scores, which must be what `score` says of the finished game."""
    from rulesdsl.simulate import DEFAULT_MAX_STEPS, _outcome, play_one

    rules = load_ruleset((), base, players)
    seats = ["random"] * rules.content.players
    victories = set()
    for i in range(16):
        winner, victory, scores = _outcome(rules, i, 3, seats, DEFAULT_MAX_STEPS)
        game = play_one(rules, game_seed(3, i), seats)
        assert scores == [game.score(p) for p in range(rules.content.players)]   # (worked out afresh)
        assert (winner, victory) == (game.state.winner, game.state.victory)
        victories.add(victory)
    assert "civilian" in victories


def test_a_round_resolves_a_random_seats_choice_from_its_numbers_or_else_from_its_names(monkeypatch):
    """A random seat's choice in a round is kept in numbers for the round to resolve; once
    anything moves meanwhile (which forgets what the round kept), the round decodes its name,
    as it does every other seat's: the same game either way."""
    rules = load_ruleset((), "classic", 3)
    seed = game_seed(7, 2)
    decoded = []
    decode = legality.decode
    monkeypatch.setattr(legality, "decode", lambda *a: decoded.append(a[1]) or decode(*a))

    def play(forget: bool):
        game = rules.new_game(seed=seed)
        agents = agents_for(["random"] * 3, seed)
        st = game.state
        while not game.over and len(st.history) < 45:
            if st.flow == "round" and st.pending is None:
                me = game.to_move()
                spaces, total = game._open_spaces(game, me)
                act, binding, pay, pools = drawn_among(game, me, agents[me].rng._randbelow, spaces, total)
                turns.choose(game, None, named(game, act, binding, pay), (act, binding, pay or None, pools))
                if forget:
                    game._round_pools.clear()   # what any move does (`core.relocate`)
            else:
                game._apply(agents[game.to_move()].act(game))
        return game

    kept = play(False)
    assert decoded == []
    forgotten = play(True)
    assert len(decoded) >= 30   # (ten rounds of three seats)
    plain = rules.new_game(seed=seed)
    agents = agents_for(["random"] * 3, seed)
    while len(plain.state.history) < len(kept.state.history):
        plain._apply(agents[plain.to_move()].act(plain))
    for game in (kept, forgotten):
        assert game.state.history == plain.state.history
        assert dumps(game.state) == dumps(plain.state)


def test_the_numbers_a_random_seat_draws_are_randranges():
    """`legality.below_of` binds `getrandbits` once instead of asking `Random._randbelow` for it
    at every number: the same numbers as `randrange`, and a generator of its own kind (one that
    overrides `random()`) keeps its own way of drawing."""
    ns = [n for n in range(1, 200)] * 10 + [2 ** 40 + 3, 7 ** 30]
    mine, theirs = random.Random(17), random.Random(17)
    below = legality.below_of(mine)
    assert [below(n) for n in ns] == [theirs.randrange(n) for n in ns]

    class Halves(random.Random):
        def random(self):
            return 0.5
    own, plain = legality.below_of(Halves(1)), Halves(1)
    assert [own(n) for n in ns[:50]] == [plain.randrange(n) for n in ns[:50]]


class OwnWay(random.Random):
    """A generator with a `random()` of its own: Python draws its integers from `random()`."""

    def random(self):
        return super().random()


def own_way_agent(seed: int) -> RandomAgent:
    """The plain random agent (whose turns `play_out` draws in numbers) with such a generator."""
    agent = make_agent("random", seed)
    agent.rng = OwnWay(seed)
    return agent


def test_a_random_seat_with_a_generator_of_its_own_plays_its_own_numbers():
    rules = load_ruleset((), "duel", None)
    seed = game_seed(5, 1)
    below = legality.below_of(own_way_agent(1).rng)
    assert below.bits is None   # (the written turn draws by calling it)
    plain = rules.new_game(seed=seed)
    agents = [own_way_agent(agent_seed(seed, i)) for i in range(2)]
    while not plain.over:
        plain._apply(agents[plain.to_move()].act(plain))
    fast = rules.new_game(seed=seed)
    fast_agents = [own_way_agent(agent_seed(seed, i)) for i in range(2)]
    assert all(type(a) is RandomAgent for a in fast_agents)   # (drawn for by the written turn)
    play_out(fast, fast_agents)
    assert fast.over and dumps(fast.state) == dumps(plain.state)


@pytest.mark.parametrize("agents, kind, message", [
    (1, ValueError, r"^1 agent given, the game has 2 seats: one agent per seat$"),
    (3, ValueError, r"^3 agents given, the game has 2 seats: one agent per seat$"),
    ("bare", TypeError, r"^agents must be a list of agents, one per seat, not RandomAgent$"),
    ("names", TypeError, r"^the agent of seat 0 is a str, which has no act\(game\)"),
    ("none", TypeError, r"^the agent of seat 1 is a NoneType, which has no act\(game\)"),
])
def test_play_out_refuses_a_line_up_that_is_not_one_agent_per_seat(agents, kind, message):
    """One agent too many was ignored, one too few failed at the seat without one
    (IndexError), and a name or a bare agent failed on an attribute."""
    game = load_ruleset((), "duel", None).new_game(seed=3)
    before = dumps(game.state)
    given = {1: [RandomAgent(1)], 3: [RandomAgent(1)] * 3, "bare": RandomAgent(1),
             "names": ["random", "random"], "none": [RandomAgent(1), None]}[agents]
    with pytest.raises(kind, match=message):
        play_out(game, given)
    assert dumps(game.state) == before   # (refused before any move)
    with pytest.raises(TypeError, match=r"^play_out plays a Game, not str$"):
        play_out("duel", [RandomAgent(1)] * 2)
    play_out(game, (RandomAgent(1), make_agent("greedy", 2)))   # (a tuple is a line-up too)
    assert game.over


@pytest.mark.parametrize("base, players", [("duel", None), ("classic", 3)])
def test_an_agent_of_yours_answering_an_illegal_action_is_refused_and_the_game_kept(base, players):
    """`play_out` applied every answer unchecked: a bot's `Action("fly", ("away",))` raised a bare
    KeyError halfway through the action, the state left half changed, and a text answer an
    AttributeError.  Now an answer is checked as `apply` checks it; the bundled agents, made by
    name in `simulate`, are vouched for."""
    from rulesdsl.interpreter import Action, IllegalAction

    class Fly:
        def act(self, game):
            return Action("fly", ("away",))

    class Text:
        def act(self, game):
            return str(game.legal_actions()[0])

    class LateMistake:
        """Plays legally a while, then names a card twice over."""
        def __init__(self):
            self.turns = 0

        def act(self, game):
            self.turns += 1
            action = game.legal_actions()[0]
            return action if self.turns < 5 else Action(action.name, action.args * 2)

    rules = load_ruleset((), base, players)
    for bot, reason in ((Fly(), "^illegal action fly away: "), (Text(), "not an Action"), (LateMistake(), "argument")):
        game = rules.new_game(seed=4)
        seen = []
        agents = [bot] + [RandomAgent(p) for p in range(1, rules.content.players)]
        with pytest.raises(IllegalAction, match=reason):
            play_out(game, agents, after=lambda g: seen.append(dumps(g.state)))
        assert dumps(game.state) == (seen[-1] if seen else dumps(rules.new_game(seed=4).state))
        game.apply(game.legal_actions()[0])   # (and plays on)



@pytest.mark.parametrize("rng", [random.Random(3), OwnWay(3)], ids=["plain", "own random()"])
@pytest.mark.parametrize("n", [0, -1, -7])
def test_a_draw_among_no_choices_is_an_error_not_a_loop(rng, n):
    """A caller that lost its candidates (as a build whose payments were all refused once did)
    gets an error at once: the rejection loop drew numbers for ever among 0 (and among a
    negative count, whose bit length is not 0)."""
    from test_runaway_input import within
    below = legality.below_of(rng)
    with pytest.raises(ValueError, match=rf"^a random draw among {n} choices: there is nothing to draw from$"):
        within(5, lambda: below(n))
    assert below(1) == 0   # (and a draw among one still gives it)


def test_a_refilled_decision_plays_the_game_a_new_one_plays():
    """`play_out` refills the decision it answered last for a random seat (`decisions.made`),
    its names lent to the answer's body (`answer_number`'s `spent`), but not where `after` may
    see it: played both ways, every seeded game ends the same, and a
    decision pending before `play_out` began, which its caller may keep, is left as it was."""
    rules = load_ruleset(*SETS["agora+pantheon"])
    refilled = 0
    for seed in range(4):
        ends = []
        for after in (None, lambda g: None):
            game = rules.new_game(seed=seed)
            while game.state.pending is None:   # (a decision pending as play_out begins)
                game._apply(game.random_action(random.Random(seed)))
            held = game.state.pending
            kept = dumps(game.state)
            was = (held.kind, held.options[:], dict(held.env), held.prompt)
            play_out(game, [RandomAgent(seed), RandomAgent(seed + 1)], after)
            assert (held.kind, held.options, held.env, held.prompt) == was
            refilled += after is None and game._spare_decision is not None
            ends.append(dumps(game.state))
        assert ends[0] == ends[1] and ends[0] != kept
    assert refilled
