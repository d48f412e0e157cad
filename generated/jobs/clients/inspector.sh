# MCP Inspector: the local bin over stdio
npx @modelcontextprotocol/inspector -- jobs-mcp
# or a deployed server over Streamable HTTP
npx @modelcontextprotocol/inspector --transport http --server-url https://mcp.example.com/mcp
