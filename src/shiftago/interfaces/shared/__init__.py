"""Pieces that several programs share: one-line error messages and the asyncio event loop."""
