"""The Language Server Protocol binding (pygls 2): documents in, diagnostics, hovers,
completions, locations, symbols, edits out.  Every handler is guarded: whatever the text, a
request gets an answer or nothing, never a crash of the server."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from urllib.parse import quote

from lsprotocol import types as T
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from ..diagnostics import Diagnostic, Span
from . import features as F
from .positions import Lines, apply_change
from .project import MAX_FILE_BYTES, Project, absolute
from ..files import is_dir
from ..loader import SUFFIX

log = logging.getLogger("rulesdsl.lsp")
# A pause in typing this long triggers a check; opening or saving a file checks at once.
DEBOUNCE_SECONDS = 0.25

_COMPLETION_KINDS = {"keyword": T.CompletionItemKind.Keyword, "verb": T.CompletionItemKind.Method,
                     "option": T.CompletionItemKind.Property, "value": T.CompletionItemKind.EnumMember,
                     "name": T.CompletionItemKind.Reference, "function": T.CompletionItemKind.Function,
                     "event": T.CompletionItemKind.Event}
_ITEM_SYMBOLS = {"game": T.SymbolKind.Namespace, "expansion": T.SymbolKind.Namespace,
                 "procedure": T.SymbolKind.Function, "action": T.SymbolKind.Function, "rule": T.SymbolKind.Event,
                 "layout": T.SymbolKind.Struct, "age": T.SymbolKind.Module, "track": T.SymbolKind.Struct,
                 "zone": T.SymbolKind.Field, "table": T.SymbolKind.Array, "invariant": T.SymbolKind.Boolean}


def _version() -> str:
    try:
        return version("rulesdsl")
    except PackageNotFoundError:
        return "0"


UNSAVED = "rulesdsl-unsaved-buffers"   # (the folder, which does not exist, of buffers that are no files)


class RulesServer(LanguageServer):
    def __init__(self, expansions: list[str] | tuple[str, ...] = (), debounce: float = DEBOUNCE_SECONDS):
        # Full synchronisation: the editor sends the whole text at each change, so the server's
        # text is the editor's whatever the text holds.  (pygls applies incremental changes
        # with str.splitlines(), which also breaks lines at a form feed, U+2028, U+0085...: edits
        # landed on other lines.  Card files are a few KB; the check after a change costs far
        # more than the copy.)  A change that comes with a range anyway is applied by the
        # protocol's line rules (`positions.apply_change`).
        super().__init__("rulesdsl", _version(), text_document_sync_kind=T.TextDocumentSyncKind.Full)
        # (pygls's own copy of a document, which it then replaces by such a range's text, is
        # not used: its complaint about each of those changes would only fill the log)
        logging.getLogger("pygls.workspace.text_document").setLevel(logging.CRITICAL)
        self.project = Project(expansions)
        self.debounce = debounce
        # URI -> the content set (its layers; a loose file: its path) whose diagnostics were last
        # published for it, when they were not empty: what to clear when it leaves that set.
        self.owner: dict[str, object] = {}
        self.home: dict[str, object] = {}   # URI of a file published for -> the set it was in
        self.pending: dict[str, asyncio.TimerHandle] = {}
        self.unsaved: dict[str, str] = {}   # the path given a buffer that is no file -> its URI
        self._lines: dict[str, Lines] = {}
        # Whether the client asked for `shutdown`: the protocol's exit status says so (0 after
        # it, 1 for an `exit` or the end of input without it); pygls's own `sys.exit` of that
        # status is lost in its event loop.
        self.shut_down = False

    # -- paths and positions ------------------------------------------------------------------
    def path(self, uri: str) -> Path | None:
        fs = to_fs_path(uri)
        if fs:
            return Path(fs)
        if not isinstance(uri, str) or ":" not in uri:
            return None
        # A buffer that is no file (`untitled:Untitled-1`): a path of its own, in a folder that
        # does not exist, so it is checked alone (its syntax; hover and completion work).
        path = Path("/", UNSAVED, quote(uri, safe="") + SUFFIX).absolute()
        self.unsaved[str(path)] = uri
        return path

    def uri(self, file: str) -> str | None:
        return self.unsaved.get(file) or from_fs_path(file)

    def lines(self, file: str) -> Lines:
        """A file's text (buffer or disk) with its line starts, as the parser and as the
        protocol count them."""
        text = self.project.text(Path(file)) or ""
        found = self._lines.get(file)
        if found is None or found.text is not text and found.text != text:
            found = self._lines[file] = Lines(text)
        return found

    def to_range(self, span: Span) -> T.Range:
        lines = self.lines(span.file)
        start = lines.to_lsp(max(0, span.line - 1), max(0, span.column - 1))
        end = lines.to_lsp(max(0, span.end_line - 1), max(0, span.end_column - 1))
        return T.Range(T.Position(*start), T.Position(*end))

    def from_position(self, uri: str, position: T.Position) -> tuple[Path, int, int] | None:
        """A protocol position as the (line, character) of the parser's lines."""
        path = self.path(uri)
        if path is None:
            return None
        line, character = self.lines(str(absolute(path))).from_lsp(position.line, position.character)
        return path, line, character

    def location(self, span: Span) -> T.Location:
        return T.Location(self.uri(span.file) or span.file, self.to_range(span))

    # -- diagnostics --------------------------------------------------------------------------
    def lsp_diagnostic(self, d: Diagnostic) -> T.Diagnostic:
        message = d.message + (f"\nhelp: {d.help}" if d.help else "")
        source = self.project.text(Path(d.span.file)) or ""
        fix = F.replacement_edit(d, source)
        data = None
        if fix is not None:   # (the misspelt word only: the diagnostic's range may hold more)
            line, start, end, text = fix
            lines = self.lines(d.span.file)
            data = {"replacement": text, "range": [*lines.to_lsp(line, start), *lines.to_lsp(line, end)]}
        return T.Diagnostic(range=self.to_range(d.span), message=message, code=d.code, source="rulesdsl",
                            severity=T.DiagnosticSeverity.Error if d.severity == "error" else T.DiagnosticSeverity.Warning,
                            data=data)

    def _send(self, uri: str, key, diags: list[Diagnostic]) -> None:
        self.text_document_publish_diagnostics(
            T.PublishDiagnosticsParams(uri=uri, diagnostics=[self.lsp_diagnostic(d) for d in diags]))
        self.home[uri] = key
        if diags:
            self.owner[uri] = key
        else:
            self.owner.pop(uri, None)

    def _home(self, path: Path) -> tuple[object, dict[str, list[Diagnostic]]]:
        """The set `path` is checked in (its layers; a loose file: its own path) and the
        diagnostics of that set's files."""
        layers = self.project.layers_for(path)
        return (layers if layers is not None else str(absolute(path))), self.project.diagnostics(path)

    def publish(self, path: Path) -> None:
        """Publish the diagnostics of `path`'s content set; clear those a file no longer has
        because it left a set (a setting changed, a buffer closed, a header changed)."""
        try:
            key, found = self._home(path)
        except Exception:  # never let a check take the server down
            log.exception("checking %s failed", path)
            return
        me = self.uri(str(absolute(path)))
        before = self.home.get(me) if me is not None else None
        listed = set()
        for file, diags in found.items():
            uri = self.uri(file)
            if uri is None:
                continue
            listed.add(uri)
            if not diags and uri not in self.owner and uri not in self.workspace.text_documents:
                continue
            self._send(uri, key, diags)
        stale = [u for u, k in self.owner.items() if u not in listed and (k == key or (before is not None and k == before))]
        for uri in stale:
            self.refresh(uri)

    def refresh(self, uri: str) -> None:
        """Publish one file's diagnostics from the set it is in now (none: nothing)."""
        path = self.path(uri)
        diags: list[Diagnostic] = []
        key = None
        if path is not None:
            try:
                key, found = self._home(path)
                diags = found.get(str(absolute(path)), [])
            except Exception:
                log.exception("checking %s failed", path)
        self._send(uri, key, diags)

    def publish_all(self) -> None:
        """After a setting changed: every open file's set again, and every file shown with
        diagnostics from a set it is no longer in."""
        for uri in list(self.workspace.text_documents):
            path = self.path(uri)
            if path is not None:
                self.publish(path)
        for uri, key in list(self.owner.items()):
            path = self.path(uri)
            if path is None:
                continue
            layers = self.project.layers_for(path)
            if key != (layers if layers is not None else str(absolute(path))):
                self.refresh(uri)

    @contextlib.contextmanager
    def from_last_check(self):
        """While a check is due (typing paused less than the debounce ago), answer from the
        last parse and check: a hover or completion must not parse and check a large set on
        the spot, the check to come does it."""
        self.project.stale_ok = bool(self.pending)
        try:
            yield
        finally:
            self.project.stale_ok = False

    def schedule(self, uri: str, path: Path) -> None:
        old = self.pending.pop(uri, None)
        if old is not None:
            old.cancel()
        loop = asyncio.get_running_loop()
        self.pending[uri] = loop.call_later(self.debounce, self._run_pending, uri, path)

    def _run_pending(self, uri: str, path: Path) -> None:
        self.pending.pop(uri, None)
        self.publish(path)


