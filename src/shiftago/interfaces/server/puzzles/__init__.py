"""Puzzles over HTTP (issue 51): the next puzzle, attempts, the daily puzzle."""
