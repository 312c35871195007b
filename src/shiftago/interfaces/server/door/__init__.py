"""door."""
