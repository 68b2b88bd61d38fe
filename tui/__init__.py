"""The terminal game: a keyboard-only Textual app over `core` (rules) and `saves` (persistence).

Edges: nothing here decides legality (that is `core.legal_actions`) and nothing here writes
files (that is `saves`). `tui.app.make_app` builds the app for both the CLI and the tests.
"""
