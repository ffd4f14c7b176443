import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { CONTEXT_PACKET_LIMITS } from './context-packet-limits.js';
import type { ContextPacketOptions, ContextPacketResult, ContextPacketVfs } from './context-packet-types.js';
import { fitPacket, type Candidate } from './internal/fit-packet.js';
import { parseManifest } from './internal/parse-manifest.js';
import { readSourceFiles } from './internal/read-source-files.js';
import { openSourceCache } from './internal/source-cache.js';
import { takeSource } from './internal/take-source.js';

/**
 * Builds a context packet: the files and line ranges a manifest selects from a VFS, as one JSON
 * text whose UTF-8 size, final newline included, is at most `budget` bytes.
 *
 * Required selections, and everything they depend on, are taken whole or nothing is built (a
 * `ContextPacketError` says which and by how much). The others are taken in manifest order, each
 * with what it depends on, while the packet stays within the budget; one that does not fit is
 * listed in `omitted` and the next ones are still tried. Every source carries the SHA-256 of the
 * whole file and, for text, the line range really taken (a range past the end is clamped and
 * reported). Paths resolve inside the VFS's root under its rules. Worker-safe, except `cacheDir`.
 *
 * @throws ContextPacketError `invalid_manifest`, `unknown_dependency`, `dependency_cycle`,
 *   `required_unavailable`, `over_budget` or `cache_unavailable`; nothing partial is returned.
 * @throws HarnessConfigError for an invalid option (`budget`, `maxFileBytes`, `maxTotalBytes`, `cacheDir`, `vfs`).
 * @example
 * ```ts
 * const { text, packet } = await buildContextPacket(createNodeFsVfs({ root: '.' }), {
 *   selections: [
 *     { id: 'rules', path: 'AGENTS.md', required: true },
 *     { id: 'source', path: 'src/example.ts', startLine: 10, endLine: 30, dependsOn: ['rules'] },
 *   ],
 * }, { budget: 16_384 });
 * if (!packet.complete) console.warn('left out:', packet.omitted);
 * ```
 */
export async function buildContextPacket(vfs: ContextPacketVfs, manifest: unknown, options: ContextPacketOptions): Promise<ContextPacketResult> {
  const settings = resolveOptions(vfs, options);
  const { selections, dependenciesFirst } = parseManifest(manifest);
  const cache = settings.cacheDir === undefined ? undefined : await openSourceCache(settings.cacheDir);
  const paths = [...new Set(selections.map((selection) => selection.path))];
  const files = await readSourceFiles(vfs, paths, {
    maxFileBytes: settings.maxFileBytes,
    maxTotalBytes: settings.maxTotalBytes,
    keepBytes: cache !== undefined,
    signal: settings.signal,
  });
  const candidates = selections.map((selection): Candidate => {
    const { id, path } = selection;
    const file = files.get(path)!;
    const taken = file.ok ? takeSource(selection, file) : file.reason;
    return typeof taken === 'string'
      ? { selection, source: undefined, omission: { id, path, reason: taken } }
      : { selection, source: taken, omission: { id, path, reason: 'over_budget' } };
  });
  const fitted = fitPacket(candidates, dependenciesFirst, settings.budget);
  if (cache !== undefined) {
    const kept = new Set<string>();
    for (const { selection, source } of fitted.taken) {
      const file = files.get(selection.path);
      if (source === undefined || kept.has(source.sha256) || file?.ok !== true || file.bytes === undefined) continue;
      settings.signal?.throwIfAborted();
      await cache.keep(source.sha256, file.bytes);
      kept.add(source.sha256);
    }
  }
  return { packet: fitted.packet, text: fitted.text, bytes: fitted.bytes };
}

interface ResolvedOptions {
  budget: number;
  maxFileBytes: number;
  maxTotalBytes: number;
  cacheDir: string | undefined;
  signal: AbortSignal | undefined;
}

function resolveOptions(vfs: ContextPacketVfs, options: ContextPacketOptions): ResolvedOptions {
  if (typeof vfs !== 'object' || vfs === null || typeof vfs.read !== 'function') {
    throw new HarnessConfigError('buildContextPacket needs a VFS (an object with read), e.g. createMemoryVfs(files).', { field: 'vfs' });
  }
  if (typeof options !== 'object' || options === null) {
    throw new HarnessConfigError('buildContextPacket needs options with a budget (bytes).', { field: 'options' });
  }
  const { cacheDir, signal } = options;
  if (cacheDir !== undefined && (typeof cacheDir !== 'string' || cacheDir.trim() === '' || cacheDir.includes('\u0000'))) {
    throw new HarnessConfigError('cacheDir must be a directory path.', { field: 'cacheDir' });
  }
  if (signal !== undefined && (typeof signal !== 'object' || signal === null || typeof signal.throwIfAborted !== 'function')) {
    throw new HarnessConfigError('signal must be an AbortSignal.', { field: 'signal' });
  }
  signal?.throwIfAborted();
  return {
    budget: integerOption(options.budget, 'budget', undefined, CONTEXT_PACKET_LIMITS.maxBudget),
    maxFileBytes: integerOption(options.maxFileBytes, 'maxFileBytes', CONTEXT_PACKET_LIMITS.defaultMaxFileBytes, CONTEXT_PACKET_LIMITS.maxFileBytesCeiling),
    maxTotalBytes: integerOption(options.maxTotalBytes, 'maxTotalBytes', CONTEXT_PACKET_LIMITS.defaultMaxTotalBytes, CONTEXT_PACKET_LIMITS.maxTotalBytesCeiling),
    cacheDir: cacheDir?.replace(/[\\/]+$/, '') || cacheDir,
    signal,
  };
}

/** An integer option from 1 to `maximum`; `fallback` when absent (required when there is none). */
export function integerOption(value: unknown, field: string, fallback: number | undefined, maximum: number): number {
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > maximum) {
    throw new HarnessConfigError(`${field} must be an integer from 1 to ${maximum}; got ${typeof value === 'number' ? String(value) : typeof value}.`, { field });
  }
  return value;
}
