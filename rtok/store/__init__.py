"""The raw-output archive and the savings ledger (SQLite in rtok's data dir)."""

# While set, rtok.store.db.release keeps connections open until the process exits (see
# there); set by rtok.cli.entry for verbs that end with os._exit. Kept here so that setting
# it does not load SQLite.
KEEP_OPEN = [False]
