import { HarnessConfigError } from '../../../core/errors/harness-config-error.js';
import type { McpClientLike } from '../mcp-tool-options.js';

/** The MCP SDK package, an optional peer dependency. */
export const MCP_SDK_PACKAGE = '@modelcontextprotocol/sdk';

// A parameter, not a literal: bundlers neither resolve nor inline the optional peer.
const importModule = (specifier: string): Promise<unknown> => import(/* @vite-ignore */ specifier);

/** A transport object of the SDK, opaque here. */
export type McpTransportLike = object;

/** The SDK `Client` constructor, as used here. */
export type McpClientConstructor = new (
  info: { name: string; version: string },
  options: Record<string, unknown>,
) => McpClientLike & {
  connect(transport: McpTransportLike, options?: { signal?: AbortSignal; timeout?: number }): Promise<void>;
  onclose?: (() => void) | undefined;
};

/** Loads one module of the SDK, e.g. `client/index.js`, naming the install command when it is missing. */
export async function loadMcpModule<T>(path: string, exportName: string): Promise<T> {
  let module: unknown;
  try {
    module = await importModule(`${MCP_SDK_PACKAGE}/${path}`);
  } catch (error) {
    throw new HarnessConfigError(
      `createMcpToolRegistry needs the optional peer dependency ${MCP_SDK_PACKAGE}, which could not be loaded. ` +
        `Install it with: npm install ${MCP_SDK_PACKAGE}@^1.32`,
      { field: 'transport', cause: error },
    );
  }
  const value = (module as Record<string, unknown>)[exportName];
  if (typeof value !== 'function') {
    throw new HarnessConfigError(`${MCP_SDK_PACKAGE}/${path} does not export ${exportName}; install version 1.32 or a later 1.x.`, {
      field: 'transport',
    });
  }
  return value as T;
}
