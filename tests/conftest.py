import os
import sys
import tempfile
from pathlib import Path

# Test helpers (fixture_games, positions) live next to the tests.
sys.path.insert(0, str(Path(__file__).resolve().parent))
# Keep the parse cache of (fuzzed) test files out of the user's cache folder.
os.environ.setdefault("RULESDSL_CACHE_DIR", tempfile.mkdtemp(prefix="rulesdsl-test-cache-"))
