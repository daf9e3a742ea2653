"""The `rulesdsl` command (placeholder; filled in below)."""
import sys


def main() -> None:
    sys.exit(0)
