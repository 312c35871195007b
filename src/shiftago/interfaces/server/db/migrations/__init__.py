"""Alembic migrations of the web app's database, applied at start-up (see ``migrate``)."""
