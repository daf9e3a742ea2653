"""`rulesdsl lsp`, driven as an editor drives it: a real client over stdio (tests/lsp_client.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from rulesdsl.formatter import format_text
from rulesdsl.loader import CARDS_ROOT
from rulesdsl.lsp import features as F
from rulesdsl.lsp.project import Project

from lsp_client import LspClient

AGE1 = CARDS_ROOT / "duel" / "age1.rules"
AGORA = CARDS_ROOT / "duel-agora" / "expansion.rules"


@pytest.fixture(scope="module")
def client():
    c = LspClient()
    yield c
    assert c.close() == 0


def _at(text: str, needle: str, offset: int = 0) -> dict:
    for number, line in enumerate(text.split("\n")):
        if needle in line:
            return {"line": number, "character": line.index(needle) + offset}
    raise KeyError(needle)


def test_an_error_is_published_with_its_range_code_and_help_and_a_quick_fix(client):
    text = AGE1.read_text(encoding="utf-8").replace("    produce wood\n", "    produce woood\n", 1)
    mark = len(client.notifications)
    uri = client.open(AGE1, text)
    diags = client.diagnostics(uri, after=mark)
    assert [d["code"] for d in diags] == ["E301"]
    start = _at(text, "woood")
    assert diags[0]["range"] == {"start": start, "end": {"line": start["line"], "character": start["character"] + 5}}
    assert "unknown resource `woood`" in diags[0]["message"] and "did you mean `wood`?" in diags[0]["message"]
    actions = client.request("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": diags[0]["range"], "context": {"diagnostics": diags}})
    assert actions[0]["edit"]["changes"][uri] == [{"range": diags[0]["range"], "newText": "wood"}]
    # Fixed by typing: the diagnostics go away after the pause.
    mark = len(client.notifications)
    client.change(uri, AGE1.read_text(encoding="utf-8"), 2)
    assert client.diagnostics(uri, after=mark) == []
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})


def test_hover_over_a_verb_gives_its_english_signature_and_doc(client):
    text = AGE1.read_text(encoding="utf-8")
    uri = client.open(AGE1, text)
    result = client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": _at(text, "produce wood", 2)})
    value = result["contents"]["value"]
    assert value.startswith("Produces 1 wood")
    assert "produce PRODUCTS" in value and "Example:" in value
    card = client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": _at(text, '"Lumber Yard"', 3)})
    assert "Lumber Yard (card" in card["contents"]["value"] and "Produces 1 wood" in card["contents"]["value"]
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})


def test_completion_after_gain_offers_its_unit_and_options(client):
    text = AGE1.read_text(encoding="utf-8").replace("    produce wood\n}", "    produce wood\n    gain \n}", 1)
    uri = client.open(AGE1, text)
    position = _at(text, "    gain ", 9)
    result = client.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": position})
    labels = [item["label"] for item in result["items"]]
    assert "coins" in labels and "who=" in labels and "count" in labels
    assert "produce" not in labels  # verbs only where a statement starts
    # At the start of a statement in a card: the verbs a card may use, not the game's.
    start = client.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": _at(text, "    gain ", 4)})
    verbs = [item["label"] for item in start["items"]]
    assert "produce" in verbs and "gain" in verbs and "zone" not in verbs and "param" not in verbs
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})


def test_go_to_definition_of_a_procedure_and_its_references(client):
    text = AGORA.read_text(encoding="utf-8")
    uri = client.open(AGORA, text)
    position = _at(text, "run move_one_cube", 5)
    locations = client.request("textDocument/definition", {"textDocument": {"uri": uri}, "position": position})
    assert locations == [{"uri": uri, "range": {"start": _at(text, "procedure move_one_cube", 10),
                                                "end": _at(text, "procedure move_one_cube", 23)}}]
    refs = client.request("textDocument/references", {"textDocument": {"uri": uri}, "position": position,
                                                      "context": {"includeDeclaration": True}})
    # Across the folder: the procedure is run from the senators' file too.
    assert len(refs) == sum(f.read_text(encoding="utf-8").count("move_one_cube") for f in AGORA.parent.glob("*.rules"))
    assert any(r["uri"].endswith("senators.rules") for r in refs)
    symbols = client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    assert {"agora", "move_one_cube"} <= {s["name"] for s in symbols}
    found = client.request("workspace/symbol", {"query": "lumber"})
    assert any(s["name"] == "Lumber Yard" and s["location"]["uri"].endswith("duel/age1.rules") for s in found)
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})


def test_format_request_returns_the_formatted_text(client, tmp_path):
    messy = 'card "A" {age 1;color   brown\n  produce wood\n}\n'
    uri = client.open(tmp_path / "loose.rules", messy)
    edits = client.request("textDocument/formatting", {"textDocument": {"uri": uri},
                                                       "options": {"tabSize": 4, "insertSpaces": True}})
    assert [e["newText"] for e in edits] == [format_text(messy)]
    assert edits[0]["range"]["start"] == {"line": 0, "character": 0}
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})


def test_a_broken_file_mid_typing_gets_a_diagnostic_and_the_server_keeps_answering(client):
    text = AGE1.read_text(encoding="utf-8")
    mark = len(client.notifications)
    uri = client.open(AGE1, text)
    assert client.diagnostics(uri, after=mark) == []
    broken = text.replace('card "Logging Camp" {\n    age 1\n', 'card "Logging Camp" {\n    age 1\n    when built {\n', 1)
    for version, cut in enumerate((len(broken) // 2, len(broken) - 3, len(broken)), 2):
        mark = len(client.notifications)
        client.change(uri, broken[:cut], version)
        diags = client.diagnostics(uri, after=mark)
        assert diags and diags[0]["code"] in ("E001", "E003"), diags
        client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 3, "character": 2}})
        client.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": {"line": 10, "character": 4}})
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})


def test_a_file_outside_any_content_folder_gets_syntax_diagnostics_only(client, tmp_path):
    # Unknown verbs and names: no check runs (no game to check against), so nothing is reported.
    mark = len(client.notifications)
    uri = client.open(tmp_path / "loose.rules", 'card "X" {\n    frobnicate 3 zorks\n}\n')
    assert client.diagnostics(uri, after=mark) == []
    mark = len(client.notifications)
    client.change(uri, 'card "X" {\n    frobnicate 3 zorks\n', 2)
    assert [d["code"] for d in client.diagnostics(uri, after=mark)] == ["E003"]
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})


def test_lsp_without_pygls_says_what_to_install():
    code = ("import sys; sys.modules['pygls'] = None; sys.modules['lsprotocol'] = None; "
            "sys.argv = ['rulesdsl', 'lsp']; from rulesdsl.cli import main; main()")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert result.stderr.strip() == "error: rulesdsl lsp needs pygls and lsprotocol: pip install 'rulesdsl[lsp]'"


# -- any text at all: answers or nothing, never a crash --------------------------------------------

FRAGMENTS = st.sampled_from(['"', "{", "}", "(", ")", "[", "]", "=", "==", "#", "\n", ";", " ", "\\\n", "gain ",
                             "when built ", "card \"Q\" {", "choose 1 from ", "é", "\t", "9999999999", "owner=",
                             ".", "|", "\x00", "run ", "zone "])


@st.composite
def _edits(draw):
    text = AGE1.read_text(encoding="utf-8")[:600]
    out = []
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(text)))
        if draw(st.booleans()):
            text = text[:at] + draw(FRAGMENTS) + text[at:]
        else:
            text = text[:at] + text[at + draw(st.integers(0, 30)):]
        out.append(text)
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_edits(), st.integers(0, 40), st.integers(0, 60))
def test_features_answer_any_text(texts, line, character):
    project = _PROJECT
    for text in texts:
        project.update(AGE1, text)
        project.diagnostics(AGE1)
        F.hover(project, AGE1, line, character)
        F.complete(project, AGE1, line, character)
        F.definition(project, AGE1, line, character)
        F.find_references(project, AGE1, line, character)
        F.document_symbols(project, AGE1)
    project.close(AGE1)


_PROJECT = Project()


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(_edits())
def test_the_server_survives_edits_made_by_hypothesis(client, texts):
    mark = len(client.notifications)
    uri = client.open(AGE1, AGE1.read_text(encoding="utf-8"))
    client.diagnostics(uri, after=mark)
    for version, text in enumerate(texts, 2):
        client.change(uri, text, version)
        lines = text.split("\n")
        position = {"line": len(lines) // 2, "character": 3}
        client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": position})
        client.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": position})
        client.request("textDocument/formatting", {"textDocument": {"uri": uri},
                                                   "options": {"tabSize": 4, "insertSpaces": True}})
    mark = len(client.notifications)
    client.change(uri, texts[-1] + "\n", len(texts) + 2)
    assert isinstance(client.diagnostics(uri, after=mark), list)
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    assert client.proc.poll() is None
    assert b" failed" not in b"".join(client.stderr)  # no handler fell back on its guard


# -- the features one by one, without the protocol ------------------------------------------------

def _project_with(path: Path, text: str) -> Project:
    project = Project()
    project.update(path, text)
    return project


def _labels(project: Project, path: Path, text: str, needle: str, offset: int) -> list[str]:
    at = _at(text, needle, offset)
    return [c.label for c in F.complete(project, path, at["line"], at["character"])]


def test_completion_of_option_values_events_procedures_and_quoted_names():
    text = AGE1.read_text(encoding="utf-8").replace(
        "    produce wood\n}",
        '    produce wood\n    choose 1 from city owner=\n    when \n    run \n    move "Lum\n}', 1)
    project = _project_with(AGE1, text)
    owners = _labels(project, AGE1, text, "owner=", 6)
    assert owners == list(__import__("rulesdsl.registry", fromlist=["OWNER_WORDS"]).OWNER_WORDS)
    zones = _labels(project, AGE1, text, "choose 1 from ", 14)
    assert "city" in zones and "discard" in zones and "owner=" in zones and "structure" in zones
    assert "built" in _labels(project, AGE1, text, "    when ", 9)
    assert "game_end" not in _labels(project, AGE1, text, "    when ", 9)
    assert _labels(project, AGE1, text, "    run ", 8) == sorted(_labels(project, AGE1, text, "    run ", 8))
    quoted = _labels(project, AGE1, text, 'move "Lum', 9)
    assert "Lumber Yard" in quoted and "Pyramids" in quoted and "wood" not in quoted
    # `a == ` is a comparison, not an option: the names and functions are offered.
    compare = text.replace("    when \n", "    if coins == \n")
    assert "count" in _labels(_project_with(AGE1, compare), AGE1, compare, "coins == ", 9)


def test_hover_over_declared_words_functions_events_and_options():
    text = AGORA.read_text(encoding="utf-8")
    project = _project_with(AGORA, text)

    def hover(needle: str, offset: int) -> str:
        at = _at(text, needle, offset)
        found = F.hover(project, AGORA, at["line"], at["character"])
        assert found is not None, needle
        return found[0]

    assert "**senate** (zone, declared at expansion.rules" in hover("score senate controlled_sum(senate", 30)
    assert "controlled_sum(zone, table)" in hover("controlled_sum(senate", 3)
    assert "**cube_added** (event)" in hover("when cube_added", 7) and "`space`" in hover("when cube_added", 7)
    assert "an option of `deal`" in hover("space=1 face_down", 1)
    assert "**control_gained** (event)" in hover("when control_gained by=me", 6)
    kinds = {s.kind for s in F.document_symbols(project, AGORA)}
    assert {"expansion", "extend age", "rule", "procedure"} <= kinds


def test_a_quoted_name_nothing_explains_has_no_hover(client):
    # A definition left unclosed declares nothing: hovering its name gives no hover, not an
    # empty one (the server's handler used to fail making one; hypothesis found it).
    project = _project_with(AGE1, 'card "Nowhere Card" {\n    age 1\n')
    assert F.hover(project, AGE1, 0, 7) is None
    uri = client.open(AGE1, 'card "Nowhere Card" {\n    age 1\n')
    assert client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                 "position": {"line": 0, "character": 7}}) is None
    assert b" failed" not in b"".join(client.stderr)


def test_a_quick_fix_keeps_the_quotes_of_a_quoted_name():
    from rulesdsl.diagnostics import Diagnostic, Span
    source = 'replace card "Lumber Yrd" {\n}\n'
    d = Diagnostic("error", "E105", "not defined", Span("f", 1, 14, 1, 26), "did you mean `Lumber Yard`?")
    assert F.replacement(d, source) == '"Lumber Yard"'
    assert F.replacement(Diagnostic("error", "E301", "x", Span("f", 1, 1, 1, 8), "add it"), source) is None


def test_diagnostics_are_those_of_rulesdsl_check(tmp_path: Path):
    """Same codes, messages, spans and help as `rulesdsl check` for a folder with several errors."""
    from rulesdsl.report import check_paths
    folder = tmp_path / "fan"
    folder.mkdir()
    (folder / "expansion.rules").write_text('expansion fan {\n    title "Fan"\n}\n', encoding="utf-8")
    (folder / "cards.rules").write_text(
        'card "Odd Mill" {\n    age 1\n    color brwn\n    produce woood\n    run missing_one\n}\n', encoding="utf-8")
    expected = {(d.code, d.message, d.help, d.span.line, d.span.column, d.span.end_column)
                for d in check_paths([folder]).diagnostics if Path(d.span.file).name == "cards.rules"}
    project = Project()
    got = project.diagnostics(folder / "cards.rules")[str((folder / "cards.rules").absolute())]
    assert {(d.code, d.message, d.help, d.span.line, d.span.column, d.span.end_column) for d in got} == expected
    assert {d.code for d in got} >= {"E301", "E302", "E315"}


def test_the_expansions_setting_adds_them_to_the_content_set():
    text = AGE1.read_text(encoding="utf-8").replace("    color brown\n", "    color black\n", 1)
    alone, with_agora = Project(), Project(["agora"])
    for project in (alone, with_agora):
        project.update(AGE1, text)
    codes = lambda project: [d.code for d in project.diagnostics(AGE1)[str(AGE1)]]
    assert codes(alone) == ["E302"]      # black is a colour only Agora declares
    assert codes(with_agora) == []
    assert [p.name for p in with_agora.layers_for(AGE1)] == ["duel", "duel-agora"]


def test_an_unknown_expansion_in_the_setting_is_shown_to_the_user_and_on_the_command_line_refused(tmp_path):
    c = LspClient(options={"expansions": ["agoraa"]})
    try:
        c.open(tmp_path / "x.rules", "")
        c.request("textDocument/documentSymbol", {"textDocument": {"uri": (tmp_path / "x.rules").as_uri()}})
        shown = [m["params"]["message"] for m in c.notifications if m.get("method") == "window/showMessage"]
        assert shown and "unknown expansion `agoraa`; did you mean `agora`?" in shown[0]
    finally:
        assert c.close() == 0
    result = subprocess.run([sys.executable, "-m", "rulesdsl", "lsp", "-e", "agoraa"], capture_output=True,
                            text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert result.returncode == 2 and "did you mean `agora`?" in result.stderr
    # A folder that does not exist, as the setting's warning says of it (it was taken silently).
    result = subprocess.run([sys.executable, "-m", "rulesdsl", "lsp", "-e", str(tmp_path / "nosuch")],
                            capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert result.returncode == 2 and "no such folder" in result.stderr


def test_workspace_symbols_before_any_file_is_opened():
    c = LspClient(root=CARDS_ROOT)
    try:
        found = c.request("workspace/symbol", {"query": "Lumber"})
        # Duel's and the classic game's Lumber Yard, each in its own game's Age I file.
        assert [s["name"] for s in found] == ["Lumber Yard", "Lumber Yard"]
        assert sorted(s["location"]["uri"] for s in found) == sorted(
            [AGE1.as_uri(), (CARDS_ROOT / "classic" / "age1.rules").as_uri()])
    finally:
        assert c.close() == 0


def test_ranges_count_utf16_units_as_the_protocol_does(client, tmp_path):
    folder = tmp_path / "fan"
    folder.mkdir()
    (folder / "expansion.rules").write_text('expansion fan {\n    title "Fan"\n}\n', encoding="utf-8")
    text = 'card "\U0001F3DB Hall" { age 1; color brown; produce woood }\n'
    mark = len(client.notifications)
    uri = client.open(folder / "cards.rules", text)
    diags = client.diagnostics(uri, after=mark)
    start = text.index("woood") + 1  # the temple is two UTF-16 units
    assert [(d["code"], d["range"]["start"]["character"], d["range"]["end"]["character"]) for d in diags] == \
        [("E301", start, start + 5)]
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})


def test_a_syntax_error_in_the_game_header_marks_its_own_file_only():
    # As `rulesdsl check` leaves them out: the card files' unknown colours and resources follow
    # from the game's header lost to a stray character.
    game = CARDS_ROOT / "duel" / "game.rules"
    text = game.read_text(encoding="utf-8").replace("    resources ", "    resources @ ", 1)
    found = _project_with(game, text).diagnostics(game)
    marked = {Path(f).name: [d.code for d in ds] for f, ds in found.items() if ds}
    assert marked == {"game.rules": ["E002"]}


def test_an_unsaved_buffer_gets_its_syntax_checked_hover_and_completion(client):
    # (an editor's new, unsaved buffer is no file: VS Code sends `untitled:` URIs)
    uri = "untitled:Untitled-1"
    text = 'card "X" {\n    age 1\n    gain 2 coins @\n}\n'
    mark = len(client.notifications)
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "rules", "version": 1,
                                                          "text": text}})
    diags = client.diagnostics(uri, after=mark)
    assert [d["code"] for d in diags] == ["E002"] and diags[0]["range"]["start"]["line"] == 2
    hover = client.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": _at(text, "gain", 1)})
    assert hover is not None and "gain" in hover["contents"]["value"]
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})


def test_a_file_that_is_not_utf8_is_marked_at_its_bad_byte(client, tmp_path):
    folder = tmp_path / "latin"
    folder.mkdir()
    (folder / "header.rules").write_text("expansion latin\n", encoding="utf-8")
    (folder / "latin1.rules").write_bytes('# ok\n# ok\ncard "Latin1 été" {\n    age 1\n}\n'.encode("latin-1"))
    mark = len(client.notifications)
    client.open(folder / "header.rules", "expansion latin\n")
    bad = (folder / "latin1.rules").absolute().as_uri()
    diags = client.diagnostics(bad, after=mark)
    assert [d["code"] for d in diags] == ["E005"]
    assert diags[0]["range"]["start"]["line"] == 2   # (0-based: the third line, where the byte is)


def test_hover_over_an_action_named_like_a_zone_or_a_kind_explains_the_action():
    # Duel's `action discard` shares its name with `zone discard`, `action wonder` with the
    # item kind: hovering the action's own name gave the zone's or the kind's declaration.
    game = CARDS_ROOT / "duel" / "game.rules"
    text = game.read_text(encoding="utf-8")
    project = _project_with(game, text)
    for name in ("discard", "wonder"):
        at = _at(text, f"action {name} {{", len("action "))
        found = F.hover(project, game, at["line"], at["character"])
        assert found is not None and found[0].startswith(f"```\n{name} (action, "), found
    at = _at(text, "zone discard public", len("zone "))
    assert "(zone, declared at game.rules" in F.hover(project, game, at["line"], at["character"])[0]


def test_a_continued_line_is_the_same_statement_in_a_crlf_file_too():
    """Completion after `gain 2 \\` on the next line offered the statement verbs in a CRLF file
    (the `\\r` stood between the `\\` and the line end)."""
    for end in ("\n", "\r\n"):
        text = end.join(['card "A" {', "    gain 2 \\", "    ", "}"]) + end
        ctx = F.context_at(text, 2, 4)
        assert ctx.before[:2] == ("gain", "2"), (end, ctx)
