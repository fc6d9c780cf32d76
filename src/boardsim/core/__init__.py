"""Shared machinery of every game: header, generator, engine, Game/State, errors."""
