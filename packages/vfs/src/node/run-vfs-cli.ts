import { resolve } from 'node:path';
import { VfsError } from '../errors/vfs-error.js';
import { base64ToBytes } from '../internal/base64.js';
import { truncateUtf8 } from '../internal/truncate-utf8.js';
import { normalizeVfsPath } from '../normalize-vfs-path.js';
import type { VfsEntry, VfsProvider, VfsReadResult } from '../vfs-provider.js';
import { createNodeFsVfs } from './create-node-fs-vfs.js';
import {
  formatEntries,
  formatJson,
  formatSearchResults,
  formatStat,
  formatTree,
  VFS_CLI_HELP,
} from './internal/format-vfs-cli-output.js';
import { parseVfsCliArgs, VfsCliUsageError, type ParsedVfsCliArgs } from './internal/parse-vfs-cli-args.js';

/** Exit codes of the `vfs` CLI. */
export const VFS_CLI_EXIT_CODES = Object.freeze({
  /** The command succeeded (an empty listing or search is a success). */
  ok: 0,
  /** Nothing at the path, the path is the wrong kind, or the file system failed. */
  notFound: 1,
  /** A command-line mistake, or a path the VFS refuses (`..`, NUL byte, symlink escape). */
  usage: 2,
});

/** Default `limit`s and `depth`s of the CLI commands. */
export const VFS_CLI_DEFAULTS = Object.freeze({
  listDepth: 1,
  listLimit: 100,
  treeDepth: 3,
  treeLimit: 500,
  searchLimit: 20,
});

/** Where the CLI writes: anything with a `write(text)` method (a Node stream, or a test buffer). */
export interface VfsCliWritable {
  /** Writes a chunk of text; the return value is ignored. */
  write(text: string): unknown;
}

/** Options of `runVfsCli`. */
export interface RunVfsCliOptions {
  /** Receives results. */
  stdout: VfsCliWritable;
  /** Receives errors, usage and truncation notes. */
  stderr: VfsCliWritable;
  /**
   * Directory that `--root` (and its default) resolve against.
   * @default process.cwd()
   */
  cwd?: string;
  /**
   * A provider to browse instead of a Node file-system VFS; `--root` is then a usage error.
   * @default a `createNodeFsVfs({ root })` over `--root`
   */
  vfs?: VfsProvider;
}

/**
 * Runs the `vfs` command line (`list`, `tree`, `read`, `search`, `stat`, `--json`, `--root`) and
 * resolves its exit code (`VFS_CLI_EXIT_CODES`). Never rejects: every failure is written to
 * `stderr` and becomes an exit code.
 * @example
 * ```ts
 * const code = await runVfsCli(['search', 'TODO', '--limit', '5'], { stdout: process.stdout, stderr: process.stderr });
 * ```
 */
export async function runVfsCli(argv: readonly string[], options: RunVfsCliOptions): Promise<number> {
  const { stdout, stderr } = options;
  let args: ParsedVfsCliArgs;
  try {
    args = parseVfsCliArgs(argv);
    if (args.root !== undefined && options.vfs !== undefined) {
      throw new VfsCliUsageError('--root cannot be used with a provided VFS.');
    }
  } catch (error) {
    if (!(error instanceof VfsCliUsageError)) return reportFailure(error, stderr);
    stderr.write(`vfs: ${error.message}\n\n${VFS_CLI_HELP}`);
    return VFS_CLI_EXIT_CODES.usage;
  }
  if (args.command === 'help') {
    stdout.write(VFS_CLI_HELP);
    return VFS_CLI_EXIT_CODES.ok;
  }
  try {
    const vfs = options.vfs ?? createNodeFsVfs({ root: resolve(options.cwd ?? process.cwd(), args.root ?? '.') });
    return await runCommand(vfs, args, options);
  } catch (error) {
    return reportFailure(error, stderr);
  }
}

