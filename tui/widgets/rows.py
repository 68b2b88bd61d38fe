"""A list of rows to choose from (the saved games, a server's tables, the ladder).

Textual's DataTable gives Home and End to the columns (its leftmost and rightmost), which a
list whose cursor is a whole row never needs: a player pressing End in a long list of
saves saw nothing happen. Here Home and End go to the first and the last row.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import DataTable


class RowTable(DataTable[Text]):
    """A DataTable whose cursor is a row: Home/End to the first/last row (Ctrl+Home and
    Ctrl+End still do the same, as in Textual)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("home", "scroll_top", "First", show=False),
        Binding("end", "scroll_bottom", "Last", show=False),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
