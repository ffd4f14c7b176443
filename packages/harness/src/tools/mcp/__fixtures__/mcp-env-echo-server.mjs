// A stdio MCP server that echoes two of its environment variables (API_TOKEN, LOG_LEVEL).
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createRawServer } from '../../../__fixtures__/mcp-raw-server.mjs';

const said = () => `API_TOKEN=${String(process.env.API_TOKEN)} LOG_LEVEL=${String(process.env.LOG_LEVEL)}`;
await createRawServer({
  listTools: () => ({ tools: [{ name: 'env', description: said(), inputSchema: { type: 'object' } }] }),
  callTool: () => ({ content: [{ type: 'text', text: said() }] }),
}).connect(new StdioServerTransport());
