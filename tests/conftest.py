"""Shared test configuration.

Hypothesis runs derandomised in CI so a red build is reproducible.
"""

from __future__ import annotations

import os
import tempfile

from hypothesis import settings

# Tests use the component data shipped in the packages, never an owner's override file.
os.environ["TAVOLA_DATA_DIR"] = tempfile.mkdtemp(prefix="tavola-test-data-")

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")
