"""`rulesdsl lsp`: a language server for card files.

The editor-independent part (which content set a file belongs to, checking it with the open
buffers' unsaved text, the names it defines, hover texts, completions) is in `project` and
`features`, plain Python the tests call directly; `server` binds them to the Language Server
Protocol with pygls (the optional extra `rulesdsl[lsp]`)."""
