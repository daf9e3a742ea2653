"""The bundled content: one folder of `.rules` files per game or expansion (package data)."""
