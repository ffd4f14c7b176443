import { continuationSchema } from '../schemas/continuation-schema.js';
import { formatIssues } from '../../shared/schemas/format-issues.js';
import type {
  HarnessContinuation,
  HarnessContinuationState,
  HarnessContinuationType,
  HarnessResumeOptions,
} from '../types/continuation.js';
import type { HarnessClock } from '../types/config.js';
import { createHmacSigner, processHmacSigner, type HmacSigner } from './hmac-signer.js';
import { readContinuation } from './read-continuation.js';
import { SHRINK_STEPS, shrinkState } from './shrink-state.js';
import { stableStringify } from './stable-stringify.js';
import { MAX_CONTINUATION_DEPTH, toPlainJson } from './to-plain-json.js';
import { utf8ByteLength } from './utf8-byte-length.js';

/** The only continuation format version this release reads and writes. */
export const CONTINUATION_VERSION = 1;

/** Options of `createContinuationCodec`. */
export interface ContinuationCodecOptions {
  /**
   * `continuationSecret` as a rotation list: the first signs, any verifies. Without it,
   * continuations are signed with a random per-process key (or not at all with `unsigned: 'allow'`).
   */
  secrets?: readonly string[];
  /** `unsignedContinuations`: accept continuations without a signature, and seal unsigned ones when there is no secret. */
  unsigned?: 'allow';
  ttlMs?: number;
  /** `limits.maxContinuationBytes`: the UTF-8 size of a sealed continuation's JSON never exceeds it. */
  maxBytes: number;
  clock: HarnessClock;
  generateId: () => string;
}

/** Fields a caller supplies to seal a continuation. */
export interface ContinuationDraft {
  type: HarnessContinuationType;
  turnId: string;
  sessionId?: string;
  state: HarnessContinuationState;
}

/** The outcome of sealing: the continuation, or why none fits the limits. */
export type SealedContinuation =
  | { ok: true; continuation: HarnessContinuation }
  | { ok: false; code: 'continuation_too_large' | 'continuation_seal_failed'; reason: string };

/** The outcome of opening a continuation: the verified value, or why it was refused. */
export type OpenedContinuation =
  | { ok: true; continuation: HarnessContinuation }
  | { ok: false; reason: string; turnId?: string; sessionId?: string };

/** Creates, signs, validates and verifies continuations. */
export interface ContinuationCodec {
  seal(draft: ContinuationDraft): Promise<SealedContinuation>;
  open(raw: unknown, options?: Pick<HarnessResumeOptions, 'expectedTurnId' | 'expectedSessionId'>): Promise<OpenedContinuation>;
}

/** Builds the codec used by a harness instance. */
export function createContinuationCodec(options: ContinuationCodecOptions): ContinuationCodec {
  const signing = signingOf(options);
  const signer = signing.signer;
  return {
    seal: (draft) => seal(options, signer, draft),
    async open(raw, expectations = {}) {
      const read = readContinuation(raw, options.maxBytes);
      if (!read.ok) return read;
      const value = read.value;
      const refuse = (reason: string): OpenedContinuation => ({ ok: false, reason, ...identity(value) });
      if (value.version !== CONTINUATION_VERSION) {
        return refuse(`Unsupported continuation version ${JSON.stringify(value.version)}; expected ${CONTINUATION_VERSION}.`);
      }
      const { signature, ...unsigned } = value;
      if (signature === undefined) {
        if (options.unsigned !== 'allow') return refuse(UNSIGNED_REASON);
      } else if (signer !== undefined) {
        if (typeof signature !== 'string' || !(await signer.verify(stableStringify(unsigned), signature))) {
          return refuse(signing.mismatchReason);
        }
      }
      const parsed = continuationSchema.safeParse(value);
      if (!parsed.success) return refuse(`The continuation is malformed: ${formatIssues(parsed.error.issues)}.`);
      const continuation = parsed.data as HarnessContinuation;
      if (continuation.expiresAt !== undefined) {
        const expiresAtMs = Date.parse(continuation.expiresAt);
        if (!Number.isFinite(expiresAtMs) || options.clock.now() >= expiresAtMs) {
          return refuse(`The continuation expired at ${continuation.expiresAt}.`);
        }
      }
      if (expectations.expectedTurnId !== undefined && continuation.turnId !== expectations.expectedTurnId) {
        return refuse(`The continuation belongs to turn ${continuation.turnId}, not ${expectations.expectedTurnId}.`);
      }
      if (expectations.expectedSessionId !== undefined && continuation.sessionId !== expectations.expectedSessionId) {
        return refuse('The continuation belongs to another session.');
      }
      return { ok: true, continuation };
    },
  };
}

