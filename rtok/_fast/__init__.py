"""rtok's start-up layer: the launcher and the mechanisms that keep a hot-path verb's start
close to a bare interpreter (see README.md beside this file and docs/startup.md)."""
