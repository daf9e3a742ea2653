"""The Language Server Protocol binding (pygls 2): documents in, diagnostics, hovers,
completions, locations, symbols, edits out.  Every handler is guarded: whatever the text, a
request gets an answer or nothing, never a crash of the server."""

from __future__ import annotations

import asyncio
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
from .project import Project
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
        super().__init__("rulesdsl", _version(), text_document_sync_kind=T.TextDocumentSyncKind.Incremental)
        self.project = Project(expansions)
        self.debounce = debounce
        self.published: set[str] = set()   # URIs whose last published diagnostics were not empty
        self.pending: dict[str, asyncio.TimerHandle] = {}
        self.unsaved: dict[str, str] = {}   # the path given a buffer that is no file -> its URI

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

    def lines(self, file: str) -> list[str]:
        return (self.project.text(Path(file)) or "").split("\n")

    def to_range(self, span: Span) -> T.Range:
        raw = T.Range(T.Position(max(0, span.line - 1), max(0, span.column - 1)),
                      T.Position(max(0, span.end_line - 1), max(0, span.end_column - 1)))
        return self.workspace.position_codec.range_to_client_units(self.lines(span.file), raw)

    def from_position(self, uri: str, position: T.Position) -> tuple[Path, int, int] | None:
        path = self.path(uri)
        if path is None:
            return None
        doc = self.workspace.get_text_document(uri)
        pos = doc.position_from_client_units(position)
        return path, pos.line, pos.character

    def location(self, span: Span) -> T.Location:
        return T.Location(self.uri(span.file) or span.file, self.to_range(span))

    # -- diagnostics --------------------------------------------------------------------------
    def lsp_diagnostic(self, d: Diagnostic) -> T.Diagnostic:
        message = d.message + (f"\nhelp: {d.help}" if d.help else "")
        source = self.project.text(Path(d.span.file)) or ""
        fix = F.replacement(d, source)
        return T.Diagnostic(range=self.to_range(d.span), message=message, code=d.code, source="rulesdsl",
                            severity=T.DiagnosticSeverity.Error if d.severity == "error" else T.DiagnosticSeverity.Warning,
                            data={"replacement": fix} if fix else None)

    def publish(self, path: Path) -> None:
        try:
            found = self.project.diagnostics(path)
        except Exception:  # never let a check take the server down
            log.exception("checking %s failed", path)
            return
        for file, diags in found.items():
            uri = self.uri(file)
            if uri is None:
                continue
            if not diags and uri not in self.published and uri not in self.workspace.text_documents:
                continue
            self.text_document_publish_diagnostics(
                T.PublishDiagnosticsParams(uri=uri, diagnostics=[self.lsp_diagnostic(d) for d in diags]))
            (self.published.add if diags else self.published.discard)(uri)

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


def _settings(value) -> list[str] | None:
    """The `expansions` setting from initializationOptions or a configuration change."""
    if isinstance(value, dict):
        inner = value.get("rulesdsl", value)
        if isinstance(inner, dict) and isinstance(inner.get("expansions"), list):
            return [str(x) for x in inner["expansions"] if isinstance(x, str)]
    return None


def _set_expansions(ls: "RulesServer", names: list[str]) -> None:
    ls.project.expansions = names
    for problem in ls.project.unknown_expansions():
        ls.window_show_message(T.ShowMessageParams(T.MessageType.Warning, f"rulesdsl.expansions: {problem}"))


def build_server(expansions: list[str] | tuple[str, ...] = (), debounce: float = DEBOUNCE_SECONDS) -> RulesServer:
    server = RulesServer(expansions, debounce)

    @server.feature(T.INITIALIZE)
    @_guard()
    def initialize(ls: RulesServer, params: T.InitializeParams) -> None:
        options = _settings(params.initialization_options)
        if options is not None:
            ls.project.expansions = options  # checked once the client is ready for messages

    @server.feature(T.INITIALIZED)
    @_guard()
    def initialized(ls: RulesServer, params: T.InitializedParams) -> None:
        _set_expansions(ls, ls.project.expansions)

    @server.feature(T.WORKSPACE_DID_CHANGE_CONFIGURATION)
    @_guard()
    def configuration(ls: RulesServer, params: T.DidChangeConfigurationParams) -> None:
        options = _settings(params.settings)
        if options is not None:
            _set_expansions(ls, options)
            for uri in list(ls.workspace.text_documents):
                path = ls.path(uri)
                if path is not None:
                    ls.publish(path)

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
        if path is not None:
            ls.project.update(path, ls.workspace.get_text_document(uri).source)
            ls.schedule(uri, path)

    @server.feature(T.TEXT_DOCUMENT_DID_SAVE)
    @_guard()
    def did_save(ls: RulesServer, params: T.DidSaveTextDocumentParams) -> None:
        path = ls.path(params.text_document.uri)
        if path is not None:
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
            if ls.project.layers_for(path) is None:  # a loose file: its diagnostics go with it
                ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
                ls.published.discard(uri)
            else:
                ls.publish(path)

    @server.feature(T.TEXT_DOCUMENT_HOVER)
    @_guard()
    def hover(ls: RulesServer, params: T.HoverParams) -> T.Hover | None:
        where = ls.from_position(params.text_document.uri, params.position)
        if where is None:
            return None
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
        for c in F.complete(ls.project, path, line, character):
            item = T.CompletionItem(label=c.label, kind=_COMPLETION_KINDS.get(c.kind), detail=c.detail or None,
                                    documentation=c.documentation or None, insert_text=c.insert)
            if quote >= 0:
                closing = "" if current[character:].startswith('"') else '"'
                span = Span(str(path), line + 1, quote + 2, line + 1, character + 1)
                item.text_edit = T.TextEdit(ls.to_range(span), c.label + closing)
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
        from ..formatter import FormatError, format_text
        doc = ls.workspace.get_text_document(params.text_document.uri)
        try:
            result = format_text(doc.source, doc.path or "<buffer>")
        except FormatError:
            return []  # syntax errors: the diagnostics say where; nothing to change yet
        if result == doc.source:
            return []
        lines = doc.source.split("\n")
        end = T.Position(len(lines) - 1, len(lines[-1]))
        end = ls.workspace.position_codec.position_to_client_units(lines, end)
        return [T.TextEdit(T.Range(T.Position(0, 0), end), result)]

    @server.feature(T.TEXT_DOCUMENT_CODE_ACTION,
                    T.CodeActionOptions(code_action_kinds=[T.CodeActionKind.QuickFix]))
    @_guard()
    def code_action(ls: RulesServer, params: T.CodeActionParams) -> list[T.CodeAction] | None:
        actions = []
        for d in params.context.diagnostics:
            fix = d.data.get("replacement") if isinstance(d.data, dict) else None
            if not isinstance(fix, str):
                continue
            edit = T.WorkspaceEdit(changes={params.text_document.uri: [T.TextEdit(d.range, fix)]})
            actions.append(T.CodeAction(title=f"Replace with {fix}", kind=T.CodeActionKind.QuickFix,
                                        diagnostics=[d], edit=edit, is_preferred=True))
        return actions

    return server


def serve(expansions: list[str] | tuple[str, ...] = ()) -> None:
    logging.basicConfig(level=logging.WARNING, format="rulesdsl lsp: %(message)s")  # stderr: stdout is the protocol
    build_server(expansions).start_io()
