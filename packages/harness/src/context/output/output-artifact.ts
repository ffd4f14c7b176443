import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { describeError } from '../../shared/describe-error.js';
import { OutputArtifactError } from './output-artifact-error.js';

/** Most bytes of command output `reduceOutput` takes and an artifact holds: 8 MiB, stdout and stderr together. */
export const MAX_OUTPUT_ARTIFACT_BYTES = 8 * 1024 * 1024;

/** The two raw streams of one command, as bytes. */
export interface OutputStreams {
  /** Standard output. */
  readonly stdout: Uint8Array;
  /** Standard error. */
  readonly stderr: Uint8Array;
}

/**
 * Where the raw output behind a reduced result is kept. Any runtime can implement it (a KV or
 * object store in a Worker); on Node.js, `createDirectoryOutputStore` keeps artifacts in a private
 * directory. A store only keeps bytes: ids are checked before it is called, and whatever `get`
 * returns is hashed again before anyone uses it, so a store need not be trusted for integrity.
 */
export interface OutputArtifactStore {
  /**
   * Keeps `streams` under `id` (64 lowercase hex characters, derived from the streams' SHA-256).
   * The same id always comes with the same bytes, so storing an id that is already there may
   * keep the copy there.
   */
  put(id: string, streams: OutputStreams): Promise<void>;
  /** The streams kept under `id`, or `undefined` when there are none. */
  get(id: string): Promise<OutputStreams | undefined>;
  /** Where the artifacts are, for people (a directory store gives its directory). @default undefined */
  readonly location?: string | undefined;
}

/** A checked artifact: its streams hash to its id. */
export interface VerifiedOutputArtifact extends OutputStreams {
  /** The artifact id. */
  readonly id: string;
  /** Lowercase hex SHA-256 of `stdout`. */
  readonly stdoutSha256: string;
  /** Lowercase hex SHA-256 of `stderr`. */
  readonly stderrSha256: string;
}

const ARTIFACT_ID = /^[0-9a-f]{64}$/;
const encoder = /* @__PURE__ */ new TextEncoder();

/** Lowercase hex SHA-256 of `bytes`. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** The artifact id of two streams: the SHA-256 of a versioned line naming both streams' hashes. */
export function outputArtifactId(stdoutSha256: string, stderrSha256: string): Promise<string> {
  return sha256Hex(encoder.encode(`agent-assistant output artifact v1\nstdout ${stdoutSha256}\nstderr ${stderrSha256}\n`));
}

/** The hashes and id of two streams. */
export async function hashOutputStreams(streams: OutputStreams): Promise<Omit<VerifiedOutputArtifact, keyof OutputStreams>> {
  const [stdoutSha256, stderrSha256] = await Promise.all([sha256Hex(streams.stdout), sha256Hex(streams.stderr)]);
  return { id: await outputArtifactId(stdoutSha256, stderrSha256), stdoutSha256, stderrSha256 };
}

/**
 * `id` when it is an artifact id (64 lowercase hex characters).
 * @throws OutputArtifactError `invalid_artifact_id` for anything else; the message never repeats the value.
 */
export function checkArtifactId(id: unknown): string {
  if (typeof id !== 'string' || !ARTIFACT_ID.test(id)) {
    throw new OutputArtifactError('invalid_artifact_id', 'Not an output artifact id (64 lowercase hex characters).');
  }
  return id;
}

/** Calls the store, turning what it throws into `store_failed` (typed errors of ours pass through). */
export async function callStore<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (OutputArtifactError.isInstance(error)) throw error;
    throw new OutputArtifactError('store_failed', `The output store failed to ${what}: ${describeError(error, 300)}`, { cause: error });
  }
}

/**
 * Reads an artifact from `store` and checks that its bytes hash to `artifactId`. Works in any
 * runtime (Web Crypto).
 * @throws OutputArtifactError `invalid_artifact_id`, `not_found`, `tampered` or `store_failed`.
 * @throws HarnessConfigError when `store` is not a store.
 * @example
 * ```ts
 * const { stdout, stderr } = await readOutputArtifact(reduced.artifact.id, { store });
 * ```
 */
export async function readOutputArtifact(artifactId: string, options: { store: OutputArtifactStore }): Promise<VerifiedOutputArtifact> {
  const id = checkArtifactId(artifactId);
  const store = checkStore(options?.store);
  const found: unknown = await callStore('read an artifact', () => store.get(id));
  if (found === undefined) throw new OutputArtifactError('not_found', `No output artifact ${id} in the store.`);
  const streams = readStreams(found);
  const hashes = await hashOutputStreams(streams);
  if (hashes.id !== id) throw new OutputArtifactError('tampered', `Output artifact ${id} does not hash to its id: it was changed.`);
  return { ...hashes, stdout: streams.stdout, stderr: streams.stderr };
}

/**
 * The store, when it has `put` and `get`.
 * @throws HarnessConfigError otherwise, naming `field`.
 */
export function checkStore(store: unknown, field = 'store'): OutputArtifactStore {
  try {
    const candidate = store as Partial<OutputArtifactStore> | null | undefined;
    if (typeof candidate === 'object' && candidate !== null && typeof candidate.put === 'function' && typeof candidate.get === 'function') {
      return candidate as OutputArtifactStore;
    }
  } catch {
    // A getter that throws: not a usable store either.
  }
  throw new HarnessConfigError(`${field} must be an output store: an object with put(id, streams) and get(id).`, { field });
}

/** The two byte arrays of what a store returned; anything else (or more bytes than an artifact holds) is `tampered`. */
function readStreams(found: unknown): OutputStreams {
  let stdout: unknown;
  let stderr: unknown;
  try {
    ({ stdout, stderr } = found as OutputStreams);
  } catch (error) {
    throw new OutputArtifactError('tampered', 'The output store returned an unreadable artifact.', { cause: error });
  }
  if (!(stdout instanceof Uint8Array) || !(stderr instanceof Uint8Array) || stdout.byteLength + stderr.byteLength > MAX_OUTPUT_ARTIFACT_BYTES) {
    throw new OutputArtifactError('tampered', 'The output store returned something that is not an output artifact.');
  }
  return { stdout, stderr };
}
