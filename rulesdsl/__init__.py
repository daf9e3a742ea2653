"""rulesdsl: a declarative card language for 7 Wonders Duel and its expansions.

Text -> AST (`rulesdsl.parser`) -> checked AST (`rulesdsl.checker`) -> compiled closures
(`rulesdsl.compiler`) -> the interpreter (`rulesdsl.interpreter`), which sees only the compiled
model (`rulesdsl.model`); `rulesdsl.pipeline` drives the chain.
"""

__version__ = "0.1.0"
