import * as v from '../../shared/validation/index.js';
import * as fs from 'node:fs/promises';
import { dirname } from 'node:path';
import { createHmacSigner } from '../../core/continuation/hmac-signer.js';
import { stableStringify } from '../../core/continuation/stable-stringify.js';
import { MAX_CONTINUATION_DEPTH, toPlainJson } from '../../core/continuation/to-plain-json.js';
import { formatIssues } from '../../shared/schemas/format-issues.js';
import { lazySchema } from '../../shared/schemas/lazy-schema.js';
import { writeFileAtomic } from '../../shared/write-file-atomic.js';
import type { HarnessContinuation } from '../../core/types/continuation.js';
import { CONTINUATION_SECRET_ENV } from './continuation-secret.js';
import { usageError } from './cli-usage-error.js';
import { parseJsonText } from './parse-json-text.js';
import { readCliFile } from './read-cli-file.js';
import { runSettingsSchema, type RunSettings } from './run-settings.js';

/**
 * What `--continuation-out` writes: the signed continuation, how to run it again, and a signature
 * over both, made with the continuation secret.
 */
export interface ContinuationFile {
  format: 'agent-assistant-continuation';
  version: 2;
  settings: RunSettings;
  /** The harness's continuation, as signed; `resumeTurn` verifies it. */
  continuation: unknown;
  /** HMAC-SHA-256 (base64url) of everything above, so no part of the file can be changed unseen. */
  signature: string;
}

/** The largest continuation file read: 4 MiB. */
export const MAX_CONTINUATION_FILE_BYTES = 4 * 1024 * 1024;

const FORMAT = 'agent-assistant-continuation';
const VERSION = 2;
/** Signed before the file's JSON, so a file signature can never stand for a continuation's own. */
const SIGNING_CONTEXT = 'agent-assistant continuation file\n';
const REWRITE = 'Pass the file `run --continuation-out` wrote.';

const envelopeSchema = /* @__PURE__ */ lazySchema(() =>
  v.strictObject({
    format: v.literal(FORMAT),
    version: v.literal(VERSION),
    settings: v.unknown(),
    continuation: v.unknown(),
    signature: v.string().check(v.minLength(1), v.maxLength(128)),
  }),
);

const signedText = (body: unknown) => `${SIGNING_CONTEXT}${stableStringify(body)}`;

/**
 * Writes the continuation file atomically and durably (a temporary file flushed to disk, then a
 * rename, then the folder flushed), readable by the owner only.
 */
export async function writeContinuationFile(
  path: string,
  settings: RunSettings,
  continuation: HarnessContinuation,
  secret: string,
): Promise<void> {
  // Signed as it will be read back: the JSON round trip is what `readContinuationFile` sees.
  const body = JSON.parse(JSON.stringify({ format: FORMAT, version: VERSION, settings, continuation })) as Omit<ContinuationFile, 'signature'>;
  const file: ContinuationFile = { ...body, signature: await createHmacSigner([secret]).sign(signedText(body)) };
  await writeFileAtomic(fs, path, dirname(path), `${JSON.stringify(file, null, 2)}\n`, 0o600);
}

/**
 * Reads a continuation file and checks its signature with `secret` before anything in it is used:
 * the settings (what runs, which tools need approval) and the continuation are taken only as
 * `run` wrote them. The continuation itself is checked again by `resumeTurn` (signature, expiry,
 * shape, resume once).
 * @throws HarnessConfigError (a usage error, exit 2) saying what is wrong with the file; nothing has run.
 */
export async function readContinuationFile(path: string, secret: string): Promise<ContinuationFile> {
  const named = `The continuation file ${JSON.stringify(path)}`;
  const text = await readCliFile(path, {
    what: 'the continuation file',
    field: 'continuation',
    maxBytes: MAX_CONTINUATION_FILE_BYTES,
    hint: REWRITE,
  });
  const parsed = parseJsonText(text, named, 'continuation', REWRITE);
  // Bounded plain data first: nothing below recurses into a file nested without limit.
  const plain = toPlainJson(parsed, { maxBytes: MAX_CONTINUATION_FILE_BYTES, maxDepth: MAX_CONTINUATION_DEPTH + 2 });
  if (!plain.ok) throw usageError(`${named} cannot be read: ${plain.reason}. ${REWRITE}`, 'continuation');
  const version = (plain.value as { version?: unknown } | null)?.version;
  if (version === 1) {
    throw usageError(
      `${named} was written by an earlier agent-assistant, without a signature over its settings; it cannot be resumed safely. Run the turn again.`,
      'continuation',
    );
  }
  const envelope = envelopeSchema.safeParse(plain.value);
  if (!envelope.success) {
    throw usageError(`${named} is not an agent-assistant continuation file (${formatIssues(envelope.error.issues)}). ${REWRITE}`, 'continuation');
  }
  const { signature, ...body } = envelope.data;
  if (!(await createHmacSigner([secret]).verify(signedText(body), signature))) {
    throw usageError(
      `${named} does not match its signature: it was changed after \`run\` wrote it, or written with another ${CONTINUATION_SECRET_ENV} or key file (\`agent-assistant secret init\`). Nothing was run.`,
      'continuation',
    );
  }
  const settings = runSettingsSchema.safeParse(body.settings);
  if (!settings.success) {
    throw usageError(`${named} has invalid settings (${formatIssues(settings.error.issues, 'settings')}).`, 'continuation');
  }
  return { format: FORMAT, version: VERSION, settings: settings.data, continuation: body.continuation, signature };
}
