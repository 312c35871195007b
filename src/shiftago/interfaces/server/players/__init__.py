"""Players: ratings per category, profiles and the leaderboard."""
