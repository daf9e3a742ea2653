"""The editor files: TextMate grammars generated from the registry stay in step with it, and the
VS Code extension folder refers to files that exist."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from rulesdsl import registry as R
from rulesdsl.cli import cli
from rulesdsl.editor_grammar import generate

VSCODE = Path(__file__).resolve().parent.parent / "editors" / "vscode"


def test_committed_grammars_are_what_the_generator_makes():
    for name, text in generate().items():
        assert (VSCODE / "syntaxes" / name).read_text(encoding="utf-8") == text, \
            f"run `rulesdsl editor-grammar` (editors/vscode/syntaxes/{name} is out of date)"


def test_editor_grammar_check_and_write(tmp_path: Path):
    runner = CliRunner()
    assert runner.invoke(cli, ["editor-grammar", "--check", "-o", str(VSCODE / "syntaxes")]).exit_code == 0
    assert runner.invoke(cli, ["editor-grammar", "--check", "-o", str(tmp_path)]).exit_code == 1
    assert runner.invoke(cli, ["editor-grammar", "-o", str(tmp_path)]).exit_code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rules.tmLanguage.json", "scenario.tmLanguage.json"]
    assert runner.invoke(cli, ["editor-grammar", "-o", str(tmp_path / "missing")]).exit_code == 2


def _patterns(node):
    if isinstance(node, dict):
        if "match" in node:
            yield node
        for value in node.values():
            yield from _patterns(value)
    elif isinstance(node, list):
        for value in node:
            yield from _patterns(value)


def _scopes(grammar: dict, line: str) -> dict[str, str]:
    """word -> scope, by the first pattern (in order) matching it: enough to check the choices."""
    found: dict[str, str] = {}
    for p in _patterns(grammar):
        for m in re.finditer(p["match"], line, re.M):
            groups = [(i, m.group(i)) for i in range(1, (m.lastindex or 0) + 1) if m.group(i)] or [(0, m.group())]
            for i, text in groups:
                scope = p.get("captures", {}).get(str(i), {}).get("name") or p.get("name")
                if scope:
                    found.setdefault(text.strip(), scope)
    return found


def test_the_grammar_knows_every_verb_function_and_event():
    grammar = json.loads(generate()["rules.tmLanguage.json"])
    for p in _patterns(grammar):
        re.compile(p["match"])  # Oniguruma reads these too; Python's re is the stricter check
    text = json.dumps(grammar)
    for word in [*R.VERBS, *R.FUNCTIONS, *R.EVENTS]:
        assert re.search(rf"\b{word}\b", text), word


def test_highlighting_of_a_card_line_by_line():
    grammar = json.loads(generate()["rules.tmLanguage.json"])
    assert _scopes(grammar, 'card "Lumber Yard" {')["card"] == "storage.type.rules"
    assert _scopes(grammar, 'card "Lumber Yard" {')['"Lumber Yard"'] == "entity.name.type.rules"
    assert _scopes(grammar, "    produce wood")["produce"] == "keyword.other.verb.rules"
    when = _scopes(grammar, "    when built color=blue { gain 2 coins }  # note")
    assert when["when"] == "keyword.control.rules" and when["built"] == "constant.other.event.rules"
    assert when["color"] == "variable.parameter.option.rules"
    assert when["# note"] == "comment.line.number-sign.rules"
    expr = _scopes(grammar, "    gain count(city, owner=opponent) // 2 coins")
    assert expr["count"] == "support.function.rules" and expr["//"] == "keyword.operator.arithmetic.rules"
    assert expr["opponent"] == "constant.language.rules"


def test_vscode_extension_files_refer_to_what_exists():
    package = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    for grammar in package["contributes"]["grammars"]:
        assert (VSCODE / grammar["path"]).is_file()
        scope = json.loads((VSCODE / grammar["path"]).read_text(encoding="utf-8"))["scopeName"]
        assert scope == grammar["scopeName"]
    for language in package["contributes"]["languages"]:
        config = json.loads((VSCODE / language["configuration"]).read_text(encoding="utf-8"))
        assert config["comments"]["lineComment"] == "#"
    assert (VSCODE / package["main"]).is_file()
    assert "rulesdsl.expansions" in package["contributes"]["configuration"]["properties"]
