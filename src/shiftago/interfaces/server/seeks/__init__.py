"""Open challenges (seeks) and the lobby: their rules, their rows, their routes and the lobby's
socket and feed."""
