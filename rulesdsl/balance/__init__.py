"""The balance lab (`rulesdsl balance`, docs/balance.md): many games between agents with seats
rotated, per-definition win rates with intervals, outliers after a multiple-comparison
correction, and A/B comparisons of two content sets on the same seeds.

runner plays the games (a process pool, records in game order), analysis turns records into
the report dict (the JSON), report prints it with rich, html writes the self-contained page."""
