"""Every diagnostic code `rulesdsl check` can report, with a one-line title.

This is the single list of codes: the documentation is generated from it, and a test checks
that every code the parser, loader and checker emit is here (and has a broken example file in
tests/broken/).  E0xx: reading and syntax; E1xx: definitions; E2xx: statements; E3xx: names
and types; E4xx: whole-game consistency; W5xx: warnings.
"""

from __future__ import annotations

CODES: dict[str, str] = {
    # -- reading and syntax (rulesdsl/parser.py, rulesdsl/loader.py) ----------------------------
    "E001": "syntax error: unexpected token",
    "E002": "unexpected character",
    "E003": "unexpected end of file or unclosed `{`",
    "E004": "unterminated string",
    "E005": "file is not valid UTF-8",
    "E006": "number too large",
    "E007": "nested too deeply",
    "E008": "unexpected word in a definition header",
    "E009": "cannot read file",
    # -- definitions (rulesdsl/loader.py, rulesdsl/checker.py) ----------------------------------
    "E101": "unknown kind of definition",
    "E102": "duplicate definition",
    "E103": "definition has no name",
    "E104": "required statement missing",
    "E105": "replace/extend/remove of an undefined definition",
    "E106": "definition has no body",
    # -- statements ------------------------------------------------------------------------------
    "E201": "unknown statement",
    "E202": "statement not allowed here",
    "E203": "wrong number of arguments",
    "E204": "unknown or invalid option",
    "E205": "block missing or not allowed",
    "E206": "statement given twice",
    # -- names and types -------------------------------------------------------------------------
    "E301": "unknown resource",
    "E302": "unknown colour",
    "E303": "unknown scientific symbol",
    "E304": "unknown chain symbol",
    "E305": "unknown zone",
    "E306": "unknown item name",
    "E307": "unknown name",
    "E308": "unknown function",
    "E309": "wrong type",
    "E310": "unknown event",
    "E311": "unknown layout",
    "E312": "`else` without `if`",
    "E313": "unknown kind",
    "E314": "unknown table",
    "E315": "unknown procedure",
    # -- whole-game consistency ------------------------------------------------------------------
    "E401": "not enough cards for a structure or deal",
    "E402": "overlapping cards in a layout row",
    "E403": "missing or second `game` definition",
    "E410": "an effect that certainly never ends (a cycle of runs or triggers)",
    "E411": "`repeat` count above the limit",
    # -- warnings --------------------------------------------------------------------------------
    "W501": "chain symbol given but never used",
    "W502": "chain symbol used but never given",
}


def severity(code: str) -> str:
    """"error" for E codes, "warning" for W codes."""
    return "warning" if code.startswith("W") else "error"
