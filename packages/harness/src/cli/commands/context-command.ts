import { resolve } from 'node:path';
import { createNodeFsVfs } from '@agent-assistant/vfs/node';
import { buildContextPacket } from '../../context/packets/build-context-packet.js';
import { ContextPacketError } from '../../context/packets/context-packet-error.js';
import { CONTEXT_PACKET_LIMITS } from '../../context/packets/context-packet-limits.js';
import type { CliIo } from '../internal/cli-io.js';
import { usageError } from '../internal/cli-usage-error.js';
import { flagHelp, flagValue, integerFlag, parseFlags, type FlagSpecs } from '../internal/parse-flags.js';
import { parseJsonText } from '../internal/parse-json-text.js';
import { readCliFile, textWithin } from '../internal/read-cli-file.js';

/** The largest manifest file read (1 MiB, room for indentation); its compact JSON must be within 256 KiB. */
export const MAX_MANIFEST_FILE_BYTES = 1024 * 1024;

/** The flags of `agent-assistant context packet`. */
export const CONTEXT_PACKET_FLAGS: FlagSpecs = {
  root: { value: 'DIR', help: 'the folder the manifest paths are in (required); nothing outside it is read' },
  manifest: { value: 'FILE', help: 'the selection manifest, JSON (required; - reads stdin)' },
  budget: { value: 'BYTES', help: `the most bytes the packet may take, final newline included (required, 1–${CONTEXT_PACKET_LIMITS.maxBudget})` },
  'max-file-bytes': { value: 'BYTES', help: `the largest file taken (default ${CONTEXT_PACKET_LIMITS.defaultMaxFileBytes})` },
  'max-total-bytes': { value: 'BYTES', help: `the most file bytes read in all (default ${CONTEXT_PACKET_LIMITS.defaultMaxTotalBytes})` },
  'cache-dir': { value: 'DIR', help: 'keep the bytes of each source taken here, by SHA-256 (a private directory, created 0700)' },
};

/** The help of `agent-assistant context`. */
export function contextUsage(): string {
  return [
    'Usage: agent-assistant context packet --root DIR --manifest FILE --budget BYTES [options]',
    '',
    'Builds a context packet: the files and line ranges the manifest selects, as one JSON text on stdout',
    'of at most BYTES bytes (UTF-8, final newline included), with each source\'s SHA-256 and line range',
    'and the selections left out. Manifest: {"selections":[{"id","path","required?","representation?",',
    '"startLine?","endLine?","dependsOn?"}]}. Exit code 0 with a packet; 2 when none can be built (a bad',
    'flag or manifest, a dependency cycle, a required selection that cannot be read or does not fit).',
    '',
    'Options:',
    ...flagHelp(CONTEXT_PACKET_FLAGS),
    `  ${'-h, --help'.padEnd(30)} show this help`,
  ].join('\n');
}

/** `agent-assistant context packet`. Resolves with the exit code. @throws HarnessConfigError for usage errors and packets that cannot be built. */
export async function contextCommand(io: CliIo, argv: readonly string[]): Promise<number> {
  const [subcommand, ...rest] = argv;
  if (subcommand === undefined || subcommand === '-h' || subcommand === '--help') {
    io.stdout(`${contextUsage()}\n`);
    return subcommand === undefined ? 2 : 0;
  }
  if (subcommand !== 'packet') throw usageError(`Unknown command \`context ${subcommand.slice(0, 40)}\`; the one context command is \`context packet\`.`);
  const flags = parseFlags(rest, CONTEXT_PACKET_FLAGS, 'context packet');
  if (flags.help) {
    io.stdout(`${contextUsage()}\n`);
    return 0;
  }
  const root = flagValue(flags, 'root');
  if (root === undefined) throw usageError('Pass --root DIR: the folder the manifest paths are in.', 'root');
  const manifestFile = flagValue(flags, 'manifest');
  if (manifestFile === undefined) throw usageError('Pass --manifest FILE: the selection manifest (- for stdin).', 'manifest');
  const budget = integerFlag(flags, 'budget', 1, CONTEXT_PACKET_LIMITS.maxBudget);
  if (budget === undefined) throw usageError('Pass --budget BYTES: the most bytes the packet may take.', 'budget');
  const maxFileBytes = integerFlag(flags, 'max-file-bytes', 1, CONTEXT_PACKET_LIMITS.maxFileBytesCeiling);
  const maxTotalBytes = integerFlag(flags, 'max-total-bytes', 1, CONTEXT_PACKET_LIMITS.maxTotalBytesCeiling);
  const cacheDir = flagValue(flags, 'cache-dir');

  const manifestText =
    manifestFile === '-'
      ? textWithin(await io.readStdin(MAX_MANIFEST_FILE_BYTES), MAX_MANIFEST_FILE_BYTES, 'The manifest on stdin', 'manifest')
      : await readCliFile(resolve(io.cwd, manifestFile), {
          what: 'the manifest',
          field: 'manifest',
          maxBytes: MAX_MANIFEST_FILE_BYTES,
          hint: 'Check the path given to --manifest.',
        });
  const manifest = parseJsonText(manifestText, manifestFile === '-' ? 'The manifest on stdin' : `The manifest ${JSON.stringify(manifestFile)}`, 'manifest');
  const vfs = createNodeFsVfs({ root: resolve(io.cwd, root), maxReadBytes: maxFileBytes ?? CONTEXT_PACKET_LIMITS.defaultMaxFileBytes });
  try {
    const { text } = await buildContextPacket(vfs, manifest, {
      budget,
      maxFileBytes,
      maxTotalBytes,
      cacheDir: cacheDir === undefined ? undefined : resolve(io.cwd, cacheDir),
    });
    io.stdout(text);
    return 0;
  } catch (error) {
    if (ContextPacketError.isInstance(error)) throw usageError(`${error.reason}: ${error.message}`, error.reason);
    throw error;
  }
}
