"""Plain-English explanations: the compiled texts of the bundled cards (rulesdsl.explain_text)
and `explain(NAME)` for every kind of definition (rulesdsl.explain)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulesdsl.pipeline import Ruleset
from rulesdsl import ast
from rulesdsl.explain import UnknownName, entries, explain, find
from rulesdsl.explain_text import english
from rulesdsl.parser import parse_file

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def content():
    return Ruleset.load().content


def texts(content, name: str) -> list[str]:
    return content.items[content.item_index[name]].texts


# -- the compiled texts -----------------------------------------------------------------------------

@pytest.mark.parametrize("name, text", [
    ("Chamber of Commerce", "Gain 3 coins for each grey card in your city"),
    ("Port", "Gain 2 coins for each brown card in your city"),
    ("Arena", "Gain 2 coins for each built wonder you have"),
    ("Merchants Guild", "Worth 1 VP for each yellow card in the city with the most yellow cards"),
    ("Merchants Guild", "Gain 1 coin for each yellow card in the city with the most yellow cards"),
    ("Builders Guild", "Worth 2 VP for each built wonder of the player with the most built wonders"),
    ("Moneylenders Guild", "Worth 1 VP for every 3 coins of the player with more coins"),
    ("Mathematics", "Worth 3 VP for each token from the progress deck you have"),
    ("Mausoleum", "Choose 1 card from the discard pile and build it for free"),
    ("Statue of Zeus", "Choose 1 brown card from the opponent's city and discard it"),
    ("Great Library", "Choose 1 token from your library and take it"),
    ("Strategy", "When you build a red card: 1 shield"),
    ("Theology", "When you build a wonder: take another turn"),
    ("Economy", "When the opponent buys resources from the bank: gain as many coins as they paid to the bank"),
    ("Architecture", "Each wonder you build costs 2 fewer resources (the most expensive ones)"),
    ("Masonry", "Each blue card you build costs 2 fewer resources (the most expensive ones)"),
    ("Appian Way", "The opponent loses 3 coins"),
    ("Walls", "2 shields"),
    ("Guard Tower", "1 shield"),
    ("Stone Reserve", "You buy stone from the bank for 1 coin each"),
    ("Caravansery", "Produces 1 wood, clay or stone (your choice, each turn)"),
    ("Archery Range", "Cost: 1 wood, 1 stone and 1 papyrus"),
    ("Horse Breeders", "Free to build if you have the horseshoe chain symbol"),
    ("Workshop", "Scientific symbol: plumb bob"),
])
def test_card_texts_read_naturally(content, name, text):
    assert text in texts(content, name)


@pytest.mark.parametrize("expansions", [(), ("pantheon",), ("agora",)])
def test_no_template_leftovers_anywhere(expansions):
    """No raw verbs, braces, underscores or broken agreement in any compiled text."""
    content = Ruleset.load(list(expansions)).content
    all_texts = [t for it in content.items for t in it.texts] + [r.text for r in content.rules]
    # (an action's `before_turn` text is not made from a template: its first letter is not checked)
    all_texts += [t[:1].upper() + t[1:] for a in content.actions for t in a.texts]
    all_texts += [t for b in content.ages for t in content.blocks[b].texts]
    assert all_texts
    for t in all_texts:
        assert t and (t[0].isupper() or t[0].isdigit()), t
        # (a name quoted as the source spells it, `run `may_move``, keeps its underscores)
        bare = re.sub(r"`[A-Za-z0-9_]+`", "NAME", t)
        assert not re.search(r"[{}_]|You gains|You chooses|You wins|\bchosen\b|\(\)", bare), t
        assert "  " not in t, t


def test_actions_and_rules(content):
    discard = next(a for a in content.actions if a.name == "discard")
    assert discard.texts == ["Choose a card from the structure", "Discard the card",
                             "Gain 2 coins plus 1 coin for each yellow card in your city"]
    rules = [r.text for r in content.rules]
    assert ("When you gain a scientific symbol: if you have at least 6 different scientific symbols, "
            "you win the game (science victory)") in rules
    assert any(t.startswith("When any player builds a wonder: ") for t in rules)


def statement(text: str) -> ast.Statement:
    tree, diags = parse_file("snippet.rules", f"card \"X\" {{\n{text}\n}}\n")
    assert tree is not None, diags
    return tree.definitions[0].block.statements[0]


@pytest.mark.parametrize("source, text", [
    ("gain 2 coins who=opponent", "The opponent gains 2 coins"),
    ("lose 1 coin", "Lose 1 coin"),
    ("each_player { gain 7 coins }", "Each player gains 7 coins"),
    ("choose 2 from city owner=opponent color=[brown, grey] { discard chosen }",
     "Choose 2 brown or grey cards from the opponent's city and discard them"),
    ("choose 1 from draft by=player(1) { discard chosen }",
     "The second player chooses 1 from the draft and discards it"),
    ("choose 1 from city owner=opponent by=opponent { discard chosen }",
     "The opponent chooses 1 from the opponent's city and discards it"),
    ("if coins >= 5 { gain 1 coin }", "If you have at least 5 coins, gain 1 coin"),
    ("if not coins >= 5 { win science }", "If you have fewer than 5 coins, you win the game (science victory)"),
    ("gain either(pawn_distance > 0, 1, 2) coins",
     "If the conflict pawn is more than 0 spaces towards the opponent's capital, gain 1 coin; otherwise, gain 2 coins"),
    ("points coins // 3", "Worth 1 VP for every 3 coins you have"),
    ("points 2 * count(tokens, owner=opponent)", "Worth 2 VP for each token the opponent has"),
    ("repeat 2 { play_again }", "Repeat 2 times: take another turn"),
    ("when built by=opponent kind=wonder { gain 1 coin }", "When the opponent builds a wonder: gain 1 coin"),
    # Brackets the words need to keep the grouping (`10 - (2 + 1)` read as "10 minus 2 plus 1" was 9)
    ("gain 10 - (age + 1) coins", "Gain 10 coins minus (coins equal to the current age plus 1 coin), "
                                  "none if that comes to less than 0"),
    ("gain 10 - age + 1 coins", "Gain 10 coins minus coins equal to the current age plus 1 coin, "
                                "none if that comes to less than 0"),
    ("points 2 * (coins + 1)", "Worth VP equal to 2 times (the number of coins you have plus 1)"),
    ("gain (coins + 3) // 2 coins", "Gain coins equal to half of (the number of coins you have plus 3), rounded down"),
    ("gain 12 // (coins + 2) coins",
     "Gain coins equal to 12 divided by (the number of coins you have plus 2), rounded down"),
    # Arithmetic of written numbers reads as the number the game works out ("3 coins minus 1
    # coin minus 1 coin", "2 times 3 plus 1 coin" were hard to read); a written sign stays
    ("gain 10 - (2 + 1) coins", "Gain 7 coins"),
    ("gain 3 - 1 - 1 coins", "Gain 1 coin"),
    ("points 2 * (3 + 1)", "Worth 8 VP"),
    ("gain 12 // (1 + 2) coins", "Gain 4 coins"),
    ("gain 5 // 0 coins", "Gain 0 coins"),
    ("gain 2 * 3 + coins coins", "Gain 6 coins plus as many coins as you have"),
    ("modify shields -1", "Takes 1 from your `shields` modifier"),
    # A count the game takes as 0 when it comes to less (W508) says so; points may be negative
    ("gain count(city) - 10 coins",
     "Gain 1 coin for each item in the city minus 10 coins, none if that comes to less than 0"),
    ("gain max(0, count(city) - 10) coins",
     "Gain coins equal to the larger of 0 and the number of items in the city minus 10"),
    ("points count(city) - 3", "Worth 1 VP for each item in the city minus 3 VP"),
])
def test_statements_without_a_game(source, text):
    """Without the game's context (no compiler), phrasing falls back on the statement alone."""
    assert english(statement(source)) == text


