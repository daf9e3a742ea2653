"""`rulesdsl check --format github|sarif`: diagnostics as GitHub workflow commands and as a
SARIF 2.1.0 log, for CI."""

from __future__ import annotations

from pathlib import Path

from .codes import CODES, EXPLANATIONS, severity
from .diagnostics import Diagnostic
from .safe_text import printable


def _github_escape(text: str, property: bool = False) -> str:
    # The escapes GitHub's workflow-command parser undoes (actions/toolkit, command.ts).
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if property else text


def github_command(d: Diagnostic) -> str:
    """`::error file=F,line=L,col=C,...::[CODE] message` (`::warning` for a warning)."""
    s = d.span
    props = {"file": s.file, "line": s.line, "col": s.column, "endLine": s.end_line, "endColumn": s.end_column,
             "title": f"{d.code}: {CODES.get(d.code, d.code)}"}
    if s.end_line != s.line:  # GitHub takes endColumn only on a one-line annotation
        del props["endColumn"]
    message = f"[{d.code}] {d.message}" + (f"\nhelp: {d.help}" if d.help else "")
    level = "error" if d.severity == "error" else "warning"
    line = (f"::{level} " + ",".join(f"{k}={_github_escape(str(v), True)}" for k, v in props.items())
            + "::" + _github_escape(message))
    return printable(line)  # file names and messages reach the workflow's log


SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def sarif_log(diagnostics: list[Diagnostic]) -> dict:
    """A SARIF 2.1.0 log of `diagnostics` (the OASIS standard code-scanning tools read)."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        tool_version = version("rulesdsl")
    except PackageNotFoundError:  # running from a source tree that is not installed
        tool_version = "0"
    index = {code: i for i, code in enumerate(CODES)}
    rules = []
    for code, title in CODES.items():
        rule: dict = {"id": code, "shortDescription": {"text": title},
                      "defaultConfiguration": {"level": "warning" if severity(code) == "warning" else "error"}}
        if code in EXPLANATIONS:
            rule["fullDescription"] = {"text": EXPLANATIONS[code].meaning}
            rule["help"] = {"text": EXPLANATIONS[code].fix}
        rules.append(rule)
    results = []
    for d in diagnostics:
        s = d.span
        region = {"startLine": s.line, "startColumn": s.column, "endLine": s.end_line, "endColumn": s.end_column}
        result: dict = {"ruleId": d.code, "level": "warning" if d.severity == "warning" else "error",
                        "message": {"text": d.message + (f"\nhelp: {d.help}" if d.help else "")},
                        "locations": [{"physicalLocation": {"artifactLocation": {"uri": _uri(s.file)},
                                                            "region": region}}]}
        if d.code in index:
            result["ruleIndex"] = index[d.code]
        results.append(result)
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0",
            "runs": [{"tool": {"driver": {"name": "rulesdsl", "version": tool_version, "rules": rules}},
                      "columnKind": "unicodeCodePoints", "results": results}]}


def _uri(file: str) -> str:
    """A file as a URI reference: relative paths stay relative (to the folder check ran in)."""
    import os
    from urllib.parse import quote
    path = Path(file)
    if path.is_absolute():
        return path.as_uri()
    # (the name's bytes, percent-encoded: a name that is not UTF-8 holds surrogates no text
    # encoding takes; `as_uri` does the same)
    return quote(os.fsencode(file.replace("\\", "/")))
