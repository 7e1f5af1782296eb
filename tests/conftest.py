"""Test-wide settings.

In CI (``CI=true``) hypothesis runs derandomized, so a run is repeatable; on a
developer's machine it explores new examples every time.
"""

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True)
if os.environ.get("CI", "").lower() == "true":
    settings.load_profile("ci")
