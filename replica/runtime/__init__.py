"""How the app runs over time: the one clock, the background workers on it, how fast they go, and the model's client, as patient as they say."""
