"""The editor commands: `rulesdsl fmt`, `rulesdsl lsp` and `rulesdsl editor-grammar`."""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

import click


def _diff(name: str, before: str, after: str) -> str:
    return "".join(difflib.unified_diff(before.splitlines(True), after.splitlines(True),
                                        f"{name} (now)", f"{name} (formatted)"))


def _card_files(paths) -> list[Path]:
    """The card files named, or found (recursively, sorted) in the folders named.  A file that
    cannot be looked at (a link into a folder the user may not enter) is kept,
    and reading it reports it as failed; a dangling link, FIFO or device is skipped as there."""
    import stat
    from .files import is_dir, lookup
    out: list[Path] = []
    for p in map(Path, paths):
        if not is_dir(p):
            out.append(p)
            continue
        found = []
        for q in p.rglob("*.rules"):
            info, why = lookup(q)
            if why is not None or (info is not None and stat.S_ISREG(info.st_mode)):
                found.append(q)
        out.extend(sorted(found))
    return out


def _report_unformattable(name: str, exc, source: str) -> None:
    from .diagnostics import render
    if exc.diagnostics:
        for d in exc.diagnostics:
            click.echo(render(d, source), err=True)
    click.echo(f"error: {exc}", err=True)


@click.command("fmt")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path, allow_dash=True))
@click.option("--check", "check_only", is_flag=True,
              help="Change nothing: print a diff of each file that would change and exit 1 if any would.")
def fmt(paths: tuple[Path, ...], check_only: bool) -> None:
    """Format card files in place (folders: every *.rules file in them; `-`: stdin to stdout).

    Exit status: 0 done (or, with --check, nothing would change), 1 a file would change or has
    syntax errors, 2 usage."""
    from .cli_support import require_paths
    from .files import FileProblem, read_regular, write_atomic
    from .formatter import FormatError, format_text, with_line_ends_of
    from .parser import BOM, decode
    if not paths:
        raise click.UsageError("give the card files or folders to format, or - for standard input")
    require_paths(paths)   # (one that cannot be looked at, too: not a traceback)
    failed = changed = unchanged = 0
    if any(str(p) == "-" for p in paths):
        if len(paths) > 1:
            raise click.UsageError("- (standard input) cannot be combined with other paths")
        from .loader import MAX_FOLDER_BYTES
        data = sys.stdin.buffer.read(MAX_FOLDER_BYTES + 1)   # (within the limit `check -` keeps)
        if len(data) > MAX_FOLDER_BYTES:
            click.echo(f"error: cannot read <stdin>: more than the limit of {MAX_FOLDER_BYTES} bytes", err=True)
            sys.exit(1)
        text, problem = decode("<stdin>", data)
        if problem is not None:
            click.echo(f"error: <stdin>: {problem.message}", err=True)
            sys.exit(1)
        try:
            result = with_line_ends_of(text, format_text(text, "<stdin>"))
        except FormatError as exc:
            _report_unformattable("<stdin>", exc, text)
            sys.exit(1)
        if check_only:
            if result != text:
                click.echo(_diff("<stdin>", text, result), nl=False)
                sys.exit(1)
            return
        # (a byte order mark the input had is kept, as a file's is: an editor formatting through
        # standard input writes back what it gets)
        click.echo(("\ufeff" if data.startswith(BOM) else "") + result, nl=False)
        return
    for path in _card_files(paths):
        try:
            data = read_regular(path)
            text, problem = decode(str(path), data)
        except FileProblem as exc:
            click.echo(f"error: {exc}", err=True)
            failed += 1
            continue
        if problem is not None:
            click.echo(f"error: {path}: {problem.message}", err=True)
            failed += 1
            continue
        try:
            result = with_line_ends_of(text, format_text(text, str(path)))
        except FormatError as exc:
            _report_unformattable(str(path), exc, text)
            failed += 1
            continue
        if result == text:
            unchanged += 1
            continue
        if check_only:
            changed += 1
            click.echo(_diff(str(path), text, result), nl=False)
            click.echo(f"would reformat {path}", err=True)
            continue
        try:   # (a byte order mark the file had is kept: `decode` left it out of `text`)
            write_atomic(path, ("\ufeff" if data.startswith(BOM) else "") + result)
        except FileProblem as exc:   # counted as failed only: it was not reformatted
            click.echo(f"error: {exc}", err=True)
            failed += 1
            continue
        changed += 1
        click.echo(f"reformatted {path}", err=True)
    verb = "would be reformatted" if check_only else "reformatted"
    click.echo(f"{changed} file{'s' if changed != 1 else ''} {verb}, {unchanged} unchanged"
               + (f", {failed} failed" if failed else ""), err=True)
    sys.exit(1 if failed or (check_only and changed) else 0)


