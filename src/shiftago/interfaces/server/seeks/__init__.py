"""seeks."""
