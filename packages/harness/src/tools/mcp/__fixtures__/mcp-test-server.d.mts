import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/** Hooks of the test server's `hang` tool. */
export interface TestServerEvents {
  onHang?: () => void;
  onCancelled?: () => void;
}

/** A server with tools covering text, structured content, isError, a hanging call and list changes. */
export function createTestServer(events?: TestServerEvents): McpServer;