async function runCommand(vfs: VfsProvider, args: ParsedVfsCliArgs, { stdout, stderr }: RunVfsCliOptions): Promise<number> {
  const [first = '/'] = args.positionals;
  switch (args.command) {
    case 'help': // handled before a VFS is created
      return VFS_CLI_EXIT_CODES.ok;
    case 'list':
    case 'tree': {
      const start = normalizeVfsPath(first);
      const isTree = args.command === 'tree';
      const entries = await vfs.list(start, {
        depth: args.depth ?? (isTree ? VFS_CLI_DEFAULTS.treeDepth : VFS_CLI_DEFAULTS.listDepth),
        limit: args.limit ?? (isTree ? VFS_CLI_DEFAULTS.treeLimit : VFS_CLI_DEFAULTS.listLimit),
      });
      stdout.write(args.json ? formatJson(entries) : isTree ? formatTree(start, entries) : formatEntries(entries));
      return VFS_CLI_EXIT_CODES.ok;
    }
    case 'read': {
      const found = await vfs.read(first);
      if (found === null) return notFound(first, stderr);
      const result = capRead(found, args.maxBytes);
      if (args.json) stdout.write(formatJson(result));
      else if (result.encoding === 'base64') {
        stderr.write(`vfs: ${result.path} is a binary file (${sizeOf(result)} bytes); use --json to get it as base64.\n`);
      } else stdout.write(result.content);
      if (!args.json && result.truncated === true) {
        const shown = new TextEncoder().encode(result.content).length;
        stderr.write(`vfs: output truncated: showed ${shown} of ${sizeOf(result)} bytes of ${result.path}.\n`);
      }
      return VFS_CLI_EXIT_CODES.ok;
    }
    case 'search': {
      const query = args.positionals.join(' ').trim();
      const searchOptions: { limit: number; provider?: string } = { limit: args.limit ?? VFS_CLI_DEFAULTS.searchLimit };
      if (args.provider !== undefined) searchOptions.provider = args.provider;
      const results = await vfs.search(query, searchOptions);
      stdout.write(args.json ? formatJson(results) : formatSearchResults(results));
      return VFS_CLI_EXIT_CODES.ok;
    }
    case 'stat': {
      const entry = await statOf(vfs, first);
      if (entry === null) return notFound(first, stderr);
      stdout.write(args.json ? formatJson(entry) : formatStat(entry));
      return VFS_CLI_EXIT_CODES.ok;
    }
  }
}

/** `stat` when the provider has it; otherwise the entry is looked up by listing its parent. */
async function statOf(vfs: VfsProvider, path: string): Promise<VfsEntry | null> {
  const normalized = normalizeVfsPath(path);
  if (vfs.stat !== undefined) return vfs.stat(normalized);
  if (normalized === '/') return { path: '/', type: 'dir' };
  const parent = normalized.slice(0, normalized.lastIndexOf('/')) || '/';
  const entries = await vfs.list(parent, { depth: 1 });
  return entries.find((entry) => entry.path === normalized) ?? null;
}

/** Applies `--max-bytes` to a text read (on a character boundary) or a base64 read. */
function capRead(result: VfsReadResult, maxBytes: number | undefined): VfsReadResult {
  if (maxBytes === undefined) return result;
  const binary = result.encoding === 'base64';
  const bytes = binary ? base64ToBytes(result.content) : new TextEncoder().encode(result.content);
  if (bytes.length <= maxBytes) return result;
  const content = binary
    ? result.content.slice(0, Math.floor(maxBytes / 3) * 4)
    : new TextDecoder().decode(truncateUtf8(bytes, maxBytes));
  return { ...result, content, size: result.size ?? bytes.length, truncated: true };
}

function sizeOf(result: VfsReadResult): number {
  return result.size ?? new TextEncoder().encode(result.content).length;
}

function notFound(path: string, stderr: VfsCliWritable): number {
  stderr.write(`vfs: not found: ${normalizeVfsPath(path)}\n`);
  return VFS_CLI_EXIT_CODES.notFound;
}

function reportFailure(error: unknown, stderr: VfsCliWritable): number {
  const message = error instanceof Error ? error.message : String(error);
  if (VfsError.isInstance(error)) {
    const refused = ['VFS_ERR_PATH_ESCAPE', 'VFS_ERR_INVALID_PATH', 'VFS_ERR_INVALID_OPTION'].includes(error.code);
    stderr.write(`vfs: ${message}\n`);
    return refused ? VFS_CLI_EXIT_CODES.usage : VFS_CLI_EXIT_CODES.notFound;
  }
  stderr.write(`vfs: ${message}\n`);
  return VFS_CLI_EXIT_CODES.notFound;
}
