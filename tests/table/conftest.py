"""Fixtures of the table tests."""

from tests.table_server.process import server  # noqa: F401 - a fixture: a real table server
