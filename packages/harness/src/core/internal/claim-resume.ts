import type { HarnessContinuation, HarnessResumeGuard } from '../types/continuation.js';
import { describeError } from '../../shared/describe-error.js';
import { isTurnInterrupted, raceSignal, type TurnSignal } from './turn-signal.js';

/** The `error.code` of a refused claim (stop reason `continuation_invalid`). */
export type ResumeClaimCode =
  | 'continuation_already_resumed'
  | 'resume_claim_failed'
  | 'resume_claim_timeout'
  | 'resume_claim_cancelled'
  | 'resume_claim_invalid';

/** Whether a resume may go on, or why the guard refused it. */
export type ResumeClaim = { ok: true } | { ok: false; code: ResumeClaimCode; reason: string; retryable: boolean };

/**
 * Asks the resume guard for the one claim on a verified continuation, racing it against the
 * turn's signal (its `maxElapsedMs` deadline and the caller's signal). Fails closed: a claim that
 * resolves anything but `true`, throws, or is still pending when the signal fires refuses the
 * resume. A claim that threw, or that settles after the resume gave up on it, is handed to the
 * guard's `release` (when it has one): nothing of the turn ran under it.
 */
export async function claimResume(guard: HarnessResumeGuard, continuation: HarnessContinuation, turn: TurnSignal): Promise<ResumeClaim> {
  let pending: Promise<unknown>;
  try {
    pending = Promise.resolve(guard.claim(continuation));
  } catch (error) {
    pending = Promise.reject(error);
  }
  let claimed: unknown;
  try {
    claimed = await raceSignal(() => pending, turn.signal);
  } catch (error) {
    if (isTurnInterrupted(error)) {
      pending.then(
        (late) => (late === true ? release(guard, continuation) : undefined),
        () => release(guard, continuation),
      );
      return turn.interruptReason() === 'timeout'
        ? refuse(
            'resume_claim_timeout',
            `resumeGuard.claim did not answer within the turn's maxElapsedMs, so continuation ${continuation.id} was not resumed; nothing ran, and resuming it again is safe.`,
            true,
          )
        : refuse('resume_claim_cancelled', `The resume was cancelled while resumeGuard.claim was pending, so continuation ${continuation.id} was not resumed.`, true);
    }
    release(guard, continuation);
    return refuse(
      'resume_claim_failed',
      `resumeGuard.claim failed for continuation ${continuation.id}, so it was not resumed: ${describeError(error)}`,
      true,
    );
  }
  if (claimed === true) return { ok: true };
  if (claimed === false) {
    return refuse(
      'continuation_already_resumed',
      `Continuation ${continuation.id} was already resumed (resumeGuard refused a second claim); a continuation ` +
        'resumes once. Resume the continuation of the result that resumed it, if that turn paused again.',
      false,
    );
  }
  return refuse(
    'resume_claim_invalid',
    `resumeGuard.claim must resolve to true or false, but resolved to ${claimed === null ? 'null' : typeof claimed}; the resume was refused.`,
    false,
  );
}

function refuse(code: ResumeClaimCode, reason: string, retryable: boolean): ResumeClaim {
  return { ok: false, code, reason, retryable };
}

/** Hands back a claim nothing ran under; whatever the guard's `release` does (or throws) stays with it. */
function release(guard: HarnessResumeGuard, continuation: HarnessContinuation): void {
  try {
    const released = typeof guard.release === 'function' ? guard.release(continuation) : undefined;
    Promise.resolve(released).catch(() => undefined);
  } catch {
    // A release that throws leaves the claim in place until it expires: still never a second run.
  }
}
