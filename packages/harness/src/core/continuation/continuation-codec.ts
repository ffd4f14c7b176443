import { continuationSchema } from '../schemas/continuation-schema.js';
import { formatIssues } from '../../shared/schemas/format-issues.js';
import type {
  HarnessContinuation,
  HarnessContinuationState,
  HarnessContinuationType,
  HarnessResumeOptions,
} from '../types/continuation.js';
import type { HarnessClock } from '../types/config.js';
import { createHmacSigner, type HmacSigner } from './hmac-signer.js';
import { stableStringify } from './stable-stringify.js';

/** The only continuation format version this release reads and writes. */
export const CONTINUATION_VERSION = 1;

/** Options of `createContinuationCodec`. */
export interface ContinuationCodecOptions {
  secret?: string;
  ttlMs?: number;
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

/** The outcome of opening a continuation: the verified value, or why it was refused. */
export type OpenedContinuation =
  | { ok: true; continuation: HarnessContinuation }
  | { ok: false; reason: string };

/** Creates, signs, validates and verifies continuations. */
export interface ContinuationCodec {
  seal(draft: ContinuationDraft): Promise<HarnessContinuation>;
  open(raw: unknown, options?: Pick<HarnessResumeOptions, 'expectedTurnId' | 'expectedSessionId'>): Promise<OpenedContinuation>;
}

/** Builds the codec used by a harness instance. */
export function createContinuationCodec(options: ContinuationCodecOptions): ContinuationCodec {
  const signer: HmacSigner | undefined = options.secret === undefined ? undefined : createHmacSigner(options.secret);
  return {
    async seal(draft) {
      const createdAtMs = options.clock.now();
      const continuation: HarnessContinuation = {
        version: CONTINUATION_VERSION,
        id: options.generateId(),
        type: draft.type,
        turnId: draft.turnId,
        ...(draft.sessionId === undefined ? {} : { sessionId: draft.sessionId }),
        createdAt: new Date(createdAtMs).toISOString(),
        ...(options.ttlMs === undefined ? {} : { expiresAt: new Date(createdAtMs + options.ttlMs).toISOString() }),
        resumeToken: options.generateId(),
        state: JSON.parse(JSON.stringify(draft.state)) as HarnessContinuationState,
      };
      if (signer !== undefined) continuation.signature = await signer.sign(stableStringify(continuation));
      return continuation;
    },
    async open(raw, expectations = {}) {
      const value = typeof raw === 'string' ? parseJson(raw) : raw;
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        return { ok: false, reason: 'The continuation is not a JSON object.' };
      }
      const version = (value as { version?: unknown }).version;
      if (version !== CONTINUATION_VERSION) {
        return { ok: false, reason: `Unsupported continuation version ${JSON.stringify(version)}; expected ${CONTINUATION_VERSION}.` };
      }
      if (signer !== undefined) {
        const { signature, ...unsigned } = value as { signature?: unknown };
        if (typeof signature !== 'string') return { ok: false, reason: 'The continuation is not signed.' };
        if (!(await signer.verify(stableStringify(unsigned), signature))) {
          return { ok: false, reason: 'The continuation signature does not match; it was altered or signed with another secret.' };
        }
      }
      const parsed = continuationSchema.safeParse(value);
      if (!parsed.success) {
        return { ok: false, reason: `The continuation is malformed: ${formatIssues(parsed.error.issues)}.` };
      }
      const continuation = parsed.data as HarnessContinuation;
      if (continuation.expiresAt !== undefined) {
        const expiresAtMs = Date.parse(continuation.expiresAt);
        if (!Number.isFinite(expiresAtMs) || options.clock.now() >= expiresAtMs) {
          return { ok: false, reason: `The continuation expired at ${continuation.expiresAt}.` };
        }
      }
      if (expectations.expectedTurnId !== undefined && continuation.turnId !== expectations.expectedTurnId) {
        return { ok: false, reason: `The continuation belongs to turn ${continuation.turnId}, not ${expectations.expectedTurnId}.` };
      }
      if (expectations.expectedSessionId !== undefined && continuation.sessionId !== expectations.expectedSessionId) {
        return { ok: false, reason: 'The continuation belongs to another session.' };
      }
      return { ok: true, continuation };
    },
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
