// A real MCP server built with @modelcontextprotocol/sdk, for the registry's tests.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';

/** A server with tools covering text, structured content, isError, a hanging call and list changes. */
export function createTestServer(events = {}) {
  const server = new McpServer({ name: 'harness-test-server', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echo the text.', inputSchema: { text: z.string() } }, ({ text }) => ({
    content: [{ type: 'text', text: `echo: ${text}` }],
  }));
  server.registerTool(
    'add',
    { description: 'Add two numbers.', inputSchema: { a: z.number(), b: z.number() }, outputSchema: { sum: z.number() } },
    ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } }),
  );
  server.registerTool('fail', { description: 'Always fails.', inputSchema: {} }, () => ({
    content: [{ type: 'text', text: 'the thing is broken' }],
    isError: true,
  }));
  server.registerTool('hang', { description: 'Never answers until cancelled.', inputSchema: {} }, (_args, extra) =>
    new Promise((resolve) => {
      events.onHang?.();
      extra.signal.addEventListener(
        'abort',
        () => {
          events.onCancelled?.();
          resolve({ content: [{ type: 'text', text: 'cancelled' }] });
        },
        { once: true },
      );
    }),
  );
  server.registerTool('add_tool', { description: 'Adds a tool named "late".', inputSchema: {} }, () => {
    server.registerTool('late', { description: 'Added later.', inputSchema: {} }, () => ({ content: [{ type: 'text', text: 'late tool ran' }] }));
    return { content: [{ type: 'text', text: 'added' }] };
  });
  server.registerTool('my.dotted', { description: 'A name models cannot call.', inputSchema: {} }, () => ({ content: [] }));
  return server;
}
