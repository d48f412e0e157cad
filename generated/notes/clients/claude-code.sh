# Claude Code: the local bin over stdio
claude mcp add --transport stdio notes -- notes-mcp
# or a deployed server over Streamable HTTP
claude mcp add --transport http notes-http https://mcp.example.com/mcp