# -- explain(NAME) ----------------------------------------------------------------------------------

def where(span) -> str:
    return f"{span.file}:{span.line}"


def test_explain_card(content):
    it = content.items[content.item_index["Chamber of Commerce"]]
    assert explain("Chamber of Commerce", content) == "\n".join([
        f"Chamber of Commerce (card, {where(it.span)})",
        "  Age III yellow card. Cost: 2 papyrus.",
        "  When built: gain 3 coins for each grey card in your city.",
        "  End of game: 3 VP.",
    ])
    assert where(it.span).startswith("cards/duel/age3.rules:")


@pytest.mark.parametrize("name, kind, lines", [
    ("Lumber Yard", "card", ["Age I brown card. No cost.", "Produces 1 wood."]),
    ("Horse Breeders", "card", ["Age II red card. Cost: 1 wood and 1 clay. Free to build if you have the "
                                "horseshoe chain symbol.", "When built: 1 shield."]),
    ("Merchants Guild", "card", ["Age III purple card, from the guilds. Cost: 1 wood, 1 clay, 1 glass and 1 papyrus.",
                                 "End of game: 1 VP for each yellow card in the city with the most yellow cards."]),
    ("Mausoleum", "wonder", ["Wonder. Cost: 2 clay, 2 glass and 1 papyrus.",
                             "When built: choose 1 card from the discard pile and build it for free.",
                             "End of game: 2 VP."]),
    ("Great Lighthouse", "wonder", ["Produces 1 wood, clay or stone (your choice, each turn)."]),
    ("Strategy", "token", ["Token.", "When you build a red card: 1 shield."]),
    ("Urbanism", "token", ["When taken: gain 6 coins.",
                           "When you build something for free with a chain symbol: gain 4 coins."]),
    ("Law", "token", ["Scientific symbol: law."]),
    ("Looting 5 (first player's side)", "military_token",
     ["Military token on the first player's half of the conflict track, taken when the conflict pawn "
      "reaches 6 spaces from the centre.", "When the conflict pawn reaches it: the opponent loses 5 coins."]),
])
def test_explain_items(content, name, kind, lines):
    text = explain(name, content)
    it = content.items[content.item_index[name]]
    assert text.splitlines()[0] == f"{name} ({kind}, {where(it.span)})"
    for line in lines:
        assert "  " + line in text.splitlines(), text


