"""A designer's own small games, written from the docs alone (audit 26): what `check`, `explain`
and `verify` say of a game that is not one of the bundled ones.

The games are invented for these tests and written into tmp_path: a market row refilled from a
deck, with an action that takes no card and is always possible."""

from __future__ import annotations

from pathlib import Path

from rulesdsl.report import check_paths

MARKET = """\
game bazaar {
    title "Bazaar"
    players 2 3
    resources spice
    colors gold blue
    item_kinds card
    counter fame
    zone stall player active public
    zone row public
    zone deck
    zone discard public
    build_zone card stall
    discard_pile discard
    trade_price 3
    age_ends when count(row) == 0
    score fame counter(fame)
    tiebreak_by coins
    setup {
        each_player { gain 3 coins }
        shuffle deck
    }
}

age 1 { take_top 3 deck row }

card "Spice Cart" { deck deck; color gold; produce spice; copies 2 2 3 3 }
card "Tea House" { deck deck; color blue; cost spice; add 1 fame; copies 2 2 3 3 }
card "Palace" { deck deck; color blue; cost 3 spice; add 3 fame; copies 2 3 }

action buy {
    param card from row
    build card
    take_top 1 deck row
}

action rest {
    gain 1 coin
}
"""


def write_game(tmp_path: Path, text: str = MARKET) -> Path:
    folder = tmp_path / "game"
    folder.mkdir()
    (folder / "game.rules").write_text(text, encoding="utf-8")
    return folder


def test_an_action_that_takes_no_card_and_is_always_possible_is_no_w504(tmp_path):
    # Every card-taking action here has a cost (`build` pays), but `rest` is always legal: no
    # player can be left without a legal action, so W504's "the game is stuck" would be untrue.
    report = check_paths([write_game(tmp_path)])
    assert [d.code for d in report.diagnostics] == [], report.human()


def test_w504_still_warns_when_the_action_without_a_card_has_a_condition(tmp_path):
    folder = write_game(tmp_path, MARKET.replace("    gain 1 coin\n", "    require coins < 2\n    gain 1 coin\n"))
    assert "W504" in [d.code for d in check_paths([folder]).diagnostics]


def test_a_game_that_never_ends_is_said_at_its_age_ends_with_a_hint_about_ending(tmp_path):
    # The hint was "check the copies and the deals for that many players", at `players`: about a
    # deck too small, not about a game whose ages never end.
    folder = write_game(tmp_path, MARKET.replace("age_ends when count(row) == 0", "age_ends when false"))
    errors = [d for d in check_paths([folder]).diagnostics if d.code == "E409"]
    assert errors and all("did not end" in d.message for d in errors)
    assert {(d.span.line, d.span.column) for d in errors} == {(15, 19)}
    assert all("`age_ends`" in d.help and "copies" not in d.help for d in errors)


def test_a_stuck_trial_game_hints_at_an_action_always_possible(tmp_path):
    folder = write_game(tmp_path, MARKET.replace("    gain 1 coin\n", "    require coins > 100\n    gain 1 coin\n")
                        .replace("deck deck; color gold; produce spice; copies 2 2 3 3",
                                 "deck deck; color gold; cost 9 coins; produce spice; copies 2 2 3 3")
                        .replace("each_player { gain 3 coins }", "each_player { gain 0 coins }"))
    errors = [d for d in check_paths([folder]).diagnostics if d.code == "E409"]
    assert errors and all("no legal action" in d.message for d in errors), [d.message for d in errors]
    assert all("always possible" in d.help and "copies" not in d.help for d in errors)


def test_verify_of_a_game_that_never_ends_lists_the_ends_of_its_moves_not_a_thousand(tmp_path):
    from click.testing import CliRunner

    from rulesdsl.cli import cli
    folder = write_game(tmp_path, MARKET.replace("age_ends when count(row) == 0", "age_ends when false"))
    out = tmp_path / "failure.json"
    result = CliRunner().invoke(cli, ["verify", "--game", str(folder), "--games", "1", "--jobs", "1",
                                      "--out", str(out)], catch_exceptions=False)
    assert result.exit_code == 1 and "`game-ends` broken" in result.output, result.output[-800:]
    assert "the 1000 action(s) that lead to it:" in result.output
    listed = [line for line in result.output.splitlines() if line[:9].strip().rstrip(".").isdigit()]
    assert len(listed) == 40 and listed[0].strip().startswith("1.") and listed[-1].strip().startswith("1000.")
    assert "... 960 more (the trace holds every one) ..." in result.output
    import json
    assert len(json.loads(out.read_text(encoding="utf-8"))["actions"]) == 1000


