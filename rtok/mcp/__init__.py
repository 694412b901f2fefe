"""`rtok mcp -- SERVER ARGV...`: a stdio MCP proxy that shortens long tool results."""