def test_explain_actions(content):
    text = explain("wonder", content)
    assert text.splitlines()[0].startswith("wonder (action, cards/duel/game.rules:")
    assert "  Choose a wonder from your wonders." in text.splitlines()
    assert "  Legal only if you can pay for the wonder." in text.splitlines()
    assert text.splitlines()[-1].endswith("; build the wonder.")
    discard = explain("discard", content).splitlines()
    assert discard[-1] == "  Then: discard the card; gain 2 coins plus 1 coin for each yellow card in your city."


def test_explain_rules_ages_layouts(content):
    rule = explain("science supremacy", content).splitlines()
    assert rule[0].startswith("Science supremacy (rule, cards/duel/game.rules:")
    assert rule[-1] == ("  When you gain a scientific symbol: if you have at least 6 different scientific "
                        "symbols, you win the game (science victory).")
    assert explain("Military supremacy", content).endswith("you win the game (military victory).")
    age = explain("age 1", content).splitlines()
    assert age[0].startswith("age 1 (age, cards/duel/game.rules:")
    assert any("structure of layout age1" in line for line in age)
    assert explain("Age II", content).startswith("age 2 (age, ")
    layout = explain("age1", content).splitlines()
    assert layout[0].startswith("age1 (layout, cards/duel/board.rules:")
    assert "    row 1: 2 cards face up, at half-card columns 5 and 7." in layout
    assert layout[-1] == "  Used by age 1."
    assert explain("layout age3", content).splitlines()[0].startswith("age3 (layout, ")


def test_explain_game_and_track(content):
    game = explain("duel", content)
    assert "  Coins (end of game): 1 VP for every 3 coins you have." in game.splitlines()
    assert "  A tie goes to the player with more VP from blue cards; still tied, the victory is shared." \
        in game.splitlines()
    assert explain("conflict", content).startswith("conflict (track, cards/duel/board.rules:")


@pytest.mark.parametrize("expansions", [(), ("pantheon",), ("agora",)])
def test_every_definition_can_be_explained(expansions):
    content = Ruleset.load(list(expansions)).content
    kinds = {e.kind for e in entries(content)}
    assert {"card", "wonder", "token", "military_token", "action", "rule", "age", "layout"} <= kinds
    for e in entries(content):
        text = explain(f"{e.kind} {e.name}", content)   # the kind first: names may repeat across kinds
        first = text.splitlines()[0]
        assert first.startswith(f"{e.label} ({e.kind}, "), first
        assert re.search(r":\d+\)$", first), first
        assert len(text.splitlines()) >= 2, text


def test_names_are_found_in_any_case(content):
    assert find("chamber OF commerce", content).name == "Chamber of Commerce"
    assert find("  Lumber   yard ", content).name == "Lumber Yard"
    assert find("action discard", content).kind == "action"
    assert find("card Tavern", content).kind == "card"


def test_names_that_differ_only_in_case_are_each_found(tmp_path):
    (tmp_path / "loud.rules").write_text('card "QUARRY" {\n    age 1\n    color brown\n    produce 2 stone\n}\n',
                                         encoding="utf-8")
    content = Ruleset.load([str(tmp_path)]).content
    assert "Produces 2 stone" in explain("QUARRY", content)   # (the first found was the base game's)
    assert "Produces 2 stone" not in explain("Quarry", content)
    with pytest.raises(UnknownName, match="differ from it only in case: `Quarry`, `QUARRY`"):
        find("quarry", content)


