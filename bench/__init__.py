"""The benchmark: ``python -m bench`` prints the performance table kept in the README."""
