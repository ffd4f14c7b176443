// A tiny MCP server (stdio) built with the official SDK: the example starts it as a child process.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const notes = new Map([['welcome', 'MCP tools run inside a bounded harness turn.']]);
const server = new McpServer({ name: 'notes', version: '1.0.0' });

server.registerTool('list_notes', { description: 'List the note titles.', inputSchema: {} }, () => ({
  content: [{ type: 'text', text: [...notes.keys()].join('\n') }],
  structuredContent: { titles: [...notes.keys()] },
}));
server.registerTool(
  'read_note',
  { description: 'Read one note by title.', inputSchema: { title: z.string() } },
  ({ title }) =>
    notes.has(title)
      ? { content: [{ type: 'text', text: notes.get(title) }] }
      : { content: [{ type: 'text', text: `No note titled "${title}".` }], isError: true },
);

await server.connect(new StdioServerTransport());
