import type { VfsProvider } from '@agent-assistant/vfs';
import { HarnessConfigError } from '../../core/errors/harness-config-error.js';

/** Options of `createWorkspaceToolRegistry`. */
export interface WorkspaceToolRegistryOptions {
  /**
   * The workspace the tools read, e.g. `createMemoryVfs(files)` or
   * `createNodeFsVfs({ root })` from `@agent-assistant/vfs`. Required.
   */
  vfs: VfsProvider;
  /**
   * Results `workspace_search` returns when the model gives no `limit` (count, 1–100).
   * @default 20
   */
  defaultSearchLimit?: number | undefined;
  /**
   * Deepest `depth` `workspace_list` accepts (levels below the listed directory, 1–10). Deeper
   * requests are an `invalid_input` error the model can correct.
   * @default 3
   */
  maxListDepth?: number | undefined;
  /**
   * Bytes of file content one `workspace_read` returns (UTF-8, 1–10485760); longer files are cut
   * on a character boundary with `truncated: true`, and the model can continue with `offset`.
   * Also the largest file `workspace_read_json` parses.
   * @default 51200 (50 KiB)
   */
  maxReadBytes?: number | undefined;
  /**
   * @deprecated Renamed: use `vfs`. Passing `provider` throws a `HarnessConfigError`.
   */
  provider?: never;
}

/** The defaults of `createWorkspaceToolRegistry`. Documented defaults quote this object. */
export const DEFAULT_WORKSPACE_TOOL_OPTIONS = /* @__PURE__ */ Object.freeze({
  defaultSearchLimit: 20,
  maxListDepth: 3,
  maxReadBytes: 51_200,
});

/** Fixed bounds of the workspace tools' inputs and options. */
export const WORKSPACE_TOOL_LIMITS = /* @__PURE__ */ Object.freeze({
  /** Largest `limit` of `workspace_search` (results). */
  maxSearchLimit: 100,
  /** `limit` of `workspace_list` when the model gives none (entries). */
  defaultListLimit: 50,
  /** Largest `limit` of `workspace_list` (entries). */
  maxListLimit: 200,
  /** Largest allowed `maxListDepth` option (levels). */
  maxListDepthCeiling: 10,
  /** Largest allowed `maxReadBytes` option (bytes, 10 MiB). */
  maxReadBytesCeiling: 10_485_760,
  /** Longest `query` of `workspace_search` (characters). */
  maxQueryLength: 500,
});

/** Options with every default applied. */
export interface ResolvedWorkspaceToolOptions {
  vfs: VfsProvider;
  defaultSearchLimit: number;
  maxListDepth: number;
  maxReadBytes: number;
}

/** Applies defaults and checks every field; throws `HarnessConfigError` naming the bad one. */
export function resolveWorkspaceToolOptions(options: WorkspaceToolRegistryOptions): ResolvedWorkspaceToolOptions {
  if (typeof options !== 'object' || options === null) {
    throw new HarnessConfigError('createWorkspaceToolRegistry needs an options object with a vfs.', { field: 'options' });
  }
  if ('provider' in options && (options as { provider?: unknown }).provider !== undefined) {
    throw new HarnessConfigError('The provider option was renamed: pass the VfsProvider as vfs.', { field: 'provider' });
  }
  const vfs = options.vfs as Partial<VfsProvider> | undefined;
  if (typeof vfs !== 'object' || vfs === null) {
    throw new HarnessConfigError('vfs must be a VfsProvider (an object with list, read and search).', { field: 'vfs' });
  }
  for (const method of ['list', 'read', 'search'] as const) {
    if (typeof vfs[method] !== 'function') {
      throw new HarnessConfigError(`vfs.${method} must be a function.`, { field: `vfs.${method}` });
    }
  }
  return {
    vfs: options.vfs,
    defaultSearchLimit: boundedInteger(
      options.defaultSearchLimit,
      'defaultSearchLimit',
      DEFAULT_WORKSPACE_TOOL_OPTIONS.defaultSearchLimit,
      WORKSPACE_TOOL_LIMITS.maxSearchLimit,
    ),
    maxListDepth: boundedInteger(
      options.maxListDepth,
      'maxListDepth',
      DEFAULT_WORKSPACE_TOOL_OPTIONS.maxListDepth,
      WORKSPACE_TOOL_LIMITS.maxListDepthCeiling,
    ),
    maxReadBytes: boundedInteger(
      options.maxReadBytes,
      'maxReadBytes',
      DEFAULT_WORKSPACE_TOOL_OPTIONS.maxReadBytes,
      WORKSPACE_TOOL_LIMITS.maxReadBytesCeiling,
    ),
  };
}

function boundedInteger(value: unknown, field: string, fallback: number, maximum: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > maximum) {
    throw new HarnessConfigError(`${field} must be an integer from 1 to ${maximum}; got ${String(value)}.`, { field });
  }
  return value;
}
