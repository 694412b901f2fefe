"""The raw-output archive and the savings ledger (SQLite in rtok's data dir)."""
