"""Explain texts the design audit found misleading: who acts inside another player's choice,
whom a game trades with, the tie-breaker's grammar, and `chosen` read as a space."""

from __future__ import annotations

from rulesdsl.explain import explain
from rulesdsl.explain_text import english
from rulesdsl.parser import parse_file
from rulesdsl.pipeline import Ruleset


def english_of(text: str) -> list[str]:
    tree, diags = parse_file("snippet.rules", f'card "X" {{\n{text}\n}}\n')
    assert tree is not None, diags
    return [english(s) for s in tree.definitions[0].block.statements]


def test_an_option_of_the_opponents_choice_is_done_by_the_opponent():
    # The engine runs the picked option as the chooser: the opponent pays, and their opponent
    # (the card's owner) is given the coins.
    [text] = english_of("choose_one by=opponent {\n    option pay { lose 2 coins }\n"
                        "    option give { gain 2 coins who=opponent }\n}")
    assert text == "The opponent chooses one of: pay (they lose 2 coins); give (you gain 2 coins)"


def test_the_owner_chooses_back_inside_the_opponents_choice():
    [text] = english_of("choose_one by=opponent { option a {\n"
                        "    choose_one by=opponent { option b { gain 1 coin who=opponent } }\n} }")
    assert text == "The opponent chooses one of: a (you choose one of: b (the opponent gains 1 coin))"


def test_inside_a_pick_of_the_opponent_the_opponent_is_the_owner():
    texts = english_of("choose 1 from city owner=opponent by=opponent { gain 1 coin who=opponent }\n"
                       "choose_player by=opponent { lose 1 coin who=opponent }\n"
                       "choose_player { choose_one by=chosen { option a { gain 1 coin who=opponent } } }")
    assert texts[0].endswith(" and you gain 1 coin"), texts[0]
    assert texts[1] == "The opponent chooses a player; you lose 1 coin"
    assert texts[2] == "Choose a player; that player chooses one of: a (their opponent gains 1 coin)"


def test_a_trade_in_a_game_of_neighbour_trade_is_with_a_neighbour(tmp_path):
    (tmp_path / "inn.rules").write_text(
        'card "Roadside Inn" {\n    age 1\n    color yellow\n    copies 3\n'
        '    when traded by=me { gain 1 coin who=event.seller }\n'
        '    when traded by=left { gain event.amount coins }\n}\n', encoding="utf-8")
    content = Ruleset.load([str(tmp_path)], "classic", 3).content
    lines = explain("Roadside Inn", content).splitlines()
    assert "  When you buy resources from a neighbour: that neighbour gains 1 coin." in lines
    assert ("  When your left neighbour buys resources from a neighbour: "
            "gain as many coins as they paid to the neighbour.") in lines


def test_a_trade_in_a_game_of_bank_trade_is_with_the_bank():
    content = Ruleset.load().content
    assert ("When the opponent buys resources from the bank: gain as many coins as they paid to the bank"
            in explain("Economy", content))


def test_the_tie_breaker_reads_as_english():
    game = explain("classic", Ruleset.load((), "classic", 3).content).splitlines()
    assert "  A tie goes to the player with the highest number of coins; still tied, the victory is shared." \
        in game


def test_a_tie_breaker_that_is_no_count_reads_as_a_value():
    tree, diags = parse_file("g.rules", 'game "g" {\n    tiebreak_by counter(victories) - counter(defeats)\n}\n')
    assert tree is not None, diags
    text = english(tree.definitions[0].block.statements[0], kind="game")
    assert text.startswith("A tie goes to the player with the highest value of their victories minus their "
                           "defeats;"), text


def test_a_space_chosen_by_an_enclosing_choose_space_reads_as_a_space():
    # The compiler reads a choice's block on its own, without the choice around it.
    content = Ruleset.load(["agora"]).content
    texts = [t for b in content.blocks for t in b.texts]
    assert "Put the decree on the decrees at the chosen space" in texts
    assert not [t for t in texts if "at the chosen item" in t]
    assert english_of("add_cube senate space=chosen + 1") == [
        "Put one of your cubes on the senate at the chosen space plus 1"]


def test_the_check_summary_spells_plurals_as_the_listing_does(tmp_path):
    # "4 bonuss": the summary added an "s" to any kind.
    import shutil
    from click.testing import CliRunner

    from rulesdsl.cli import cli
    folder = tmp_path / "g"
    folder.mkdir()
    (folder / "game.rules").write_text(
        "game boxes {\n    players 2\n    resources wood\n    colors blue\n    item_kinds card bonus\n"
        "    zone city player active public\n    zone discard public\n    zone deck1\n    zone box\n"
        "    build_zone card city\n    build_zone bonus city\n    discard_pile discard\n    score coins coins\n}\n"
        "layout row1 { row up 1 3 }\nage 1 { deal_structure deck1 layout=row1 }\n"
        "action take {\n    param card from structure\n    build card\n}\n"
        'card "A" { deck deck1; color blue }\ncard "B" { deck deck1; color blue }\n'
        'bonus "X" { deck box }\nbonus "Y" { deck box }\n', encoding="utf-8")
    out = CliRunner().invoke(cli, ["check", "-g", str(folder)]).output
    assert "2 bonuses" in out and "bonuss" not in out, out
    shutil.rmtree(folder)


def test_part_of_reads_as_a_relation():
    # "for which its part of is the first item in their board": an attribute read as a noun.
    from click.testing import CliRunner

    from rulesdsl.cli import cli
    out = CliRunner().invoke(cli, ["explain", "classic", "-g", "classic"]).output
    assert "for which the item it is part of is the first item in their board" in out, out
    assert "its part of" not in out
