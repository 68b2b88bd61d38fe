"""The app's screens: new game, game, summaries, help; load and replay come from the saves side."""
