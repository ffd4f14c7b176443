// Runs the test MCP server over stdio (started as a child process by the tests).
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createTestServer } from './mcp-test-server.mjs';

await createTestServer().connect(new StdioServerTransport());
