"""The rewrite registry, the rewriter and the one place that decides; see README.md."""
