"""Small named strategies, one per kind of file an integration touches (see README.md)."""
