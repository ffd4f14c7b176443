import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { rankLines } from './classify-lines.js';
import { callStore, checkStore, hashOutputStreams, MAX_OUTPUT_ARTIFACT_BYTES, type OutputArtifactStore, type OutputStreams } from './output-artifact.js';
import { indexLines, jsonPrefix, jsonStringBytes, type LineIndex, MAX_SHOWN_LINE_CHARS, rawLine, screenLine } from './output-lines.js';
import { dropLastAdded, type LineSelection, selectLines, shownText } from './select-lines.js';

/** Smallest `budget` of {@link reduceOutput}: room for the result's frame, a shortened argv and both hashes. */
export const MIN_REDUCED_OUTPUT_BUDGET = 2048;

/** Most bytes of the serialised `argv` in a reduced result; longer ones are shortened. */
const MAX_ARGV_BYTES = 1024;
const SIGNAL_NAME = /^[A-Za-z0-9_+-]{1,32}$/;

/** What a command printed and how it ended. */
export interface CommandOutput {
  /** The command as run: the program, then its arguments. Shown shortened when long. */
  argv: readonly string[];
  /** The exit code as reported (`null` when there was none, e.g. ended by a signal). Passed through unchanged. */
  exitCode: number | null;
  /** The signal that ended the process (e.g. `'SIGTERM'`), when one did. Passed through unchanged. @default undefined */
  signal?: string | null | undefined;
  /** Standard output: bytes as received, or text (stored as UTF-8). */
  stdout: string | Uint8Array;
  /** Standard error: bytes as received, or text (stored as UTF-8). */
  stderr: string | Uint8Array;
  /** Whether `stdout` and `stderr` are all the process wrote (`false` when the capture stopped early). Passed through unchanged. */
  captureComplete: boolean;
}

/** Options of {@link reduceOutput}. */
export interface ReduceOutputOptions {
  /** Most UTF-8 bytes of `JSON.stringify(result)`: an integer, at least {@link MIN_REDUCED_OUTPUT_BUDGET}. */
  budget: number;
  /** Where the raw streams are kept. */
  store: OutputArtifactStore;
}

/** Consecutive lines shown, numbered from 1 (inclusive range). */
export interface ReducedOutputBlock {
  /** First line shown. */
  from: number;
  /** Last line shown. */
  to: number;
  /** The lines joined with `\n`, each as a terminal shows it (see `docs/context.md`). */
  text: string;
}

/** One stream of a reduced result. */
export interface ReducedOutputStream {
  /** Bytes the stream had. */
  bytes: number;
  /** Bytes cut from its start because the output passed 8 MiB in all; they are not in the artifact either. */
  droppedBytes: number;
  /** Lines of the kept bytes (what the artifact holds). */
  lines: number;
  /** Lines shown, in order. */
  shown: ReducedOutputBlock[];
  /** Line ranges left out, `[from, to]` inclusive. With `shown`, they cover lines 1 to `lines` exactly once. */
  omitted: Array<[number, number]>;
}

/** The result of {@link reduceOutput}. */
export interface ReducedOutput {
  /** The command, shortened to about 1 KiB (a cut argument ends with `…`). */
  argv: string[];
  /** False when `argv` was shortened. */
  argvComplete: boolean;
  /** The exit code exactly as given. */
  exitCode: number | null;
  /** The signal exactly as given (present only when given). */
  signal?: string | null;
  /** `captureComplete` exactly as given. */
  captureComplete: boolean;
  /** True when every line of both streams is shown whole and nothing was dropped. */
  complete: boolean;
  /** Standard output, reduced. */
  stdout: ReducedOutputStream;
  /** Standard error, reduced. */
  stderr: ReducedOutputStream;
  /** The raw streams, kept in the store: recover them with `recoverOutput(artifact.id, …)`. */
  artifact: { id: string; stdoutSha256: string; stderrSha256: string };
}

interface Input {
  argv: string[];
  exitCode: number | null;
  signal: string | null | undefined;
  stdout: Uint8Array;
  stderr: Uint8Array;
  captureComplete: boolean;
}

const encoder = /* @__PURE__ */ new TextEncoder();

