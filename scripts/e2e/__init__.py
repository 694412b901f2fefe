"""Real-agent end-to-end tier: install pinned agent CLIs, fake a model, drive each agent."""
