# Claude Code: the local bin over stdio
claude mcp add --transport stdio --env WEATHER_TOKEN=... weather -- weather-mcp
# or a deployed server over Streamable HTTP
claude mcp add --transport http weather-http https://mcp.example.com/mcp
