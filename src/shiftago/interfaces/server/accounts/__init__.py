"""Accounts and their sessions: signing up, in and out, and taking a browser's games along."""