def _guard(default=None):
    """A handler that fails answers `default` (and logs), so the server keeps running."""
    def wrap(fn):
        @functools.wraps(fn)
        def inner(*args, **kwargs):
            try:
                return fn(*args, **kwargs)
            except Exception:
                log.exception("%s failed", fn.__name__)
                return default
        return inner
    return wrap


def _settings(value) -> dict:
    """The settings from initializationOptions or a configuration change: `expansions` (a list
    of names) and `game` (a name, or empty for the default), each only when given."""
    out: dict = {}
    if isinstance(value, dict):
        inner = value.get("rulesdsl", value)
        if isinstance(inner, dict):
            if isinstance(inner.get("expansions"), list):
                out["expansions"] = [str(x) for x in inner["expansions"] if isinstance(x, str)]
            if "game" in inner and (inner["game"] is None or isinstance(inner["game"], str)):
                out["game"] = inner["game"] or None
    return out


def _apply_settings(ls: "RulesServer", options: dict) -> None:
    if "expansions" in options:
        ls.project.expansions = options["expansions"]
    if "game" in options:
        ls.project.game = options["game"]


def _warn_settings(ls: "RulesServer") -> None:
    for problem in ls.project.unknown_expansions():
        ls.window_show_message(T.ShowMessageParams(T.MessageType.Warning, f"rulesdsl.expansions: {problem}"))
    problem = ls.project.unknown_game()
    if problem:
        ls.window_show_message(T.ShowMessageParams(T.MessageType.Warning, f"rulesdsl.game: {problem}"))