/**
 * Reduces a command's output to what matters for fixing it, under a byte budget, and keeps the
 * raw output. Lines are kept best first (see `docs/context.md` for the classifier): a runner's
 * totals and the last lines of each stream, then errors and failures, then the lines around
 * them (the test's name, assertion diffs, code frames), then stack frames and warnings, then the
 * first lines, then the rest in order while it fits. Everything left out is listed as line
 * ranges per stream. The exit code, signal and `captureComplete` are passed through as given.
 *
 * Both raw streams (at most 8 MiB in all: past that, each stream keeps its end, and the cut
 * start is counted in `droppedBytes`) are stored in `store` under an id derived from their
 * SHA-256 hashes, before the reduction is returned; `recoverOutput` gives them back byte for byte.
 * @throws HarnessConfigError for malformed output or options (a budget below {@link MIN_REDUCED_OUTPUT_BUDGET}).
 * @throws OutputArtifactError `store_failed` when the store throws.
 * @example
 * ```ts
 * const reduced = await reduceOutput({ argv: ['npm', 'test'], exitCode: 1, stdout, stderr, captureComplete: true }, { budget: 16_384, store });
 * console.log(JSON.stringify(reduced)); // at most 16 384 bytes, the failing test's lines first
 * ```
 */
export async function reduceOutput(output: CommandOutput, options: ReduceOutputOptions): Promise<ReducedOutput> {
  const input = readInput(output);
  const { budget, store } = readOptions(options);
  const kept = keepWithinCap(input.stdout, input.stderr);
  const hashes = await hashOutputStreams(kept);
  await callStore('store an artifact', () => store.put(hashes.id, kept));

  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const indexes = [indexLines(decoder.decode(kept.stdout)), indexLines(decoder.decode(kept.stderr))] as const;
  const { argv, argvComplete } = shortenArgv(input.argv);
  const dropped = [input.stdout.byteLength - kept.stdout.byteLength, input.stderr.byteLength - kept.stderr.byteLength] as const;
  const build = (selection: LineSelection | undefined): ReducedOutput => {
    const stdout = buildStream(indexes[0], selection?.kept[0], input.stdout.byteLength, dropped[0]);
    const stderr = buildStream(indexes[1], selection?.kept[1], input.stderr.byteLength, dropped[1]);
    return {
      argv,
      argvComplete,
      exitCode: input.exitCode,
      ...(input.signal === undefined ? {} : { signal: input.signal }),
      captureComplete: input.captureComplete,
      complete: stdout.complete && stderr.complete,
      stdout: stdout.stream,
      stderr: stderr.stream,
      artifact: { id: hashes.id, stdoutSha256: hashes.stdoutSha256, stderrSha256: hashes.stderrSha256 },
    };
  };

  const frame = serialisedBytes(build(undefined));
  if (frame > budget) throw new HarnessConfigError(`budget ${String(budget)} is too small for this result's frame (${String(frame)} bytes).`, { field: 'budget' });
  const selection = selectLines(
    indexes.map((index) => ({ index, ranks: rankLines(index) })),
    budget - frame,
  );
  // The costs are upper bounds, so this holds at once; the check makes the budget a guarantee.
  let result = build(selection);
  while (serialisedBytes(result) > budget) {
    dropLastAdded(selection, Math.max(1, Math.ceil(selection.order.length / 8)));
    result = build(selection);
  }
  return result;
}

function serialisedBytes(value: unknown): number {
  return encoder.encode(JSON.stringify(value)).byteLength;
}

/** Shown blocks and omitted ranges of one stream; `complete` when all lines are shown uncut and nothing was dropped. */
function buildStream(index: LineIndex, kept: Uint8Array | undefined, bytes: number, droppedBytes: number): { stream: ReducedOutputStream; complete: boolean } {
  const shown: ReducedOutputBlock[] = [];
  const omitted: Array<[number, number]> = [];
  let cut = false;
  for (let k = 0; k < index.count; ) {
    const keep = kept?.[k] === 1;
    let end = k;
    while (end < index.count && (kept?.[end] === 1) === keep) end += 1;
    if (keep) {
      const lines: string[] = [];
      for (let line = k; line < end; line += 1) {
        if (!cut && screenLine(rawLine(index, line)).length > MAX_SHOWN_LINE_CHARS) cut = true;
        lines.push(shownText(index, line));
      }
      shown.push({ from: k + 1, to: end, text: lines.join('\n') });
    } else omitted.push([k + 1, end]);
    k = end;
  }
  return { stream: { bytes, droppedBytes, lines: index.count, shown, omitted }, complete: omitted.length === 0 && !cut && droppedBytes === 0 };
}