def test_unknown_name_suggests(content):
    with pytest.raises(KeyError) as exc:
        explain("Chamber of Comerce", content)
    assert isinstance(exc.value, UnknownName)
    assert exc.value.suggestion == "did you mean `Chamber of Commerce`?"
    assert str(exc.value) == exc.value.args[0] == ("nothing is named `Chamber of Comerce`; "
                                                  "did you mean `Chamber of Commerce`?")
    with pytest.raises(KeyError) as exc:
        explain("lumberyard", content)
    assert "Lumber Yard" in str(exc.value)
    with pytest.raises(KeyError) as exc:
        explain("qqqqqqq", content)
    assert exc.value.suggestion is None


def test_a_name_of_a_bundled_expansion_not_loaded_says_which_expansion(content):
    """`rulesdsl explain Zeus` said only "nothing is named `Zeus`": a god, a decree or an action of
    Pantheon or Agora asked of the base game names the expansion that defines it."""
    for name, kind, expansion in (("Zeus", "a god", "pantheon"), ("Decree: shield", "a decree", "agora"),
                                  ("Curia Julia", "a wonder", "agora")):
        with pytest.raises(UnknownName) as exc:
            explain(name, content)
        assert exc.value.suggestion == f'"{name}" is {kind} of the bundled expansion {expansion}: add -e {expansion}'
    with pytest.raises(UnknownName) as exc:
        explain("prepare", content)
    assert exc.value.suggestion == "action `prepare` is defined by the bundled expansion agora: add -e agora"
    with_it = Ruleset.load(["pantheon"]).content
    assert explain("Zeus", with_it).startswith("Zeus (god, ")
    with pytest.raises(UnknownName) as exc:                  # Agora's, not loaded beside Pantheon
        explain("Coup", with_it)
    assert exc.value.suggestion.endswith("add -e agora")
    with pytest.raises(UnknownName) as exc:                  # no bundled expansion of the classic game has it
        explain("Zeus", Ruleset.load((), "classic", 3).content)
    assert exc.value.suggestion is None


@pytest.mark.parametrize("typed", ["zeus", "ZEUS", "god Zeus", "god  zeus", "God ZEUS"])
def test_a_bundled_expansions_name_is_named_however_explain_would_find_it(content, typed):
    """`explain` finds a name in any case and with its kind first (`explain zeus` with -e
    pantheon is Zeus): asked without the expansion, the same spellings name it (they said only
    "nothing is named `zeus`", without even a did-you-mean)."""
    assert explain(typed, Ruleset.load(["pantheon"]).content).startswith("Zeus (god, ")
    with pytest.raises(UnknownName) as exc:
        explain(typed, content)
    assert exc.value.suggestion.endswith("the bundled expansion pantheon: add -e pantheon")
    assert "Zeus" in exc.value.suggestion


def test_a_long_unknown_name_is_cut_as_every_unknown_name_is(content):
    """`rulesdsl explain` echoed a 5,000-character name whole; other commands cut it
    (`names.quoted`)."""
    with pytest.raises(UnknownName) as exc:
        explain("Z" * 5000, content)
    assert str(exc.value) == f"nothing is named `{'Z' * 40}...`"
    assert exc.value.name == "Z" * 5000


def test_explain_a_new_card_in_an_expansion(tmp_path):
    (tmp_path / "stall.rules").write_text(
        'card "Market Stall" {\n    age 1\n    color yellow\n    cost 1 coin\n'
        '    gain 1 + count(city, color=brown) coins\n    points 1\n}\n', encoding="utf-8")
    content = Ruleset.load([str(tmp_path)]).content
    text = explain("market stall", content).splitlines()
    assert text[0] == f"Market Stall (card, {tmp_path / 'stall.rules'}:1)"
    assert text[1:] == ["  Age I yellow card. Cost: 1 coin.",
                        "  When built: gain 1 coin plus 1 coin for each brown card in your city.",
                        "  End of game: 1 VP."]


def test_an_effect_of_an_item_with_a_cost_runs_when_built():
    # A classic board's stage is built (it has a cost) and explain said "When taken".
    rules = Ruleset.load((), "classic", 3)
    assert "When built: gain 9 coins" in explain("Ephesos (Day) stage 2", rules.content)


