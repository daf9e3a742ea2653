"""An expansion says which base game it is made for (`base GAME` in its header): laid on another
game it is one error, E107, at that line, naming the game to play it on, and the expansion is
left out. Before, Pantheon on the classic game gave two errors about layouts (E105) and Agora
48, none of which said the expansion belongs to Duel (docs/language.md, `base`)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulesdsl.diagnostics import RulesError, render
from rulesdsl.loader import bundled_sets, resolve_layers
from rulesdsl.pipeline import load_ruleset
from rulesdsl.report import check_layers, check_paths


def base_line(folder: Path) -> tuple[str, int, int]:
    """Where an expansion folder's `base` word stands: (file, line, column of the game's name)."""
    for path in sorted(folder.glob("*.rules")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            words = line.split("#")[0].split()
            if len(words) == 2 and words[0] == "base":
                return path.name, n, line.index(words[1]) + 1
    raise AssertionError(f"no `base` line in {folder}")


def made_for(expansion: str) -> str:
    """The game a bundled expansion's `base` names."""
    folder = bundled_sets("expansion")[expansion]
    file, line, _ = base_line(folder)
    return (folder / file).read_text(encoding="utf-8").splitlines()[line - 1].split("#")[0].split()[1]


def game_names() -> list[str]:
    return sorted(bundled_sets("game"))


@pytest.mark.parametrize("expansion", sorted(bundled_sets("expansion")))
def test_every_bundled_expansion_names_its_base_game_and_checks_clean_on_it(expansion):
    assert made_for(expansion) in game_names()
    report = check_layers(resolve_layers([expansion], made_for(expansion)))
    assert report.errors == 0, report.human()


@pytest.mark.parametrize("expansion", sorted(bundled_sets("expansion")))
def test_a_bundled_expansion_on_another_game_is_one_error_at_its_base_line(expansion):
    file, line, column = base_line(bundled_sets("expansion")[expansion])
    game = made_for(expansion)
    for other in game_names():
        if other == game:
            continue
        report = check_layers(resolve_layers([expansion], other))
        assert [(d.code, Path(d.span.file).name, d.span.line, d.span.column) for d in report.diagnostics] == \
            [("E107", file, line, column)], report.human()
        d = report.diagnostics[0]
        assert d.message == f"expansion `{expansion}` is made for `{game}`, not for `{other}`"
        assert d.help == f"play it on {game} (`--game {game}`), or leave it out"
        assert "^" in render(d, report.sources.get(d.span.file))


def test_both_bundled_expansions_on_the_other_game_are_an_error_each_and_nothing_else():
    expansions = sorted(bundled_sets("expansion"))
    games = {made_for(e) for e in expansions}
    for other in sorted(set(game_names()) - games):
        report = check_layers(resolve_layers(expansions, other))
        assert sorted(d.code for d in report.diagnostics) == ["E107"] * len(expansions), report.human()
        with pytest.raises(RulesError) as caught:
            load_ruleset(expansions, other)
        assert {d.code for d in caught.value.diagnostics} == {"E107"}


def expansion_folder(tmp_path: Path, header: str, body: str = "") -> Path:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "expansion.rules").write_text(f"expansion mine {{\n{header}}}\n{body}", encoding="utf-8")
    return folder


CHANGE = 'extend card "Lumber Yard" {\n    points 1\n}\n'


def test_a_folder_made_for_another_game_is_left_out_with_the_game_to_play_it_on(tmp_path):
    folder = expansion_folder(tmp_path, "    base harbours\n", CHANGE.replace("Lumber Yard", "Nowhere"))
    report = check_paths([folder])   # (laid on the bundled base game)
    assert [(d.code, d.span.line, d.span.column) for d in report.diagnostics] == [("E107", 2, 10)], report.human()
    d = report.diagnostics[0]
    assert d.message.startswith("expansion `mine` is made for `harbours`, not for ")
    assert d.help == "play it on the game `harbours` its `base` names, or correct `base`"


def test_an_expansion_without_base_is_laid_on_any_game_as_before(tmp_path):
    folder = expansion_folder(tmp_path, "    order 3\n", CHANGE.replace("Lumber Yard", "Nowhere"))
    report = check_paths([folder])
    assert [d.code for d in report.diagnostics] == ["E105"], report.human()


def test_an_expansion_on_the_game_it_names_plays(tmp_path):
    game = "duel"
    folder = expansion_folder(tmp_path, f"    base {game}\n", CHANGE)
    assert check_paths([folder]).errors == 0
    rules = load_ruleset([str(folder)], game)
    assert rules.new_game(seed=1).state.flow != "over"


