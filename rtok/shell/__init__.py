"""Reading shell command lines the way bash (or fish) would; see README.md."""
