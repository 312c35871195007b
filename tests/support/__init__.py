"""Helpers shared by the test folders: servers, browsers, a reference implementation."""
