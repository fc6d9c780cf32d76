"""Farrapos tests."""
