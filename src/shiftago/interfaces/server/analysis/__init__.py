"""The computer's judgement for the web app: reviews of games, the analysis board's positions
and the live analysis socket."""
