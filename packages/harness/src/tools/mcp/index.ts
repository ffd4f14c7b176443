export { createMcpToolRegistry, type McpToolRegistry } from './create-mcp-tool-registry.js';
export type {
  McpClientLike,
  McpHttpTransportOptions,
  McpRequestOptionsLike,
  McpSkippedTool,
  McpStdioTransportOptions,
  McpToolRegistryCommonOptions,
  McpToolRegistryOptions,
} from './mcp-tool-options.js';