const SAME_SECRET = 'Configure the same continuationSecret on the harness that pauses and the one that resumes';

const UNSIGNED_REASON =
  `The continuation is not signed, and this harness refuses unsigned continuations. ${SAME_SECRET}, ` +
  "or set unsignedContinuations: 'allow' if continuations only ever come from your own trusted store.";

interface Signing {
  signer: HmacSigner | undefined;
  mismatchReason: string;
}

function signingOf(options: ContinuationCodecOptions): Signing {
  if (options.secrets !== undefined && options.secrets.length > 0) {
    return {
      signer: createHmacSigner(options.secrets),
      mismatchReason:
        'The continuation signature does not match: it was altered, or signed with a secret this harness does not have. ' +
        `${SAME_SECRET} (during a rotation, list the previous secret after the current one).`,
    };
  }
  if (options.unsigned === 'allow') return { signer: undefined, mismatchReason: '' };
  return {
    signer: processHmacSigner(),
    mismatchReason:
      'The continuation signature does not match this process. No continuationSecret is configured, so continuations ' +
      'are signed with a random key made for this process and resume only in the process that paused them: this one ' +
      `comes from another process (or an earlier run), or was altered. ${SAME_SECRET}.`,
  };
}

async function seal(
  options: ContinuationCodecOptions,
  signer: HmacSigner | undefined,
  draft: ContinuationDraft,
): Promise<SealedContinuation> {
  // The state is below the continuation object, so it gets one level less.
  const copied = toPlainJson(draft.state, { maxBytes: Number.MAX_SAFE_INTEGER, maxDepth: MAX_CONTINUATION_DEPTH - 1 });
  if (!copied.ok) {
    return { ok: false, code: 'continuation_seal_failed', reason: `The paused turn's state cannot be carried in a continuation: ${copied.reason}.` };
  }
  const state = copied.value as HarnessContinuationState;
  const createdAtMs = options.clock.now();
  const header = {
    version: CONTINUATION_VERSION,
    id: options.generateId(),
    type: draft.type,
    turnId: draft.turnId,
    ...(draft.sessionId === undefined ? {} : { sessionId: draft.sessionId }),
    createdAt: new Date(createdAtMs).toISOString(),
    ...(options.ttlMs === undefined ? {} : { expiresAt: new Date(createdAtMs + options.ttlMs).toISOString() }),
    resumeToken: options.generateId(),
  } as const;
  let smallest = Number.POSITIVE_INFINITY;
  for (const step of SHRINK_STEPS) {
    const continuation: HarnessContinuation = { ...header, state: shrinkState(state, step) };
    // Unsigned size first: a signature only adds, so a draft already too large is not signed.
    if (!fits(JSON.stringify(continuation), options.maxBytes)) continue;
    if (signer !== undefined) continuation.signature = await signer.sign(stableStringify(continuation));
    const json = JSON.stringify(continuation);
    if (fits(json, options.maxBytes)) return { ok: true, continuation };
    smallest = Math.min(smallest, utf8ByteLength(json));
  }
  if (!Number.isFinite(smallest)) {
    const last: HarnessContinuation = { ...header, state: shrinkState(state, SHRINK_STEPS[SHRINK_STEPS.length - 1]!) };
    smallest = utf8ByteLength(JSON.stringify(last));
  }
  return {
    ok: false,
    code: 'continuation_too_large',
    reason:
      `The paused turn needs a continuation of at least ${smallest} bytes, over limits.maxContinuationBytes ` +
      `(${options.maxBytes}), even with the carried history shortened; the turn input, pending tool calls and ` +
      'approval requests cannot be shortened.',
  };
}

/** Whether JSON text fits in `maxBytes` as UTF-8. UTF-8 never takes fewer bytes than UTF-16 code units. */
function fits(json: string, maxBytes: number): boolean {
  return json.length <= maxBytes && utf8ByteLength(json) <= maxBytes;
}

function identity(value: Record<string, unknown>): { turnId?: string; sessionId?: string } {
  return {
    ...(typeof value.turnId === 'string' ? { turnId: value.turnId } : {}),
    ...(typeof value.sessionId === 'string' ? { sessionId: value.sessionId } : {}),
  };
}
