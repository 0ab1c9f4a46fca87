"""Shared by the Python tests: the module under test, and a skip (exit 77, which ctest
reports as skipped) when pandas, which DataFrames need, is not installed."""

import os
import sys

import stcsim  # noqa: F401  (imported here so a broken build fails every test loudly)

SOURCE_DIR = os.environ.get("STCSIM_SOURCE_DIR",
                            os.path.join(os.path.dirname(__file__), "..", ".."))


def require_pandas():
    try:
        import pandas  # noqa: F401
    except ImportError:
        print(f"SKIPPED: pandas is not installed for {sys.executable} "
              "(Debian: python3-pandas; scripts/setup.sh installs it)")
        sys.exit(77)
