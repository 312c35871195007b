"""players."""
