import { formatToolResult } from '../../shared/format-tool-result.js';
import { utf8ByteLength } from '../../core/continuation/utf8-byte-length.js';
import { createToolRegistry, type TypedToolRegistry } from '../../tools/create-tool-registry.js';
import { defineTool } from '../../tools/define-tool.js';
import { ToolExecutionError } from '../../tools/tool-execution-error.js';
import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { buildContextPacket, integerOption } from './build-context-packet.js';
import { ContextPacketError } from './context-packet-error.js';
import { CONTEXT_PACKET_LIMITS } from './context-packet-limits.js';
import type { ContextPacketVfs } from './context-packet-types.js';

/** The name of the context packet tool. */
export const CONTEXT_PACKET_TOOL_NAME = 'context_packet';

/** The smallest `budget` the tool accepts: room for its longest error result (bytes). */
const MIN_TOOL_BUDGET = 1024;

/** Options of {@link createContextPacketToolRegistry}. */
export interface ContextPacketToolOptions {
  /** The files the tool selects from, e.g. `createNodeFsVfs({ root })` or `createMemoryVfs(files)`. */
  vfs: ContextPacketVfs;
  /**
   * The most bytes one tool result may take as the model receives it (the packet's JSON text, or
   * an error result): an integer from 1024 to 67108864.
   */
  budget: number;
  /** As `buildContextPacket`'s option. @default 1048576 (1 MiB) */
  maxFileBytes?: number | undefined;
  /** As `buildContextPacket`'s option. @default 33554432 (32 MiB) */
  maxTotalBytes?: number | undefined;
  /** As `buildContextPacket`'s option (Node.js only). @default undefined */
  cacheDir?: string | undefined;
}

// Built by a function marked pure, so a bundle that never makes this registry drops it.
const MANIFEST_SCHEMA = /* @__PURE__ */ (() => {
  const id = { type: 'string', minLength: 1, maxLength: CONTEXT_PACKET_LIMITS.maxIdLength } as const;
  const line = { type: 'integer', minimum: 1, maximum: CONTEXT_PACKET_LIMITS.maxLine } as const;

  return {
    properties: {
      selections: {
        type: 'array',
        description: 'What to put in the packet, in order.',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['id', 'path'],
          properties: {
            id: { ...id, description: 'A unique name for this selection.' },
            path: { type: 'string', minLength: 1, maxLength: 4096, description: 'File path from the workspace root, e.g. "src/index.ts".' },
            required: { type: 'boolean', description: 'true: fail instead of leaving it out. Default false.' },
            representation: {
              type: 'string',
              enum: ['whole', 'body'],
              description: '"whole": the whole file (default). "body": only lines startLine..endLine.',
            },
            startLine: { ...line, description: 'First line (1-based) for "body".' },
            endLine: { ...line, description: 'Last line (inclusive) for "body"; clamped to the end of the file.' },
            dependsOn: { type: 'array', items: id, description: 'Ids of selections this one is useless without.' },
          },
        },
      },
    },
    required: ['selections'],
  } as const;
})();

/**
 * Creates the `context_packet` tool: the model passes a selection manifest
 * (`{ selections: [{ id, path, required?, representation?, startLine?, endLine?, dependsOn? }] }`)
 * and gets a context packet (see `buildContextPacket`) as its result. `budget` covers the whole
 * result as the model receives it: the packet's JSON text, or an error result, whose message is
 * shortened to fit. A packet that cannot be built is a retryable error naming why
 * (`invalid_manifest`, `unknown_dependency`, `dependency_cycle`, `required_unavailable`,
 * `over_budget`); an unusable `cacheDir` is not retryable.
 * @throws HarnessConfigError for a missing VFS or an out-of-range option.
 * @example
 * ```ts
 * const tools = composeToolRegistries(createContextPacketToolRegistry({ vfs: createNodeFsVfs({ root: '.' }), budget: 32_768 }), myTools);
 * ```
 */
export function createContextPacketToolRegistry(options: ContextPacketToolOptions): TypedToolRegistry {
  const vfs = options?.vfs as Partial<ContextPacketVfs> | undefined;
  if (typeof vfs !== 'object' || vfs === null || typeof vfs.read !== 'function') {
    throw new HarnessConfigError('createContextPacketToolRegistry needs a vfs (an object with read).', { field: 'vfs' });
  }
  const budget = integerOption(options.budget, 'budget', undefined, CONTEXT_PACKET_LIMITS.maxBudget);
  if (budget < MIN_TOOL_BUDGET) {
    throw new HarnessConfigError(`budget must be at least ${MIN_TOOL_BUDGET} bytes for the tool (its error results must fit too).`, { field: 'budget' });
  }
  const { maxFileBytes, maxTotalBytes, cacheDir } = options;
  // Checked now, not on the first call.
  integerOption(maxFileBytes, 'maxFileBytes', 1, CONTEXT_PACKET_LIMITS.maxFileBytesCeiling);
  integerOption(maxTotalBytes, 'maxTotalBytes', 1, CONTEXT_PACKET_LIMITS.maxTotalBytesCeiling);
  if (cacheDir !== undefined && (typeof cacheDir !== 'string' || cacheDir.trim() === '' || cacheDir.includes('\u0000'))) {
    throw new HarnessConfigError('cacheDir must be a directory path.', { field: 'cacheDir' });
  }
  const tool = defineTool({
    name: CONTEXT_PACKET_TOOL_NAME,
    description:
      'Build a context packet: chosen files, or line ranges of them, in one JSON result of at most ' +
      `${budget} bytes. Required selections (and what they depend on) are taken whole or the call fails; ` +
      'others are added in order while they fit, and every one left out is listed in "omitted" with the reason. ' +
      'Each source has the SHA-256 of its whole file and the line range really taken.',
    input: { jsonSchema: { type: 'object', additionalProperties: false, ...MANIFEST_SCHEMA }, validate: (input) => ({ value: input }) },
    execute: async (input, context) => {
      try {
        const { text } = await buildContextPacket(vfs as ContextPacketVfs, input, { budget, maxFileBytes, maxTotalBytes, cacheDir, signal: context.signal });
        return text;
      } catch (error) {
        if (!ContextPacketError.isInstance(error)) throw error;
        const retryable = error.reason !== 'cache_unavailable';
        throw new ToolExecutionError(fittedMessage(error.reason, error.message, retryable, budget), {
          reason: error.reason,
          retryable,
          metadata: { ...error.details },
          cause: error,
        });
      }
    },
  });
  return createToolRegistry([tool]);
}

/** `message`, shortened until the error result the model receives is within `budget` bytes. */
function fittedMessage(code: string, message: string, retryable: boolean, budget: number): string {
  const bytes = (candidate: string) =>
    utf8ByteLength(formatToolResult({ callId: '', toolName: CONTEXT_PACKET_TOOL_NAME, status: 'error', error: { code, message: candidate, retryable } }).content);
  const characters = [...message];
  let text = message;
  for (let keep = characters.length; bytes(text) > budget && keep > 0; ) {
    keep = Math.floor(keep * 0.8);
    text = `${characters.slice(0, keep).join('')}…`;
  }
  return text;
}
