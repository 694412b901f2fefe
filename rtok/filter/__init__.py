"""Output rules, the rule engine, formatters and the `rtok run` / `rtok filter` verbs."""
