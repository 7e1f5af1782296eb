"""Test-wide settings.

In CI (``CI=true``) hypothesis runs derandomized, so a run is repeatable; on a
developer's machine it explores new examples every time.
"""

import os
import tempfile

from hypothesis import settings

# Indexes of references are cached on disk: never in the user's home from a test.
os.environ.setdefault("REPAIR_CACHE_DIR", tempfile.mkdtemp(prefix="repair-test-cache-"))

settings.register_profile("ci", derandomize=True)
if os.environ.get("CI", "").lower() == "true":
    settings.load_profile("ci")
