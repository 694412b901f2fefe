"""Putting rtok into an agent and taking it out again (see README.md in this folder)."""
