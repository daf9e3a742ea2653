"""pytest plugin entry point (registered in pyproject.toml)."""
