"""rtok: shortens the shell output AI coding agents read, losing nothing."""

__version__ = "0.1.0"
