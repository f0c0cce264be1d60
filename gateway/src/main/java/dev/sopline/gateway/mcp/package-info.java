/**
 * The MCP server at {@code /mcp}: the API's operations as tools for AI agents, over the Model Context Protocol's
 * Streamable HTTP transport. Each tool calls the same controller as its HTTP operation, under the same token, role and
 * rate limit, so the rules live in one place; a refusal comes back as a tool result with {@code isError: true} whose
 * text gives the error code, what was wrong and what to do next.
 */
package dev.sopline.gateway.mcp;
