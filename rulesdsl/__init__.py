"""rulesdsl: a declarative card language for 7 Wonders Duel and its expansions.

Text -> AST (`rulesdsl.parser`) -> checked AST (`rulesdsl.checker`) -> compiled closures
(`rulesdsl.compiler`) -> the interpreter (`interpreter`).
"""

__version__ = "0.1.0"
