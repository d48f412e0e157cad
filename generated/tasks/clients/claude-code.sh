# Claude Code: the local bin over stdio
claude mcp add --transport stdio --env TASKS_API_KEY=... tasks -- tasks-mcp
# or a deployed server over Streamable HTTP
claude mcp add --transport http tasks-http https://mcp.example.com/mcp
