# Claude Code: the local bin over stdio
claude mcp add --transport stdio --env PETSTORE_API_KEY=... petstore -- petstore-mcp
# or a deployed server over Streamable HTTP
claude mcp add --transport http petstore-http https://mcp.example.com/mcp
