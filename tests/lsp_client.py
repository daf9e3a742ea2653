"""A small synchronous Language Server Protocol client over stdio, for the tests: it starts
`rulesdsl lsp` as an editor would and speaks JSON-RPC with Content-Length framing."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path


class LspClient:
    def __init__(self, *args: str, root: Path | None = None, options: dict | None = None):
        self.proc = subprocess.Popen([sys.executable, "-m", "rulesdsl", "lsp", "--stdio", *args],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.messages: queue.Queue = queue.Queue()
        self.notifications: list[dict] = []
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()
        self.stderr: list[bytes] = []
        threading.Thread(target=lambda: self.stderr.extend(self.proc.stderr), daemon=True).start()
        self.request("initialize", {"processId": None, "rootUri": root.as_uri() if root else None,
                                    "capabilities": {}, "initializationOptions": options or {}})
        self.notify("initialized", {})

    def _read(self) -> None:
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.messages.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            self.messages.put(json.loads(out.read(length)))

    def _send(self, message: dict) -> None:
        body = json.dumps(message).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def notify(self, method: str, params) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params, timeout: float = 30):
        self.next_id += 1
        wanted = self.next_id
        self._send({"jsonrpc": "2.0", "id": wanted, "method": method, "params": params})
        deadline = time.monotonic() + timeout
        while True:
            message = self._next(deadline)
            if message.get("id") == wanted and "method" not in message:
                if "error" in message:
                    raise RuntimeError(message["error"])
                return message.get("result")
            self._keep(message)

    def _next(self, deadline: float) -> dict:
        try:
            message = self.messages.get(timeout=max(0.01, deadline - time.monotonic()))
        except queue.Empty:
            raise TimeoutError("no answer from the server") from None
        if message is None:
            raise ConnectionError("the server stopped: " + b"".join(self.stderr).decode(errors="replace")[-2000:])
        return message

    def _keep(self, message: dict) -> None:
        if "method" in message and "id" in message:  # a request from the server: answer it
            self._send({"jsonrpc": "2.0", "id": message["id"], "result": None})
        else:
            self.notifications.append(message)

    def diagnostics(self, uri: str, timeout: float = 30, after: int = 0) -> list[dict]:
        """The first diagnostics published for `uri` after notification number `after`."""
        deadline = time.monotonic() + timeout
        while True:
            for message in self.notifications[after:]:
                if message.get("method") == "textDocument/publishDiagnostics" and message["params"]["uri"] == uri:
                    return message["params"]["diagnostics"]
            self._keep(self._next(deadline))

    def open(self, path: Path, text: str) -> str:
        uri = path.absolute().as_uri()
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "rules", "version": 1,
                                                              "text": text}})
        return uri

    def change(self, uri: str, text: str, version: int) -> None:
        self.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                               "contentChanges": [{"text": text}]})

    def close(self) -> int:
        try:
            self.request("shutdown", None, timeout=10)
            self.notify("exit", None)
            return self.proc.wait(timeout=10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
