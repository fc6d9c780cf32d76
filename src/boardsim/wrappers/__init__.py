"""Generic environment wrappers over any registered game (never per game)."""
