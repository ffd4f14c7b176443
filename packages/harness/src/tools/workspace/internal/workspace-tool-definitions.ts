import type { HarnessToolDefinition } from '../../../shared/types/tools.js';
import {
  WORKSPACE_LIST_TOOL_NAME,
  WORKSPACE_READ_JSON_TOOL_NAME,
  WORKSPACE_READ_TOOL_NAME,
  WORKSPACE_SEARCH_TOOL_NAME,
  type WorkspaceToolName,
} from '../workspace-tool-names.js';
import { WORKSPACE_TOOL_LIMITS, type ResolvedWorkspaceToolOptions } from '../workspace-tool-options.js';
import { MAX_SOURCE_PATH_LENGTH } from '../../../shared/normalize-source-path.js';
import { toJsonSchema, type WorkspaceInputSpec } from './workspace-input.js';

/** A workspace tool's definition together with the spec its input is validated against. */
export interface WorkspaceToolSpec {
  name: WorkspaceToolName;
  description: string;
  input: WorkspaceInputSpec;
}

const PATH_FIELD = {
  type: 'string',
  minLength: 1,
  maxLength: MAX_SOURCE_PATH_LENGTH,
  description: 'Workspace path starting at the root "/", e.g. "/docs/setup.md". ".." is not allowed.',
} as const;

/** The four tool specs for the given options, in `WORKSPACE_TOOL_NAMES` order. */
export function workspaceToolSpecs(options: ResolvedWorkspaceToolOptions): WorkspaceToolSpec[] {
  return [
    {
      name: WORKSPACE_SEARCH_TOOL_NAME,
      description:
        'Search the workspace for text: file names and file lines containing the query (case-insensitive). ' +
        'Each result has a sourcePath (and a line number for line matches) to read next and to cite. ' +
        'An empty result means nothing matched.',
      input: {
        query: {
          type: 'string',
          required: true,
          minLength: 1,
          maxLength: WORKSPACE_TOOL_LIMITS.maxQueryLength,
          description: 'Text to look for.',
        },
        provider: { type: 'string', minLength: 1, description: 'Only results from this source (for multi-source workspaces).' },
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: WORKSPACE_TOOL_LIMITS.maxSearchLimit,
          description: `Most results to return (default ${options.defaultSearchLimit}).`,
        },
      },
    },
    {
      name: WORKSPACE_LIST_TOOL_NAME,
      description:
        'List the files and directories below a workspace directory, with their sourcePath, type and size. ' +
        'Use "/" for the root.',
      input: {
        path: { ...PATH_FIELD, description: 'Directory to list, e.g. "/" or "/docs" (default "/").', minLength: 0 },
        depth: {
          type: 'integer',
          minimum: 1,
          maximum: options.maxListDepth,
          description: 'Levels to descend: 1 lists direct children only (default 1).',
        },
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: WORKSPACE_TOOL_LIMITS.maxListLimit,
          description: `Most entries to return (default ${WORKSPACE_TOOL_LIMITS.defaultListLimit}).`,
        },
      },
    },
    {
      name: WORKSPACE_READ_TOOL_NAME,
      description:
        `Read a workspace file as text, at most ${options.maxReadBytes} bytes per call. ` +
        'The result names its sourcePath; when it is truncated, call again with the nextOffset it gives.',
      input: {
        path: { ...PATH_FIELD, required: true },
        offset: {
          type: 'integer',
          minimum: 0,
          maximum: Number.MAX_SAFE_INTEGER,
          description: 'Byte offset to start reading at, for continuing a truncated read (default 0).',
        },
      },
    },
    {
      name: WORKSPACE_READ_JSON_TOOL_NAME,
      description:
        `Read and parse a JSON file from the workspace (up to ${options.maxReadBytes} bytes). ` +
        'Invalid JSON is reported with the line and column where parsing failed.',
      input: { path: { ...PATH_FIELD, required: true } },
    },
  ];
}

/** The definition offered to the model for a spec. */
export function toToolDefinition(spec: WorkspaceToolSpec): HarnessToolDefinition {
  return {
    name: spec.name,
    description: spec.description,
    inputSchema: toJsonSchema(spec.input),
    requiresApproval: false,
    metadata: { family: 'workspace', readOnly: true },
  };
}