def test_a_renamed_copy_of_the_game_is_another_game_and_the_hint_says_so(tmp_path):
    expansion = sorted(bundled_sets("expansion"))[0]
    game = made_for(expansion)
    copy = tmp_path / "variant"
    shutil.copytree(bundled_sets("game")[game], copy)
    game_file = copy / "game.rules"
    game_file.write_text(game_file.read_text(encoding="utf-8").replace(f"game {game} {{", "game variant {", 1),
                         encoding="utf-8")
    report = check_paths([copy], [expansion])
    assert [d.code for d in report.diagnostics] == ["E107"], report.human()
    assert report.diagnostics[0].help.endswith(f"a changed copy of {game} takes it if it keeps `game {game}`")
    # Kept under its name, the copy takes the expansion as the game does.
    game_file.write_text(game_file.read_text(encoding="utf-8").replace("game variant {", f"game {game} {{", 1),
                         encoding="utf-8")
    assert check_paths([copy], [expansion]).errors == 0


def test_base_belongs_in_an_expansion_header_and_takes_one_word(tmp_path):
    folder = tmp_path / "odd"
    folder.mkdir()
    (folder / "x.rules").write_text('expansion odd {\n    base 3\n}\ncard "Odd Card" {\n    age 1\n    color brown\n'
                                    '    base duel\n}\n', encoding="utf-8")
    codes = sorted(d.code for d in check_paths([folder]).diagnostics)
    assert codes == ["E202", "E309"], codes


# -- the game a command plays when none is given ---------------------------------------------------

def classic_expansion(tmp_path: Path, made_for: str = "classic") -> Path:
    """A folder of new content only, made for the classic game: `ore` is no resource of Duel's."""
    folder = tmp_path / "harbours"
    folder.mkdir()
    (folder / "harbours.rules").write_text(f'expansion harbours {{\n    base {made_for}\n}}\n\n'
                                           'card "Harbour" {\n    age 1\n    color brown\n    produce ore\n}\n',
                                           encoding="utf-8")
    return folder


def test_without_game_the_game_an_expansion_names_is_played(tmp_path):
    """`rulesdsl simulate -e ./harbours` laid a classic expansion on Duel (E107, or before
    `base`, an unknown resource); the game its `base` names is the default now."""
    from click.testing import CliRunner

    from rulesdsl.cli import cli
    from rulesdsl.loader import BASE_GAME, default_game

    folder = classic_expansion(tmp_path)
    run = lambda *args: CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)
    assert default_game([str(folder)]) == "classic" != BASE_GAME
    assert default_game(["nonexistent", str(folder)]) == "classic"   # (the first that names one)
    assert default_game([]) == BASE_GAME
    checked = run("check", folder)
    assert checked.exit_code == 0 and checked.output.startswith("ok: "), checked.output
    assert run("check", "-e", folder).exit_code == 0
    simulated = run("simulate", "-n", "2", "-e", folder, "--jobs", "1")
    assert simulated.exit_code == 0 and "classic, 3 players" in simulated.output, simulated.output
    assert "Harbour" in run("list", "card", folder).output
    # A game given still wins: the expansion is then one error, where its `base` is.
    refused = run("check", "--game", "duel", folder)
    assert refused.exit_code == 1 and "error[E107]: expansion `harbours` is made for `classic`, not for `duel`" \
        in refused.output
    # Bundled expansions name their game too.
    assert default_game(sorted(bundled_sets("expansion"))) == made_for(sorted(bundled_sets("expansion"))[0])


def test_a_base_that_names_no_bundled_game_leaves_the_default_and_says_so(tmp_path):
    from rulesdsl.loader import BASE_GAME, default_game

    folder = classic_expansion(tmp_path, made_for="harbour_game")
    assert default_game([str(folder)]) == BASE_GAME
    report = check_paths([folder])
    assert [d.code for d in report.diagnostics] == ["E107"]
    assert report.diagnostics[0].message == f"expansion `harbours` is made for `harbour_game`, not for `{BASE_GAME}`"


def test_the_header_scans_skip_a_fifo_named_like_a_card_file(tmp_path):
    """Reading a FIFO blocks until something writes to it: `rulesdsl check` on a folder holding
    one hung in the scan for a `base` line (and `-e FOLDER` in the scan for `order`)."""
    import os
    import threading

    from rulesdsl.loader import default_game, folder_order, header

    os.mkfifo(tmp_path / "a_pipe.rules")
    (tmp_path / "b.rules").write_text("expansion piped {\n    order 4\n    base classic\n}\n", encoding="utf-8")
    found = {}
    scan = threading.Thread(target=lambda: found.update(header=header(tmp_path), order=folder_order(tmp_path),
                                                         game=default_game([str(tmp_path)]),
                                                         pipe=default_game([str(tmp_path / "a_pipe.rules")])),
                            daemon=True)
    scan.start()
    scan.join(timeout=20)
    assert found == {"header": ("expansion", "piped"), "order": 4, "game": "classic", "pipe": "duel"}, \
        "a scan blocked on the FIFO"