/** Both streams within 8 MiB in all: a stream under half keeps everything, the other keeps its end in the rest. */
function keepWithinCap(stdout: Uint8Array, stderr: Uint8Array): OutputStreams {
  const total = stdout.byteLength + stderr.byteLength;
  if (total <= MAX_OUTPUT_ARTIFACT_BYTES) return { stdout, stderr };
  const half = MAX_OUTPUT_ARTIFACT_BYTES / 2;
  const stderrShare = stdout.byteLength <= half ? MAX_OUTPUT_ARTIFACT_BYTES - stdout.byteLength : Math.min(stderr.byteLength, half);
  const stdoutShare = MAX_OUTPUT_ARTIFACT_BYTES - stderrShare;
  return { stdout: stdout.subarray(stdout.byteLength - Math.min(stdoutShare, stdout.byteLength)), stderr: stderr.subarray(stderr.byteLength - Math.min(stderrShare, stderr.byteLength)) };
}

/** `argv` while its JSON fits {@link MAX_ARGV_BYTES}; the first argument that does not fit is cut and ends with `…`. */
function shortenArgv(argv: readonly string[]): { argv: string[]; argvComplete: boolean } {
  const shown: string[] = [];
  let used = 2;
  for (const [position, arg] of argv.entries()) {
    const comma = position > 0 ? 1 : 0;
    const cost = jsonStringBytes(arg) + 2 + comma;
    if (used + cost <= MAX_ARGV_BYTES) {
      shown.push(arg);
      used += cost;
      continue;
    }
    const room = MAX_ARGV_BYTES - used - comma - 2 - 3;
    if (room > 0) shown.push(`${jsonPrefix(arg, room)}…`);
    return { argv: shown, argvComplete: false };
  }
  return { argv: shown, argvComplete: true };
}

/** A checked copy of the output (so later changes by the caller cannot reach the stored bytes); what throws while read is a config error too. */
function readInput(output: CommandOutput): Input {
  try {
    return checkInput(output);
  } catch (error) {
    if (HarnessConfigError.isInstance(error)) throw error;
    throw new HarnessConfigError('reduceOutput could not read { argv, exitCode, stdout, stderr, captureComplete }.', { cause: error });
  }
}

function checkInput(output: CommandOutput): Input {
  const { argv, exitCode, signal, stdout, stderr, captureComplete } = output as Partial<Record<keyof CommandOutput, unknown>>;
  if (!Array.isArray(argv)) throw new HarnessConfigError('argv must be an array of strings.', { field: 'argv' });
  const args: string[] = [];
  for (let position = 0; position < argv.length; position += 1) {
    const arg: unknown = argv[position];
    if (typeof arg !== 'string') throw new HarnessConfigError(`argv[${String(position)}] must be a string.`, { field: 'argv' });
    args.push(arg);
  }
  if (exitCode !== null && !Number.isSafeInteger(exitCode)) throw new HarnessConfigError('exitCode must be an integer or null.', { field: 'exitCode' });
  if (signal !== undefined && signal !== null && (typeof signal !== 'string' || !SIGNAL_NAME.test(signal))) {
    throw new HarnessConfigError('signal must be a signal name such as SIGTERM, or null.', { field: 'signal' });
  }
  if (typeof captureComplete !== 'boolean') throw new HarnessConfigError('captureComplete must be a boolean.', { field: 'captureComplete' });
  return { argv: args, exitCode: exitCode as number | null, signal: signal as string | null | undefined, stdout: readStream(stdout, 'stdout'), stderr: readStream(stderr, 'stderr'), captureComplete };
}

function readStream(value: unknown, field: string): Uint8Array {
  if (typeof value === 'string') return encoder.encode(value);
  if (value instanceof Uint8Array) return value.slice();
  throw new HarnessConfigError(`${field} must be a string or a Uint8Array.`, { field });
}

function readOptions(options: ReduceOutputOptions): { budget: number; store: OutputArtifactStore } {
  const budget: unknown = options?.budget;
  if (typeof budget !== 'number' || !Number.isSafeInteger(budget) || budget < MIN_REDUCED_OUTPUT_BUDGET) {
    throw new HarnessConfigError(`budget must be an integer of at least ${String(MIN_REDUCED_OUTPUT_BUDGET)} bytes.`, { field: 'budget' });
  }
  return { budget, store: checkStore(options.store) };
}
