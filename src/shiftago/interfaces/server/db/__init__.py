"""The database shared by every feature: the tables (:mod:`.schema`), their migrations, opening
and migrating a database, and what every store needs (the session, time stamps)."""
