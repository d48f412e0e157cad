# Claude Code: the local bin over stdio
claude mcp add --transport stdio mcpgen-conformance -- mcpgen-conformance-mcp
# or a deployed server over Streamable HTTP
claude mcp add --transport http mcpgen-conformance-http https://mcp.example.com/mcp
