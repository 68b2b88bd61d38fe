"""Small widgets that render from a GameState and post past-tense messages upwards."""