@click.command("lsp")
@click.option("--stdio", is_flag=True, help="Talk over standard input and output (the default; editors pass it).")
@click.option("--expansion", "-e", "expansions", multiple=True, metavar="NAME",
              help="Also check every file with this expansion (repeatable); the editor setting "
                   "`rulesdsl.expansions` overrides it.")
def lsp(stdio: bool, expansions: tuple[str, ...]) -> None:
    """The language server for editors (Language Server Protocol over stdio).

    Needs the optional extra: pip install 'rulesdsl[lsp]'.  See docs/editors.md."""
    try:
        from .lsp.server import serve
    except ImportError as exc:
        if "pygls" in str(exc) or "lsprotocol" in str(exc):
            click.echo("error: rulesdsl lsp needs pygls and lsprotocol: pip install 'rulesdsl[lsp]'", err=True)
            sys.exit(1)
        raise
    from .files import is_dir, unreachable
    from .loader import layer_folder
    for name in expansions:
        try:
            folder = layer_folder(name, "expansion")
        except ValueError as exc:  # UnknownName: with did-you-mean and the names accepted
            raise click.BadParameter(str(exc), param_hint="--expansion") from None
        if not is_dir(folder):   # (a path: the editor's setting warns of it, the command refuses it)
            why = unreachable(folder)   # (a folder on the way the user may not enter, a name too long)
            raise click.BadParameter(f"no such folder: {name}" + (f" ({why})" if why else ""),
                                     param_hint="--expansion")
    serve(list(expansions))


@click.command("editor-grammar")
@click.option("--output-dir", "-o", type=click.Path(file_okay=False), default="editors/vscode/syntaxes",
              show_default=True, help="Where to write rules.tmLanguage.json and scenario.tmLanguage.json.")
@click.option("--check", "check_only", is_flag=True, help="Write nothing; exit 1 if the files there are not up to date.")
def editor_grammar(output_dir: str | Path, check_only: bool) -> None:
    """Generate the TextMate grammars (highlighting) for .rules and .scenario files from the
    registry and the Lark grammar."""
    from .editor_grammar import generate
    from .files import FileProblem, is_dir, read_regular, unreachable, write_atomic
    if not str(output_dir).strip():   # (Path("") is the current folder: `-o ''` wrote there)
        raise click.UsageError("an empty path is not a folder")
    output_dir = Path(output_dir)
    if not is_dir(output_dir):
        why = unreachable(output_dir)
        raise click.UsageError(f"no such folder: {output_dir}" + (f" ({why})" if why else ""))
    stale = []
    for name, text in generate().items():
        target = output_dir / name
        try:
            current = read_regular(target).decode("utf-8", errors="replace")
        except FileProblem:   # missing, or unreadable: out of date (writing it says why it cannot be)
            current = None
        if current == text:
            continue
        stale.append(target)
        if not check_only:
            try:
                write_atomic(target, text)
            except FileProblem as exc:
                click.echo(f"error: {exc}", err=True)
                sys.exit(1)
            click.echo(f"wrote {target}", err=True)
    if check_only and stale:
        click.echo(f"error: {', '.join(map(str, stale))} out of date: run `rulesdsl editor-grammar -o {output_dir}`", err=True)
        sys.exit(1)
