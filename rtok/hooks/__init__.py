"""`rtok hook AGENT`: hook payloads in, agent replies out (see README.md)."""
