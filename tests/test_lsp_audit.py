"""The language server after an audit: quick fixes that replace the misspelt word only, text kept
in step with the editor whatever its line breaks, one content set per file (as `rulesdsl check
FOLDER` groups them), the `game` setting, completion inside strings and comments, references
in alternatives, byte order marks."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from rulesdsl.diagnostics import Diagnostic, Span
from rulesdsl.formatter import format_text
from rulesdsl.loader import CARDS_ROOT, header
from rulesdsl.lsp import features as F
from rulesdsl.lsp.positions import Lines, apply_change
from rulesdsl.lsp.project import Project
from rulesdsl.report import check_paths

from lsp_client import LspClient

CARD = 'card "Fan Card" {\n    age 1\n    color brown\n    %s\n}\n'


@pytest.fixture(scope="module")
def cards(tmp_path_factory) -> Path:
    """Copies of the bundled Duel and classic folders, to add files to."""
    root = tmp_path_factory.mktemp("cards")
    for name in ("duel", "classic"):
        shutil.copytree(CARDS_ROOT / name, root / name, ignore=shutil.ignore_patterns("__pycache__"))
    return root


@pytest.fixture(scope="module")
def client():
    c = LspClient()
    yield c
    assert c.close() == 0


def _at(text: str, needle: str, offset: int = 0) -> tuple[int, int]:
    for number, line in enumerate(text.split("\n")):
        if needle in line:
            return number, line.index(needle) + offset
    raise KeyError(needle)


def _published(client: LspClient, uri: str, after: int) -> list[list[dict]]:
    """Every diagnostics list published for `uri` after notification number `after` (call
    after a request, which the server answers after the notifications sent before it)."""
    return [m["params"]["diagnostics"] for m in client.notifications[after:]
            if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri]


def _barrier(client: LspClient, uri: str) -> None:
    client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})


def _completed(client: LspClient, uri: str, text: str, needle: str, offset: int, label: str) -> str:
    """`text` after taking completion `label` at `offset` characters into `needle`."""
    line, character = _at(text, needle, offset)
    result = client.request("textDocument/completion", {"textDocument": {"uri": uri},
                                                        "position": {"line": line, "character": character}})
    item = next(i for i in result["items"] if i["label"] == label)
    return _apply(text, item["textEdit"])


def _apply(text: str, edit: dict) -> str:
    r = edit["range"]
    return apply_change(text, (r["start"]["line"], r["start"]["character"]),
                        (r["end"]["line"], r["end"]["character"]), edit["newText"])


# -- 1. a quick fix replaces the misspelt word, not the diagnostic's whole range -------------------

@pytest.mark.parametrize("typed, fixed", [
    ("produce wood|clya", "produce wood|clay"),
    ("gain 2 coins whoo=opponent", "gain 2 coins who=opponent"),
    ("gain cont(city) coins", "gain count(city) coins"),
    ("gain count(city, colr=brown) coins", "gain count(city, color=brown) coins"),
    ("gain count(city, color=[brown, gery]) coins", "gain count(city, color=[brown, grey]) coins"),
    ("prodce wood", "produce wood"),
    ('move "Lumber Yrd" discard', 'move "Lumber Yard" discard'),
])
def test_a_quick_fix_replaces_only_the_misspelt_word(cards, typed, fixed):
    path = cards / "duel" / "quickfix.rules"
    text = CARD % typed
    project = Project()
    project.update(path, text)
    diags = [d for d in project.diagnostics(path)[str(path)] if d.help and "did you mean" in d.help]
    assert len(diags) == 1, diags
    line, start, end, new = F.replacement_edit(diags[0], text)
    lines = text.split("\n")
    lines[line] = lines[line][:start] + new + lines[line][end:]
    assert lines[3].strip() == fixed
    # (and the fixed text checks clean: nothing else was lost on the way)
    project.update(path, "\n".join(lines))
    assert project.diagnostics(path)[str(path)] == []


def test_a_quick_fix_never_replaces_a_range_that_is_not_the_word():
    d = Diagnostic("error", "E204", "`gain` has no option `whoo`", Span("f", 1, 1, 1, 25), "did you mean `who`?")
    assert F.replacement_edit(d, "gain 2 coins whoo=opponent\n") == (0, 13, 17, "who")
    # The word is not in the range, which is more than one word: no fix rather than a lossy one.
    d = Diagnostic("error", "E204", "`gain` has no option `other`", Span("f", 1, 1, 1, 25), "did you mean `who`?")
    assert F.replacement_edit(d, "gain 2 coins whoo=opponent\n") is None


def test_the_server_s_quick_fix_edits_the_word_alone(client, cards):
    path = cards / "duel" / "quickfix_server.rules"
    text = CARD % "produce wood|clya"
    mark = len(client.notifications)
    uri = client.open(path, text)
    diags = client.diagnostics(uri, after=mark)
    actions = client.request("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": diags[0]["range"], "context": {"diagnostics": diags}})
    (edit,) = actions[0]["edit"]["changes"][uri]
    assert _apply(text, edit) == CARD % "produce wood|clay"
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})


# -- 2. the server's text is the editor's, and positions count lines as the protocol does ----------

def test_lines_map_positions_by_the_protocol_s_line_breaks():
    text = "a\fb\u2028c\x85d\re\r\nf\n\U0001F3B2g"
    lines = Lines(text)
    # The protocol's lines: "a\fb\u2028c\x85d", "e", "f", "🎲g"; the parser's: two lines.
    assert lines.lsp_position(text.index("e")) == (1, 0)
    assert lines.lsp_position(text.index("g")) == (3, 2)            # the die is two UTF-16 units
    assert lines.lsp_offset(0, 6) == text.index("d")                  # \f, U+2028, U+0085 are no breaks
    assert lines.lsp_offset(1, 99) == text.index("e") + 1             # past the end: the line's end
    assert lines.to_lsp(1, 0) == (2, 0)                               # the parser's line 2 is "f"
    assert lines.from_lsp(3, 2) == (2, 1)
    assert apply_change(text, (3, 0), (3, 2), "") == text.replace("\U0001F3B2", "")
    assert apply_change("x\r\ny", (1, 0), (1, 1), "z") == "x\r\nz"


@pytest.mark.parametrize("separator", ["\f", "\u2028", "\x85", "\r"])
def test_edits_after_odd_line_breaks_land_where_the_editor_made_them(cards, separator):
    """pygls applied changes with str.splitlines(): after a form feed, U+2028, U+0085 in a
    comment an edit landed a line early (`color brclay`), and formatting then wrote that text."""
    path = cards / "duel" / "odd_breaks.rules"
    text = f'# section{separator}one\ncard "Fan" {{\n    age 1\n    color brown\n    produce wood\n}}\n'
    c = LspClient()
    try:
        mark = len(c.notifications)
        uri = c.open(path, text)
        assert c.diagnostics(uri, after=mark) == []
        # The editor's line of `wood`: one more after a lone \r (a line break for the protocol).
        line = 5 if separator == "\r" else 4
        assert text.replace("\r", "\n").split("\n")[line] == "    produce wood"
        change = {"range": {"start": {"line": line, "character": 12}, "end": {"line": line, "character": 16}},
                  "text": "clya"}
        mark = len(c.notifications)
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [change]})
        diags = c.diagnostics(uri, after=mark)
        assert [(d["code"], d["range"]["start"]) for d in diags] == [("E301", {"line": line, "character": 12})]
        # Whole texts (what the server asks for) are taken as they are; formatting works on them.
        messy = text.replace("    age 1", "  age   1")
        c.change(uri, messy, 3)
        edits = c.request("textDocument/formatting", {"textDocument": {"uri": uri},
                                                      "options": {"tabSize": 4, "insertSpaces": True}})
        assert [_apply(messy, e) for e in edits] == [format_text(messy)]
    finally:
        assert c.close() == 0


def test_a_lone_carriage_return_in_a_comment_does_not_shift_diagnostics_or_hover(client, cards):
    path = cards / "duel" / "lone_cr.rules"
    text = '# old note\rsecond half\ncard "A" {\n    age 1\n    color brown\n    produce woood\n}\n'
    mark = len(client.notifications)
    uri = client.open(path, text)
    diags = client.diagnostics(uri, after=mark)
    assert [(d["code"], d["range"]["start"]) for d in diags] == [("E301", {"line": 5, "character": 12})]
    hover = client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                  "position": {"line": 5, "character": 6}})
    assert hover is not None and "produce" in hover["contents"]["value"]
    assert hover["range"]["start"] == {"line": 5, "character": 4}
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})


# -- 3. one content set per file, as `rulesdsl check FOLDER` groups them ---------------------------

def test_a_file_in_a_subfolder_is_checked_with_the_folder_rulesdsl_check_takes_it_with(tmp_path):
    folder = tmp_path / "duel"
    shutil.copytree(CARDS_ROOT / "duel", folder, ignore=shutil.ignore_patterns("__pycache__"))
    (folder / "more").mkdir()
    extra = folder / "more" / "extra.rules"
    extra.write_text('card "Extra" {\n    age 1\n    color brwn\n}\n', encoding="utf-8")
    project = Project()
    assert project.layers_for(extra) == project.layers_for(folder / "age1.rules") == (folder,)
    expected = {(d.code, d.span.line) for d in check_paths([folder]).diagnostics}
    assert expected == {("E302", 3)}
    for opened in (folder / "age1.rules", extra):   # whichever file is typed in
        project.update(opened, opened.read_text(encoding="utf-8") + "\n")
        found = project.diagnostics(opened)
        assert {(d.code, d.span.line) for d in found[str(extra)]} == expected
        assert not any(found[f] for f in found if f != str(extra))


def test_the_expansions_setting_applies_to_the_games_the_expansions_are_for():
    duel, classic = CARDS_ROOT / "duel" / "age1.rules", CARDS_ROOT / "classic" / "age1.rules"
    project = Project(["agora"])
    assert [p.name for p in project.layers_for(duel)] == ["duel", "duel-agora"]
    assert [p.name for p in project.layers_for(classic)] == ["classic"]
    # An Agora file is one set with Duel's files, whatever order the setting names them in.
    for names in (["agora", "pantheon"], ["pantheon", "agora"]):
        project.expansions = names
        agora = CARDS_ROOT / "duel-agora" / "decrees.rules"
        assert project.layers_for(agora) == project.layers_for(duel)
        assert [p.name for p in project.layers_for(classic)] == ["classic"]
    found = project.diagnostics(classic)
    assert not any(found.values()) and all("classic" in f for f in found)


def test_diagnostics_a_file_no_longer_has_are_cleared(client, cards):
    folder = cards.parent / "sets" / "duel"
    shutil.copytree(cards / "duel", folder)
    # A card file on disk with an error, published while another file of the folder is open.
    (folder / "broken.rules").write_text(CARD % "produce woood", encoding="utf-8")
    broken = (folder / "broken.rules").as_uri()
    game = folder / "game.rules"
    text = game.read_text(encoding="utf-8")
    mark = len(client.notifications)
    uri = client.open(game, text)
    _barrier(client, uri)
    assert [[d["code"] for d in ds] for ds in _published(client, broken, mark)] == [["E301"]]
    # A new buffer, not saved, with an error: closed, its diagnostics go (it is in no set now).
    new = folder / "unsaved.rules"
    mark = len(client.notifications)
    new_uri = client.open(new, (CARD % "produce glas").replace("Fan Card", "Other Card"))
    _barrier(client, new_uri)
    assert [[d["code"] for d in ds] for ds in _published(client, new_uri, mark)] == [["E301"]]
    mark = len(client.notifications)
    client.notify("textDocument/didClose", {"textDocument": {"uri": new_uri}})
    _barrier(client, uri)
    assert _published(client, new_uri, mark)[-1:] == [[]]
    # The header taken away: the folder is no content folder; the files it marked are cleared.
    mark = len(client.notifications)
    client.change(uri, text.replace("game duel {", "gme duel {"), 2)
    time.sleep(1)
    _barrier(client, uri)
    assert _published(client, broken, mark)[-1:] == [[]]
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})


def test_a_classic_file_with_the_expansions_setting_leaves_agora_s_files_alone():
    c = LspClient(options={"expansions": ["agora"]})
    try:
        classic = CARDS_ROOT / "classic" / "age1.rules"
        mark = len(c.notifications)
        uri = c.open(classic, classic.read_text(encoding="utf-8"))
        _barrier(c, uri)
        marked = {m["params"]["uri"] for m in c.notifications[mark:]
                  if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["diagnostics"]}
        assert marked == set()
    finally:
        assert c.close() == 0


# -- 4. the `game` setting, and the game an expansion folder's changes fit ---------------------------

def test_an_expansion_folder_is_checked_on_the_game_setting_or_the_game_it_changes(tmp_path):
    fan = tmp_path / "cities"
    fan.mkdir()
    (fan / "expansion.rules").write_text('expansion cities {\n    title "Cities"\n}\n', encoding="utf-8")
    cards_file = fan / "cards.rules"
    cards_file.write_text(CARD % "produce ore", encoding="utf-8")   # ore: a classic resource
    codes = lambda project: [d.code for d in project.diagnostics(cards_file)[str(cards_file)]]
    assert [p.name for p in Project().layers_for(cards_file)] == ["duel", "cities"]
    assert codes(Project()) == ["E301"]
    assert [p.name for p in Project(game="classic").layers_for(cards_file)] == ["classic", "cities"]
    assert codes(Project(game="classic")) == []
    # Inferred: what it extends is defined by the classic game only.
    (fan / "more.rules").write_text('extend card "Loom" {\n    cost 1 coins\n}\n', encoding="utf-8")
    assert [p.name for p in Project().layers_for(cards_file)] == ["classic", "cities"]
    assert codes(Project()) == []
    assert Project(game="clasic").unknown_game().startswith("unknown game `clasic`")


def test_an_expansion_folder_naming_its_base_game_is_checked_on_it(tmp_path):
    """An expansion of new cards only changes nothing to infer its game from: it was checked on
    the bundled base game, where a classic resource is unknown. Its `base` says the game."""
    fan = tmp_path / "cities"
    fan.mkdir()
    header_file = fan / "expansion.rules"
    header_file.write_text('expansion cities {\n    base classic\n}\n', encoding="utf-8")
    cards_file = fan / "cards.rules"
    cards_file.write_text(CARD % "produce ore", encoding="utf-8")   # ore: a classic resource
    codes = lambda project: [d.code for d in project.diagnostics(cards_file)[str(cards_file)]]
    assert [p.name for p in Project().layers_for(cards_file)] == ["classic", "cities"]
    assert codes(Project()) == []
    # The `game` setting still wins, as `check --game` does: the mismatch is said at `base`.
    project = Project(game="duel")
    assert [p.name for p in project.layers_for(cards_file)] == ["duel", "cities"]
    assert [d.code for d in project.diagnostics(header_file)[str(header_file)]] == ["E107"]
    # An edit of the `base` line regroups the folder.
    project = Project()
    project.update(header_file, header_file.read_text(encoding="utf-8"))   # (the buffer opened)
    assert [p.name for p in project.layers_for(cards_file)] == ["classic", "cities"]
    project.update(header_file, 'expansion cities {\n    base duel\n}\n')
    assert [p.name for p in project.layers_for(cards_file)] == ["duel", "cities"]


def test_an_expansion_of_the_setting_is_laid_only_on_the_game_its_base_names(tmp_path):
    fan = tmp_path / "harbours"
    fan.mkdir()
    (fan / "expansion.rules").write_text('expansion harbours {\n    base classic\n}\n', encoding="utf-8")
    project = Project([str(fan)])
    assert [p.name for p in project.layers_for(CARDS_ROOT / "classic" / "age1.rules")] == ["classic", "harbours"]
    assert [p.name for p in project.layers_for(CARDS_ROOT / "duel" / "age1.rules")] == ["duel"]


def test_the_game_setting_reaches_the_server(tmp_path):
    fan = tmp_path / "cities"
    fan.mkdir()
    (fan / "expansion.rules").write_text('expansion cities {\n    title "Cities"\n}\n', encoding="utf-8")
    c = LspClient(options={"game": "classic"})
    try:
        mark = len(c.notifications)
        uri = c.open(fan / "cards.rules", CARD % "produce ore")
        assert c.diagnostics(uri, after=mark) == []
        mark = len(c.notifications)
        c.notify("workspace/didChangeConfiguration", {"settings": {"rulesdsl": {"game": None}}})
        assert [d["code"] for d in c.diagnostics(uri, after=mark)] == ["E301"]
        c.notify("workspace/didChangeConfiguration", {"settings": {"rulesdsl": {"game": "clasic"}}})
        _barrier(c, uri)
        shown = [m["params"]["message"] for m in c.notifications if m.get("method") == "window/showMessage"]
        assert any(s.startswith("rulesdsl.game: unknown game `clasic`") for s in shown), shown
    finally:
        assert c.close() == 0


# -- 5, 6. completion inside a quoted name and inside comments ----------------------------------------

def test_completing_inside_an_existing_quoted_name_replaces_the_whole_name(client, cards):
    path = cards / "duel" / "midstring.rules"
    text = CARD % 'move "Lumber Yard" discard'
    uri = client.open(path, text)
    for offset in (1, 7, 12):   # after the opening quote, inside the name, before the closing one
        assert _completed(client, uri, text, '"Lumber Yard"', offset, "Logging Camp") == CARD % 'move "Logging Camp" discard'
    # A name not closed yet: completed up to the cursor, the quote added.
    text = CARD % 'move "Lum'
    client.change(uri, text, 2)
    assert _completed(client, uri, text, '"Lum', 4, "Lumber Yard") == CARD % 'move "Lumber Yard"'
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})


@pytest.mark.parametrize("text, needle, offset", [
    ('card "A" {\n    age 1\n    produce wood  # makes \n}\n', "# makes ", 8),
    ('card "A" {\n    age 1\n    # this card \n}\n', "# this card ", 12),
    ("# Age IV: \n", "# Age IV: ", 10),
    ('card "A" {\n    age 1\n    # say "Lum\n}\n', '"Lum', 4),
])
def test_nothing_is_offered_inside_a_comment(cards, text, needle, offset):
    path = cards / "duel" / "comment.rules"
    project = Project()
    project.update(path, text)
    assert F.complete(project, path, *_at(text, needle, offset)) == []


def test_completion_still_works_after_a_closed_string_and_in_a_string_holding_a_hash(cards):
    path = cards / "duel" / "comment.rules"
    project = Project()
    text = 'card "A" {\n    age 1\n    move "Lumber # Yard\n}\n'
    project.update(path, text)
    assert "Logging Camp" in [c.label for c in F.complete(project, path, *_at(text, "# Yard", 6))]


# -- 7. references ---------------------------------------------------------------------------------

def test_references_include_the_words_of_alternatives(cards):
    game = cards / "duel" / "game.rules"
    text = game.read_text(encoding="utf-8")
    project = Project()
    project.update(game, text)
    spans = F.find_references(project, game, *_at(text, "resources wood", len("resources ")))
    age2 = (cards / "duel" / "age2.rules").read_text(encoding="utf-8").split("\n")
    found = [(s.line, s.column, s.end_column) for s in spans if s.file.endswith("age2.rules")
             and "|" in age2[s.line - 1]]
    assert found, "no reference in `wood|clay|stone`"
    for line, column, end in found:
        assert age2[line - 1][column - 1:end - 1] == "wood"
    # Each of its words, not the whole `wood|clay|stone`.
    clay = F.find_references(project, game, *_at(text, "resources wood clay", len("resources wood ")))
    assert all((s.end_column - s.column) == 4 for s in clay)


def test_a_title_is_no_reference_and_an_action_is_not_its_zone(cards, tmp_path):
    fan = tmp_path / "fan"
    fan.mkdir()
    (fan / "expansion.rules").write_text('expansion fan {\n    title "Odd Mill"\n}\n', encoding="utf-8")
    card = fan / "cards.rules"
    text = 'card "Odd Mill" {\n    age 1\n    color brown\n    produce wood\n}\n'
    card.write_text(text, encoding="utf-8")
    project = Project()
    spans = F.find_references(project, card, *_at(text, "Odd Mill", 1))
    assert [(Path(s.file).name, s.line) for s in spans] == [("cards.rules", 1)]
    game = cards / "duel" / "game.rules"
    text = game.read_text(encoding="utf-8")
    project.update(game, text)
    action = F.find_references(project, game, *_at(text, "action discard {", len("action ")))
    assert [(s.line, s.column) for s in action] == [(_at(text, "action discard {")[0] + 1, len("action ") + 1)]
    zone = F.find_references(project, game, *_at(text, "zone discard", len("zone ")))
    assert len(zone) > 1 and not any(s.line == action[0].line for s in zone)


# -- 8. a byte order mark ----------------------------------------------------------------------------

def test_a_byte_order_mark_does_not_hide_a_game_header(tmp_path):
    folder = tmp_path / "duel"
    shutil.copytree(CARDS_ROOT / "duel", folder, ignore=shutil.ignore_patterns("__pycache__"))
    game = folder / "game.rules"
    text = game.read_text(encoding="utf-8")
    text = text[text.index("game duel"):]     # the header on the first line, after the mark
    game.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    age1 = folder / "age1.rules"
    age1.write_text(age1.read_text(encoding="utf-8").replace("produce wood", "produce woood", 1), encoding="utf-8")
    assert header(folder) == ("game", "duel")
    project = Project()
    assert project.layers_for(age1) == (folder,)
    marked = {Path(f).name: [d.code for d in ds] for f, ds in project.diagnostics(age1).items() if ds}
    assert marked == {"age1.rules": ["E301"]}
    # `rulesdsl check` of the folder reads it as the game it is (before: layered on Duel as an
    # expansion, E206 for each setting declared twice).
    report = check_paths([folder])
    assert [(Path(d.span.file).name, d.code) for d in report.diagnostics] == [("age1.rules", "E301")]
    # A buffer that still holds the mark (as some editors send it) parses as the file does,
    # its positions the editor's.
    project.update(game, "\ufeff" + text)
    found = project.diagnostics(game)
    assert found[str(game)] == []
    broken = "\ufeff" + text.replace("game duel {", "game duel @ {", 1)
    project.update(game, broken)
    (error,) = project.diagnostics(game)[str(game)]   # (what the lost header explains is left out)
    assert (error.code, error.span.line, error.span.column) == ("E002", 1, broken.index("@") + 1)


# -- 9. hover and completion while a check is due -----------------------------------------------------

def test_hover_and_completion_answer_from_the_last_check_while_one_is_due(cards, monkeypatch):
    from rulesdsl.lsp import project as project_module
    path = cards / "duel" / "big.rules"
    text = "".join(f'card "Big {i}" {{\n    age 1\n    color brown\n    produce wood\n}}\n' for i in range(200))
    project = Project()
    project.update(path, text)
    project.diagnostics(path)
    parses = []
    real = project_module._parse
    monkeypatch.setattr(project_module, "_parse", lambda *a: parses.append(a) or real(*a))
    edited = text.replace("    produce wood\n", "    produce wood\n    gain 1 coins\n", 1)
    project.update(path, edited)
    project.stale_ok = True   # (the server's state while the check after typing is due)
    hover = F.hover(project, path, *_at(edited, "gain 1 coins", 1))
    assert hover is not None and hover[0].startswith("```rules\ngain")   # no English from an old parse
    assert "coins" in [c.label for c in F.complete(project, path, *_at(edited, "gain 1 ", 7))]
    assert parses == []
    project.stale_ok = False
    hover = F.hover(project, path, *_at(edited, "gain 1 coins", 1))
    assert len(parses) == 1 and not hover[0].startswith("```")   # checked now: the English first


# -- 10. an edit that cannot regroup the files keeps what the folders gave ---------------------------

def test_an_edit_that_cannot_regroup_the_files_lists_no_folder_again(monkeypatch):
    # Each edit forgot every folder's header, listing, set and game, and listed every folder of
    # the set again (a recursive walk per file, per edit): ~17% of an edit's time.
    from rulesdsl.lsp import project as project_module
    path = CARDS_ROOT / "duel-agora" / "expansion.rules"
    text = path.read_text(encoding="utf-8")
    project = Project(["pantheon"])
    project.update(path, text)
    first = project.diagnostics(path)
    assert not any(first.values())
    layers = project.layers_for(path)
    listed, grouped = [], []
    real_files, real_layers = project_module.folder_files, project._layers
    monkeypatch.setattr(project_module, "folder_files", lambda f: listed.append(f) or real_files(f))
    monkeypatch.setattr(project, "_layers", lambda *a: grouped.append(a) or real_layers(*a))
    broken = text.replace("expansion agora {", "expansion agora { x", 1)   # a typo in the block
    edits = [broken, text.replace("    title ", "    # a comment\n    title ", 1), broken, text]
    for edited in edits:
        project.update(path, edited)
        found = project.diagnostics(path)
        assert set(found) == set(first)
        assert any(found.values()) is (edited is broken)     # (checked again all the same)
    assert listed == [] and grouped == []
    assert project.layers_for(path) == layers


def test_an_edit_of_a_header_order_or_target_still_regroups(tmp_path):
    folder = tmp_path / "fan"
    folder.mkdir()
    path = folder / "fan.rules"
    loose = 'card "Fan Card" {\n    age 1\n    color brown\n}\n'
    path.write_text(loose, encoding="utf-8")
    project = Project()
    assert project.layers_for(path) is None                  # no header: no content set
    header = 'expansion fan {\n    title "Fan"\n}\n'
    project.update(path, header + loose)
    assert project.layers_for(path)[-1] == folder
    # What it changes says which game it is for.
    project.update(path, header + 'replace card "Clay Reserve" {\n    age 3\n    color yellow\n}\n')
    assert [p.name for p in project.layers_for(path)] == ["duel", "fan"]
    project.update(path, header + 'replace card "Castrum" {\n    age 2\n    color red\n}\n')
    assert [p.name for p in project.layers_for(path)] == ["classic", "fan"]
    # A header taken away ungroups it again.
    project.update(path, loose)
    assert project.layers_for(path) is None


def test_a_card_file_made_outside_the_editor_joins_its_set(tmp_path):
    folder = tmp_path / "duel"
    shutil.copytree(CARDS_ROOT / "duel", folder, ignore=shutil.ignore_patterns("__pycache__"))
    path = folder / "age1.rules"
    text = path.read_text(encoding="utf-8")
    project = Project()
    project.update(path, text)
    assert not any(project.diagnostics(path).values())
    time.sleep(0.01)
    (folder / "new.rules").write_text('card "New" {\n    age 1\n    color brwn\n}\n', encoding="utf-8")
    project.update(path, text + "\n")
    found = project.diagnostics(path)
    assert [d.code for d in found[str(folder / "new.rules")]] == ["E302"]


# -- 11. completing in a name not closed keeps the text after it ----------------------------------

@pytest.mark.parametrize("line, character, end", [
    ('move "Lu onto="Bar"', 8, None),             # the next quote opens `"Bar"`
    ('move "Lu onto=x "Bar"', 8, None),
    ('move "Lu "Bar"', 8, None),                  # three quotes: the name is not closed
    ('move "Lu x="Bar', 8, None),                 # an `=` is no part of a name
    ('move "Lumber Yard" discard', 8, 17),        # inside a closed name with a space
    ('move "Lumber Yard" onto="Bar"', 8, 17),
    ('move "Lumber # Yard" x  # say "hi"', 8, 19),   # a `#` in a name; a comment after
    ('move "Lu # a "quoted" word', 8, None),
    ('move "Lumber Yard" discard', 20, None),     # after the name: in no string
    ('# say "Lum" x', 9, None),                   # in a comment
])
def test_the_closing_quote_of_the_name_the_cursor_is_in(line, character, end):
    assert F.closing_quote(line, character) == end


def test_completing_a_name_not_closed_before_another_string_deletes_nothing(client, cards):
    path = cards / "duel" / "unclosed.rules"
    text = CARD % 'move "Lu onto="Glassworks"'
    uri = client.open(path, text)
    assert _completed(client, uri, text, '"Lu', 3, "Lumber Yard") == CARD % 'move "Lumber Yard" onto="Glassworks"'
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})


def test_what_an_expansion_causes_in_the_base_game_s_files_is_shown_in_its_own():
    """An expansion's `remove` that left age I a card short was E401 at the base game's age:
    `rulesdsl check` failed, while the editor showed the expansion clean (the base game's file
    is reported by the base game's set, which has no such error)."""
    folder = CARDS_ROOT.parent / "examples" / "fan_expansion"
    project = Project()
    text = (folder / "expansion.rules").read_text(encoding="utf-8")
    assert 'remove card "Tacticians Guild"' in text
    changed = text.replace('remove card "Tacticians Guild"', 'remove card "Lumber Yard"')
    expansion = folder / "expansion.rules"
    project.update(expansion, changed)
    found = project.diagnostics(expansion)
    shown = [d for ds in found.values() for d in ds]
    (lifted,) = [d for d in shown if d.code == "E401"]
    assert lifted.span.file == str(absolute_of(expansion))
    assert changed.split("\n")[lifted.span.line - 1].lstrip().startswith('remove card "Lumber Yard"')
    assert "(at " in lifted.message and "game.rules:" in lifted.message
    # The base game's own files show nothing: that set is clean.
    assert not any(ds for f, ds in project.diagnostics(CARDS_ROOT / "duel" / "age1.rules").items())
    # Unchanged, nothing is lifted.
    project.update(expansion, text)
    assert not any(d.code == "E401" for ds in project.diagnostics(expansion).values() for d in ds)


def absolute_of(path: Path) -> Path:
    from rulesdsl.lsp.project import absolute
    return absolute(path)


@pytest.mark.parametrize("tail, words", [("color ", {"blue", "brown", "green", "grey", "purple", "red", "yellow"}),
                                         ("chain_gives ", None)])
def test_completion_after_a_word_statement_offers_words_only(tmp_path, tail, words):
    """After `color ` the 7 colours came with `me`, `true`, `count(`, `coins` twice...: 51 items,
    all but seven an error there (a language-server audit)."""
    folder = tmp_path / "duel"
    shutil.copytree(CARDS_ROOT / "duel", folder, ignore=shutil.ignore_patterns("__pycache__"))
    path = folder / "age1.rules"
    text = path.read_text(encoding="utf-8") + f'\ncard "N" {{\n    age 1\n    {tail}'
    project = Project()
    project.update(path, text)
    lines = text.split("\n")
    labels = [c.label for c in F.complete(project, path, len(lines) - 1, len(lines[-1]))]
    assert labels and not {"me", "true", "count", "age"} & set(labels), labels
    if words is not None:
        assert set(labels) == words
    # An expression still gets the names and functions.
    text = path.read_text(encoding="utf-8") + '\ncard "N" {\n    age 1\n    gain '
    project.update(path, text)
    lines = text.split("\n")
    assert {"me", "count"} <= {c.label for c in F.complete(project, path, len(lines) - 1, len(lines[-1]))}


def test_go_to_definition_follows_what_the_word_names_where_it_stands(tmp_path):
    """A word naming two things went to both: `discard` in `discard_pile discard` to the zone and
    to `action discard`, `age1` in `deal_structure age1 layout=age1` to the zone and the layout,
    the verb `build` inside `action build` to the action, and an action's `card` (its `param
    card`) to the item kind `card` (a language-server audit)."""
    folder = tmp_path / "duel"
    shutil.copytree(CARDS_ROOT / "duel", folder, ignore=shutil.ignore_patterns("__pycache__"))
    game = folder / "game.rules"
    text = game.read_text(encoding="utf-8")
    lines = text.split("\n")
    project = Project()
    project.update(game, text)

    def targets(line_text: str, word: str, nth: int = 0) -> list[tuple[str, str]]:
        number = next(i for i, line in enumerate(lines) if line.strip().startswith(line_text))
        column = -1
        for _ in range(nth + 1):
            column = lines[number].index(word, column + 1)
        spans = F.definition(project, game, number, column + 1)
        return [(Path(s.file).name, lines_of(s)[s.line - 1].strip()) for s in spans]

    def lines_of(span) -> list[str]:
        return Path(span.file).read_text(encoding="utf-8").split("\n") if span.file != str(game) else lines

    assert targets("discard_pile discard", "discard", 1) == [("game.rules", next(
        line.strip() for line in lines if line.strip().startswith("zone discard")))]
    (zone,) = targets("deal_structure age1 layout=age1", "age1", 0)
    (layout,) = targets("deal_structure age1 layout=age1", "age1", 1)
    assert zone[1].startswith("zone age1") and layout[1].startswith("layout age1")
    assert targets("build card", "build") == []
    assert targets("build card", "card") == [("game.rules", "param card from structure")]


def test_find_references_tells_apart_what_a_word_names_where_it_stands(tmp_path):
    """Find references merged same-named things that go-to-definition tells apart: `age1` the
    zone and `age1` the layout, `discard` the zone and the verb `discard`."""
    folder = tmp_path / "duel"
    shutil.copytree(CARDS_ROOT / "duel", folder, ignore=shutil.ignore_patterns("__pycache__"))
    game, board = folder / "game.rules", folder / "board.rules"
    project = Project()
    project.update(game, game.read_text(encoding="utf-8"))

    def found(path: Path, line_start: str, word: str, nth: int = 0) -> set[tuple[str, str]]:
        lines = path.read_text(encoding="utf-8").split("\n")
        number = next(i for i, line in enumerate(lines) if line.strip().startswith(line_start))
        column = -1
        for _ in range(nth + 1):
            column = lines[number].index(word, column + 1)
        return {(Path(s.file).name, Path(s.file).read_text(encoding="utf-8").split("\n")[s.line - 1].strip())
                for s in F.find_references(project, path, number, column + 1)}

    zone = found(game, "deal_structure age1 layout=age1", "age1", 0)
    layout = found(game, "deal_structure age1 layout=age1", "age1", 1)
    assert ("game.rules", "zone age1") in zone and ("board.rules", "layout age1 {") not in zone
    assert layout == {("board.rules", "layout age1 {"), ("game.rules", "deal_structure age1 layout=age1")}
    assert found(board, "layout age1", "age1") == layout
    assert found(game, "zone age1", "age1") == zone
    discard = found(game, "discard_pile discard", "discard", 1)
    assert ("game.rules", "zone discard public") in discard
    assert not any(line.startswith(("discard card", "action discard")) for _, line in discard)


def test_exit_without_shutdown_is_status_1():
    """The protocol: `exit` after `shutdown` ends the server with status 0, without it with 1
    (it was 0: pygls's `sys.exit(1)` was lost in its event loop); the end of input without a
    `shutdown` (the editor gone) is 1 too."""
    c = LspClient()
    try:
        c.notify("exit", None)
        assert c.proc.wait(timeout=30) == 1
    finally:
        if c.proc.poll() is None:
            c.proc.kill()
            c.proc.wait()
    gone = LspClient()
    try:
        gone.proc.stdin.close()
        assert gone.proc.wait(timeout=30) == 1
    finally:
        if gone.proc.poll() is None:
            gone.proc.kill()
            gone.proc.wait()


def test_formatting_keeps_the_editors_crlf_line_ends(cards):
    """The server's formatting returned LF text for a CRLF buffer (every line changed), where
    `rulesdsl fmt` keeps CRLF; a formatted CRLF buffer is left as it is."""
    path = cards / "duel" / "crlf_format.rules"
    messy = 'card "Fan" {\r\n  age   1\r\n    color brown\r\n    produce wood\r\n}\r\n'
    c = LspClient()
    try:
        uri = c.open(path, messy)
        options = {"tabSize": 4, "insertSpaces": True}
        edits = c.request("textDocument/formatting", {"textDocument": {"uri": uri}, "options": options})
        assert [_apply(messy, e) for e in edits] == [format_text(messy).replace("\n", "\r\n")]
        c.change(uri, format_text(messy).replace("\n", "\r\n"), 2)
        assert c.request("textDocument/formatting", {"textDocument": {"uri": uri}, "options": options}) == []
    finally:
        assert c.close() == 0
