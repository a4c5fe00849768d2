"""How the app runs over time: the one clock, the background workers on it, and how fast they go."""
