"""The host's own permission rules applied to a command (see README.md)."""