def test_a_scenario_without_base_plays_the_game_its_expansion_names(tmp_path):
    """A scenario with `expansion "harbours"` (made for the classic game) and no `base` line
    was set up on Duel, where the expansion is E107; `rulesdsl test --game` and a `base` line
    still decide."""
    from rulesdsl.testing import scenarios as S

    classic_expansion(tmp_path)
    path = tmp_path / "harbour.scenario"
    path.write_text('scenario "A harbour makes ore" {\n    expansion "harbours"\n    give 0 "Harbour"\n'
                    '    expect production(ore) >= 1\n    expect count(city, owner=all) == 1\n}\n', encoding="utf-8")
    (result,) = S.run_file(path)
    assert result.status == "passed", [d.message for d in result.diagnostics]
    (given,) = S.run_file(path, base="duel")
    assert given.status == "error"
    assert "expansion `harbours` is made for `classic`, not for `duel`" in given.diagnostics[0].message


def test_a_compared_variant_without_game_is_laid_on_the_game_its_base_names(tmp_path):
    """`balance --compare classic ./harbours` laid the variant on Duel (E107)."""
    import json

    from click.testing import CliRunner

    from rulesdsl.cli import cli

    folder = classic_expansion(tmp_path)
    result = CliRunner().invoke(cli, ["balance", "-n", "3", "--compare", "classic", str(folder), "--agents",
                                      "random,random,random", "--jobs", "1", "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    changed = json.loads(result.output)["compare"]["changed"]
    assert {"change": "only in B", "kind": "card", "name": "Harbour"} in changed


def test_the_api_left_without_base_plays_the_game_the_expansion_names(tmp_path):
    """`new_game(["./harbours"])` laid a classic expansion on Duel (E107), where the commands
    play the classic game; a `base` given still decides."""
    from rulesdsl.pipeline import new_game
    from rulesdsl.testing import strategies as rs

    folder = str(classic_expansion(tmp_path))
    rules = load_ruleset([folder])
    assert rules.content.name == "classic" and rules.content.players == 3
    assert load_ruleset([folder]) is load_ruleset([folder], "classic")   # (one cache entry)
    assert new_game([folder], seed=1).content is rules.content
    assert rs.ruleset([folder]) is rules
    assert load_ruleset() is load_ruleset((), "duel")
    with pytest.raises(RulesError) as caught:
        load_ruleset([folder], "duel")
    assert [d.code for d in caught.value.diagnostics] == ["E107"]


def bundled_root(root: Path, monkeypatch) -> None:
    """A `cards` folder of our own as the bundled one: two games, and expansions whose `base`
    and folder name disagree, so that which of the two decides shows."""
    from rulesdsl import loader

    def folder(name: str, text: str) -> None:
        (root / name).mkdir(parents=True)
        (root / name / "header.rules").write_text(text, encoding="utf-8")

    folder("duel", "game duel {\n}\n")
    folder("classic", "game classic {\n}\n")
    folder("isles", "expansion isles {\n    base duel\n}\n")              # no `duel-` prefix: its base decides
    folder("duel-harbours", "expansion harbours {\n    base classic\n}\n")  # the prefix says Duel, its base not
    folder("duel-old", "expansion old {\n}\n")                         # no base: the folder's name decides
    folder("moon-base", "expansion lunar {\n    base moon\n}\n")          # made for no bundled game
    monkeypatch.setattr(loader, "CARDS_ROOT", root)
    loader._bundled_expansions.cache_clear()
    monkeypatch.setattr(loader, "_bundled_expansions", loader._bundled_expansions)   # (cleared again on the way out)


def test_a_games_bundled_expansions_are_those_its_base_names_the_folder_name_only_without_one(tmp_path, monkeypatch):
    from rulesdsl import loader
    from rulesdsl.names import UnknownName

    bundled_root(tmp_path / "cards", monkeypatch)
    try:
        assert loader.bundled_expansions_for("duel") == ["old", "isles"]
        assert loader.bundled_expansions_for("classic") == ["harbours"]
        assert loader.bundled_expansions_for("moon") == []
        # An unknown expansion is answered with the bundled ones by the game each is made for.
        with pytest.raises(UnknownName) as refused:
            loader.layer_folder("ilses", "expansion")
        assert str(refused.value) == ("unknown expansion `ilses`; did you mean `isles`? "
                                      "expansions: lunar; harbours (for classic); isles, old (for duel); "
                                      "nor is there a folder `ilses` here")
        assert refused.value.known == ["harbours", "old", "isles", "lunar"]
    finally:
        loader._bundled_expansions.cache_clear()


def test_an_unknown_expansion_names_the_game_each_bundled_one_is_for():
    from click.testing import CliRunner

    from rulesdsl.cli import cli

    by_game: dict[str, list[str]] = {}
    for expansion in sorted(bundled_sets("expansion")):
        by_game.setdefault(made_for(expansion), []).append(expansion)
    listed = "; ".join(f"{', '.join(names)} (for {game})" for game, names in sorted(by_game.items()))
    for args in (["check", "-e", "nosuch"], ["check", "--game", "classic", "-e", "nosuch"],
                 ["simulate", "-n", "1", "-e", "nosuch"]):
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 2, result.output
        assert f"unknown expansion `nosuch`; expansions: {listed}" in result.output, result.output


def test_listing_the_expansions_with_none_loaded_names_those_there_are_to_add():
    """`rulesdsl list expansions` listed the expansions loaded: with no `-e`, nothing at all."""
    from click.testing import CliRunner

    from rulesdsl.cli import cli

    def run(*args: str):
        return CliRunner().invoke(cli, ["list", *args])

    for game in game_names():
        mine = sorted(e for e in bundled_sets("expansion") if made_for(e) == game)
        result = run("expansions", "--game", game)
        assert result.exit_code == 0 and result.stdout == ""
        said = (f"no expansion loaded; the bundled expansions for {game}: {', '.join(mine)} (add -e NAME)\n"
                if mine else f"no expansion loaded (none is bundled for {game})\n")
        assert result.stderr == said
    expansion = sorted(bundled_sets("expansion"))[0]
    loaded = run("expansion", "-e", expansion)
    assert loaded.stdout.split()[0] == expansion and loaded.stderr == ""
    # A program reads the JSON: an empty list, and no word beside it.
    as_json = run("expansions", "--json")
    assert as_json.stdout.strip() == '{"kind": "expansion", "names": []}' and as_json.stderr == ""
    # Any other kind the content has none of says so too.
    empty = run("tokens", "--game", "classic")
    assert (empty.exit_code, empty.stdout, empty.stderr) == (0, "", "no token in this content\n")


def test_a_game_given_as_an_expansion_is_one_error_and_left_out():
    """`-e cards/classic` on Duel gave 114 errors (every zone and card declared again), E403's
    "a second `game` definition" among them; now the game's folder is left out, with that one."""
    from click.testing import CliRunner

    from rulesdsl.cli import cli
    from rulesdsl.loader import load_paths

    games = bundled_sets("game")
    for base, other in ((a, b) for a in games for b in games if a != b):
        merged = load_paths(resolve_layers([str(games[other])], base))
        assert [(d.code, d.message) for d in merged.diagnostics] == [
            ("E403", f"a second `game` definition (`{other}`): a game, laid on `{base}` as an expansion")]
        found = merged.diagnostics[0]
        assert found.span.file.endswith("game.rules") and f"(`--game {other}`)" in found.help
        assert {d.name for d in merged.by_kind("game")} == {base}   # (left out: nothing of it is laid)
        checked = CliRunner().invoke(cli, ["check", "--game", base, "-e", str(games[other])])
        assert checked.exit_code == 1 and checked.output.count("error[") == 1, checked.output
    result = CliRunner().invoke(cli, ["simulate", "-n", "1", "-e", str(games["classic"])])
    assert result.exit_code == 1 and result.output.count("error[") == 1, result.output


@pytest.mark.parametrize("header", ["expansion oneline { base classic }",
                                    'expansion oneline { title "One line"; base classic }',
                                    'expansion oneline {\n    title "x"; base classic\n}'])
def test_a_base_in_a_header_on_one_line_names_the_game_too(tmp_path, header):
    """`expansion x { base classic }` on one line was laid on Duel, then E107 said it was made
    for classic: the scan for `base` read whole lines only."""
    from rulesdsl.loader import default_game, folder_base

    folder = tmp_path / "oneline"
    folder.mkdir()
    (folder / "x.rules").write_text(f'{header}\ncard "Fish Market" {{ age 1; color yellow; gain 2 coins }}\n',
                                    encoding="utf-8")
    assert folder_base(folder) == "classic" and default_game([str(folder)]) == "classic"
    report = check_paths([folder])
    assert not report.errors, [d.message for d in report.diagnostics]


def test_a_game_path_checked_with_another_game_as_expansion_says_so():
    """`check cards/classic -e cards/duel` dropped the `-e` silently: it was taken for the default
    base game, which a game PATH replaces, and the classic game checked clean."""
    from rulesdsl.loader import CARDS_ROOT
    games = bundled_sets("game")
    report = check_paths([CARDS_ROOT / "classic"], [str(games["duel"])])
    assert [(d.code, d.message) for d in report.diagnostics] == [
        ("E403", "a second `game` definition (`duel`): a game, laid on `classic` as an expansion")]
    # An expansion made for the PATH's game is laid on it, as before.
    assert check_paths([CARDS_ROOT / "duel"], ["pantheon"]).errors == 0
