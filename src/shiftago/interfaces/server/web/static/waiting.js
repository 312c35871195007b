// The header's count of games waiting for the player ([data-testid=games-waiting]): filled in by the accounts' games.
