# Claude Code: the local bin over stdio
claude mcp add --transport stdio jobs -- jobs-mcp
# or a deployed server over Streamable HTTP
claude mcp add --transport http jobs-http https://mcp.example.com/mcp
