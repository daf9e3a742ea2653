"""`python -m rulesdsl`: the same command as `rulesdsl`."""

from .cli import main

main()
