"""Live games: a game in memory, the hub that every change goes through, the game commands,
presence, computer seats, the JSON views, the game's routes and its socket."""
