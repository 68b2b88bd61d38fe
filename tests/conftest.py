"""Top-level pytest configuration for the whole suite.

Deliberately minimal: fixtures belong in the conftest.py of the area that uses them
(tests/core/, tests/saves/, tests/tui/). Settings (markers, asyncio mode, import mode)
live in pyproject.toml under [tool.pytest.ini_options].
"""
