"""A game's chat: the players' room and the spectators' room."""