def test_a_negated_bracket_and_a_choice_inside_a_sum_keep_their_grouping(tmp_path):
    """`gain -(2 + age) coins` read "gain 0 coins minus (...)"; Pantheon's price read as if the
    discount applied to the second player only: "... if you are the first player, otherwise 5
    minus the space of the god minus your pantheon discount"."""
    from rulesdsl.parser import parse_file
    from rulesdsl.explain_text import english
    tree, _ = parse_file("x.rules", 'card "A" {\n    gain -(2 + age) coins\n'
                                    '    gain max(0, either(age == 1, 3, 5 - age) - 1) coins\n}\n')
    neg, choice = (english(s) for s in tree.definitions[0].block.statements)
    assert "minus (2 coins plus" in neg and "0 coins" not in neg
    assert "(3 if the current age is 1, otherwise 5 minus the current age) minus 1" in choice, choice


def test_explain_knows_the_scenario_codes_rulesdsl_test_prints():
    """`rulesdsl explain S504` said "nothing is named `S504`", a code `rulesdsl test` prints."""
    from click.testing import CliRunner

    from rulesdsl.cli import cli
    from rulesdsl.testing.scenarios import S_CODES
    for code, meaning in S_CODES.items():
        result = CliRunner().invoke(cli, ["explain", code.lower()])
        assert result.exit_code == 0 and result.output.startswith(f"{code} (scenario ") and meaning in result.output
    assert CliRunner().invoke(cli, ["explain", "S501"]).output.startswith("S501 (scenario failure): ")
    unknown = CliRunner().invoke(cli, ["explain", "S999"])
    assert unknown.exit_code == 1 and "no scenario code S999; codes: S101, " in unknown.output


def test_explain_names_where_an_expansion_changed_or_removed_a_definition(tmp_path):
    """An extended card was shown with the base game's place alone, a replaced one with the
    replacement's alone, and a removed card got "did you mean" another name."""
    (tmp_path / "changes.rules").write_text(
        'extend card "Lumber Yard" {\n    points 1\n}\n\nremove card "Stone Pit"\n\n'
        'replace card "Clay Pool" {\n    age 1\n    color brown\n    produce clay\n}\n\n'
        'card "New Pit" {\n    age 1\n    color brown\n    produce stone\n}\n\n'
        'extend action discard {\n    gain 1 coin\n}\n', encoding="utf-8")
    content = Ruleset.load([str(tmp_path)]).content
    mine = tmp_path / "changes.rules"
    assert explain("Lumber Yard", content).splitlines()[0] == \
        f"Lumber Yard (card, cards/duel/age1.rules:3; extended at {mine}:1)"
    assert explain("Clay Pool", content).splitlines()[0] == \
        f"Clay Pool (card, {mine}:7; replaces cards/duel/age1.rules:16)"
    assert explain("action discard", content).splitlines()[0]== \
        f"discard (action, cards/duel/game.rules:109; extended at {mine}:19)"
    assert explain("Quarry", content).splitlines()[0] == "Quarry (card, cards/duel/age1.rules:29)"
    with pytest.raises(UnknownName) as exc:
        explain("stone pit", content)
    assert exc.value.suggestion == (f'`remove card "Stone Pit"` at {mine}:5 took it out '
                                    f"(defined at cards/duel/age1.rules:35)")


@pytest.mark.parametrize("typed", ["West Trading Post", "west  trading post", "card West Trading Post"])
def test_a_name_of_another_bundled_game_says_which_game(content, typed):
    """A classic card asked of Duel, the default game (`rulesdsl explain "West Trading Post"`
    without --game), said only "nothing is named ..."."""
    with pytest.raises(UnknownName) as exc:
        explain(typed, content)
    assert exc.value.suggestion == '"West Trading Post" is a card of the bundled game classic: add --game classic'
    with pytest.raises(UnknownName) as exc:
        explain("great library", Ruleset.load((), "classic", 3).content)
    assert exc.value.suggestion == '"Great Library" is a wonder of the bundled game duel: add --game duel'
    with pytest.raises(UnknownName) as exc:                  # in no bundled game: a did-you-mean as before
        explain("Lumber Yrad", content)
    assert exc.value.suggestion == "did you mean `Lumber Yard`?"


def test_explain_command_names_the_game_of_a_name_it_lacks():
    from click.testing import CliRunner
    from rulesdsl.cli import cli
    result = CliRunner().invoke(cli, ["explain", "Gizah (Day)"])
    assert result.exit_code == 1
    assert result.stderr.strip() == ('error: nothing is named `Gizah (Day)`; "Gizah (Day)" is a board of the bundled '
                                     'game classic: add --game classic')