def test_explain_of_a_bare_age_number_suggests_the_age_of_this_game(tmp_path):
    # Every bundled game has an `age 1`: `explain 1` sent the default game's user to another
    # bundled game ("add --game classic") that has it no more than theirs.
    import pytest

    from rulesdsl.explain import UnknownName, explain
    from rulesdsl.pipeline import Ruleset
    for content in (Ruleset.load((), "duel", 2).content, Ruleset.load((), "classic", 3).content,
                    Ruleset.load((), str(write_game(tmp_path)), 2).content):
        with pytest.raises(UnknownName) as exc:
            explain("1", content)
        assert exc.value.suggestion == "did you mean `age 1`?"


def test_explain_in_a_designers_own_game_suggests_its_own_names_first(tmp_path):
    # `age1` is a layout of a bundled game: a designer's own game that has an `age 1` was told
    # "add --game duel", a game they did not ask about.
    import pytest

    from rulesdsl.explain import UnknownName, explain
    from rulesdsl.pipeline import Ruleset
    content = Ruleset.load((), str(write_game(tmp_path)), 2).content
    with pytest.raises(UnknownName) as exc:
        explain("age1", content)
    assert exc.value.suggestion == "did you mean `age 1`?"
    with pytest.raises(UnknownName) as exc:     # nothing of theirs is close: the bundled game that has it
        explain("Great Library", content)
    assert exc.value.suggestion == '"Great Library" is a wonder of the bundled game duel: add --game duel'


def test_a_game_without_trade_price_buys_from_the_bank_at_2_as_the_docs_say(tmp_path):
    # (docs/language.md, `trade_price` in `game`: the default was said nowhere; a designer whose
    # game has no trade found cards costing coins they never wrote)
    from rulesdsl.pipeline import new_game
    without = write_game(tmp_path, MARKET.replace("    trade_price 3\n", ""))
    assert new_game(base=str(without), players=2, seed=1).trade_prices(0) == [2]
    (tmp_path / "dear").mkdir()
    (tmp_path / "dear" / "game.rules").write_text(MARKET.replace("trade_price 3", "trade_price 1000"),
                                                  encoding="utf-8")
    game = new_game(base=str(tmp_path / "dear"), players=2, seed=1)
    assert game.trade_prices(0) == [1000]
    tea = next(i for i, it in enumerate(game.content.items) if it.name == "Tea House")
    assert game.price(0, tea)[0] >= 1000          # 1 spice, which no seat makes at the start
    assert new_game(base=str(without), players=2, seed=1).price(0, tea)[0] == 2


def test_a_statement_with_an_option_after_a_closing_brace_is_e101_and_the_definition_stays(tmp_path):
    # `gain 1 coin` there was E101 ("stands outside any definition"), but `gain 1 coin who=left`
    # was E001 "unexpected `=`", and the action before it was lost with it.
    folder = write_game(tmp_path, MARKET + "    gain 1 coin who=left\n")
    report = check_paths([folder])
    assert [(d.code, d.span.line, d.span.column) for d in report.diagnostics] == [("E101", 39, 5)], report.human()
    assert "`gain` stands outside any definition" in report.diagnostics[0].message
    assert "closed at line 38" in report.diagnostics[0].help
    (tmp_path / "2").mkdir()
    folder = write_game(tmp_path / "2", MARKET.replace("action rest {", "when built by=me { gain 1 coin }\naction rest {"))
    line = MARKET.split("\n").index("action rest {") + 1
    assert [(d.code, d.span.line) for d in check_paths([folder]).diagnostics] == [("E101", line)]


def test_a_thousand_statements_outside_any_definition_are_said_a_hundred_times_then_stop(tmp_path):
    # Each was read again in a recursion: past some 970 the file was "cannot parse this file:
    # RecursionError"; now the first MAX_STRAYS are E101 and the next the parse error it is.
    from rulesdsl.parser import MAX_STRAYS
    folder = write_game(tmp_path, MARKET + "    gain 1 coin who=left\n" * 1200)
    errors = [(d.code, d.message) for d in check_paths([folder]).diagnostics if d.severity == "error"]
    assert errors == [("E101", "`gain` stands outside any definition")] * MAX_STRAYS + [("E001", "unexpected `=`")]