def build_server(expansions: list[str] | tuple[str, ...] = (), debounce: float = DEBOUNCE_SECONDS) -> RulesServer:
    server = RulesServer(expansions, debounce)

    @server.feature(T.SHUTDOWN)
    def shutdown(ls: RulesServer, params: None) -> None:
        ls.shut_down = True

    @server.feature(T.INITIALIZE)
    @_guard()
    def initialize(ls: RulesServer, params: T.InitializeParams) -> None:
        _apply_settings(ls, _settings(params.initialization_options))  # checked once the client is ready

    @server.feature(T.INITIALIZED)
    @_guard()
    def initialized(ls: RulesServer, params: T.InitializedParams) -> None:
        _warn_settings(ls)

    @server.feature(T.WORKSPACE_DID_CHANGE_CONFIGURATION)
    @_guard()
    def configuration(ls: RulesServer, params: T.DidChangeConfigurationParams) -> None:
        options = _settings(params.settings)
        if options:
            _apply_settings(ls, options)
            _warn_settings(ls)
            ls.publish_all()

    @server.feature(T.TEXT_DOCUMENT_DID_OPEN)
    @_guard()
    def did_open(ls: RulesServer, params: T.DidOpenTextDocumentParams) -> None:
        path = ls.path(params.text_document.uri)
        if path is not None:
            ls.project.update(path, params.text_document.text)
            ls.publish(path)

    @server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
    @_guard()
    def did_change(ls: RulesServer, params: T.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        path = ls.path(uri)
        if path is None:
            return
        text = ls.project.open.get(absolute(path))
        if text is None:
            text = ls.workspace.get_text_document(uri).source
        for change in params.content_changes:
            where = getattr(change, "range", None)
            if where is None:
                text = change.text
            else:   # (a client that sends ranges although the server asked for whole texts)
                text = apply_change(text, (where.start.line, where.start.character),
                                    (where.end.line, where.end.character), change.text)
        ls.project.update(path, text)
        ls.schedule(uri, path)

    @server.feature(T.TEXT_DOCUMENT_DID_SAVE)
    @_guard()
    def did_save(ls: RulesServer, params: T.DidSaveTextDocumentParams) -> None:
        path = ls.path(params.text_document.uri)
        if path is not None:
            ls.project.forget(path)   # (the file on disk changed: a header, a new file...)
            ls.publish(path)

    @server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
    @_guard()
    def did_close(ls: RulesServer, params: T.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        path = ls.path(uri)
        pending = ls.pending.pop(uri, None)
        if pending is not None:
            pending.cancel()
        if path is not None:
            ls.project.close(path)
            ls._lines.pop(str(absolute(path)), None)
            if ls.project.layers_for(path) is None:  # a loose file: its diagnostics go with it
                ls._send(uri, None, [])
            else:
                ls.publish(path)

    @server.feature(T.TEXT_DOCUMENT_HOVER)
    @_guard()
    def hover(ls: RulesServer, params: T.HoverParams) -> T.Hover | None:
        where = ls.from_position(params.text_document.uri, params.position)
        if where is None:
            return None
        with ls.from_last_check():
            found = F.hover(ls.project, *where)
        if found is None:
            return None
        text, word = found
        span = Span(str(where[0]), word.line + 1, word.start + 1, word.line + 1, word.end + 1)
        return T.Hover(T.MarkupContent(T.MarkupKind.Markdown, text), ls.to_range(span))

    @server.feature(T.TEXT_DOCUMENT_COMPLETION,
                    T.CompletionOptions(trigger_characters=[" ", "=", '"', "("]))
    @_guard()
    def completion(ls: RulesServer, params: T.CompletionParams) -> T.CompletionList | None:
        where = ls.from_position(params.text_document.uri, params.position)
        if where is None:
            return None
        path, line, character = where
        items = []
        text = ls.project.text(path) or ""
        current = text.split("\n")[line] if line < len(text.split("\n")) else ""
        ctx = F.context_at(text, line, character)
        quote = current[:character].rfind('"') if ctx.in_string else -1
        with ls.from_last_check():
            found = F.complete(ls.project, path, line, character)
        for c in found:
            item = T.CompletionItem(label=c.label, kind=_COMPLETION_KINDS.get(c.kind), detail=c.detail or None,
                                    documentation=c.documentation or None, insert_text=c.insert)
            if quote >= 0:
                # The name typed so far and the rest of it up to its closing quote (the cursor
                # may stand inside an existing name), or to the cursor when it has none yet.
                end = F.closing_quote(current, character)
                end = end + 1 if end is not None else character
                span = Span(str(path), line + 1, quote + 2, line + 1, end + 1)
                item.text_edit = T.TextEdit(ls.to_range(span), c.label + '"')
            items.append(item)
        return T.CompletionList(is_incomplete=False, items=items)

    @server.feature(T.TEXT_DOCUMENT_DEFINITION)
    @_guard()
    def definition(ls: RulesServer, params: T.DefinitionParams) -> list[T.Location] | None:
        where = ls.from_position(params.text_document.uri, params.position)
        return [ls.location(s) for s in F.definition(ls.project, *where)] if where else None

    @server.feature(T.TEXT_DOCUMENT_REFERENCES)
    @_guard()
    def references(ls: RulesServer, params: T.ReferenceParams) -> list[T.Location] | None:
        where = ls.from_position(params.text_document.uri, params.position)
        if where is None:
            return None
        spans = F.find_references(ls.project, *where, include_declaration=params.context.include_declaration)
        return [ls.location(s) for s in spans]

    @server.feature(T.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    @_guard()
    def document_symbol(ls: RulesServer, params: T.DocumentSymbolParams) -> list[T.DocumentSymbol] | None:
        path = ls.path(params.text_document.uri)
        if path is None:
            return None
        return [T.DocumentSymbol(name=s.name, kind=_ITEM_SYMBOLS.get(s.kind.split()[-1], T.SymbolKind.Class),
                                 range=ls.to_range(s.full), selection_range=ls.to_range(s.span), detail=s.kind)
                for s in F.document_symbols(ls.project, path)]

    @server.feature(T.WORKSPACE_SYMBOL)
    @_guard()
    def workspace_symbol(ls: RulesServer, params: T.WorkspaceSymbolParams) -> list[T.SymbolInformation] | None:
        if not any(True for _ in ls.project.sets()):  # nothing opened yet: look at the workspace
            for folder in ls.workspace.folders.values():
                root = ls.path(folder.uri)
                if root is not None and is_dir(root):
                    ls.project.discover(root)
            if ls.workspace.root_path and is_dir(ls.workspace.root_path):
                ls.project.discover(Path(ls.workspace.root_path))
        return [T.SymbolInformation(name=s.name, kind=_ITEM_SYMBOLS.get(s.kind, T.SymbolKind.Class),
                                    location=ls.location(s.span), container_name=s.kind)
                for s in F.workspace_symbols(ls.project, params.query)[:500]]

    @server.feature(T.TEXT_DOCUMENT_FORMATTING)
    @_guard()
    def formatting(ls: RulesServer, params: T.DocumentFormattingParams) -> list[T.TextEdit] | None:
        from ..formatter import FormatError, format_text, with_line_ends_of
        path = ls.path(params.text_document.uri)
        if path is None:
            return None
        source = ls.project.text(path) or ""   # (the editor's text: the server keeps it)
        try:
            # (line ends are the editor's, as `rulesdsl fmt` keeps them: CRLF stays CRLF)
            result = with_line_ends_of(source, format_text(source, str(path)))
        except FormatError:
            return []  # syntax errors: the diagnostics say where; nothing to change yet
        if result == source:
            return []
        end = ls.lines(str(absolute(path))).lsp_position(len(source))
        return [T.TextEdit(T.Range(T.Position(0, 0), T.Position(*end)), result)]

    @server.feature(T.TEXT_DOCUMENT_CODE_ACTION,
                    T.CodeActionOptions(code_action_kinds=[T.CodeActionKind.QuickFix]))
    @_guard()
    def code_action(ls: RulesServer, params: T.CodeActionParams) -> list[T.CodeAction] | None:
        actions = []
        for d in params.context.diagnostics:
            fix = d.data.get("replacement") if isinstance(d.data, dict) else None
            if not isinstance(fix, str):
                continue
            # The misspelt word's own range (older diagnostics: the diagnostic's range).
            where = d.data.get("range")
            if isinstance(where, list) and len(where) == 4 and all(type(x) is int and x >= 0 for x in where):
                where = T.Range(T.Position(where[0], where[1]), T.Position(where[2], where[3]))
            else:
                where = d.range
            edit = T.WorkspaceEdit(changes={params.text_document.uri: [T.TextEdit(where, fix)]})
            actions.append(T.CodeAction(title=f"Replace with {fix}", kind=T.CodeActionKind.QuickFix,
                                        diagnostics=[d], edit=edit, is_preferred=True))
        return actions

    return server


# The largest message the server reads: a card file's text at its limit (project.MAX_FILE_BYTES)
# with every byte escaped in JSON (`\u0001`: 6 bytes), and room to spare.  A Content-Length above
# it is refused before anything is read (it was a MemoryError: the read was sized by the header).
MAX_MESSAGE_BYTES = 16 * MAX_FILE_BYTES
_CHUNK = 1 << 20   # a body is read this much at a time: memory follows what comes, not what is announced
_MAX_LINE = 1 << 16   # a header line is read at most this much at a time (a longer one: ignored, piece by piece)


class MessageTooLarge(Exception):
    """A Content-Length header above MAX_MESSAGE_BYTES: the server stops (exit 1)."""


class _Messages:
    """Standard input as pygls reads it (`readline`, `read(n)`), within bounds: a header line in
    pieces of at most _MAX_LINE bytes, a body of at most MAX_MESSAGE_BYTES."""

    def __init__(self, stream):
        self._stream = stream

    def readline(self) -> bytes:
        return self._stream.readline(_MAX_LINE)

    def read(self, n: int) -> bytes:
        if n > MAX_MESSAGE_BYTES:
            raise MessageTooLarge(f"a message of {n} bytes (its Content-Length) is more than the limit of "
                                  f"{MAX_MESSAGE_BYTES} bytes")
        chunks, left = [], n
        while left > 0:
            chunk = self._stream.read(min(left, _CHUNK))
            if not chunk:   # (the end of input: what came, as a short read)
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)


def serve(expansions: list[str] | tuple[str, ...] = ()) -> None:
    import sys
    logging.basicConfig(level=logging.WARNING, format="rulesdsl lsp: %(message)s")  # stderr: stdout is the protocol
    # (standard input or output closed: `error:`, exit 1, before the server starts: rulesdsl.cli.main)
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    server = build_server(expansions)
    try:
        server.start_io(_Messages(stdin), stdout)
    except MessageTooLarge as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(1)
    if not server.shut_down:   # (the protocol: `exit` without a `shutdown` before it is status 1)
        sys.exit(1)
