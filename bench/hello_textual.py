"""A minimal Textual app (one Static), the yardstick of bench_tui.py's start-up figure."""

from textual.app import App, ComposeResult
from textual.widgets import Static


class Hello(App[None]):
    def compose(self) -> ComposeResult:
        yield Static("Hello, Textual")


if __name__ == "__main__":
    Hello().run()
