import os
import sys
from pathlib import Path

# Test helpers (fixture_games, positions) live next to the tests.
sys.path.insert(0, str(Path(__file__).resolve().parent))
# Keep the parse cache of (fuzzed) test files out of the user's cache folder.
from scratch import scratch_dir  # noqa: E402

if "RULESDSL_CACHE_DIR" not in os.environ:
    os.environ["RULESDSL_CACHE_DIR"] = str(scratch_dir("rulesdsl-test-cache-"))
