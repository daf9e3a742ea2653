// Starts `rulesdsl lsp` (the language server, `pip install 'rulesdsl[lsp]'`) for .rules and
// .scenario files.  Everything else (diagnostics, hover, completion, formatting) is the server's.
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration("rulesdsl");
  const [command, ...args] = config.get("command", ["rulesdsl", "lsp"]);
  const server = { command, args, transport: TransportKind.stdio };
  client = new LanguageClient("rulesdsl", "rulesdsl", server, {
    documentSelector: [
      { scheme: "file", language: "rules" },
      { scheme: "untitled", language: "rules" },
      { scheme: "file", language: "rules-scenario" },
    ],
    initializationOptions: { expansions: config.get("expansions", []), game: config.get("game", null) },
    synchronize: { configurationSection: "rulesdsl" },
  });
  client.start();
  context.subscriptions.push(client);
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
