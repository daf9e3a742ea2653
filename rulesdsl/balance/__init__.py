"""The balance lab (`rulesdsl balance`, docs/balance.md): many games between agents with seats
rotated, per-definition win rates with intervals, outliers after a multiple-comparison
correction, and A/B comparisons of two content sets on the same seeds.

runner plays the games (a process pool, their outcomes joined in game order), outcomes keeps
them in columns of numbers, analysis turns them into the report dict (the JSON, which
report_json writes), report prints it with rich, html writes the self-contained page."""
