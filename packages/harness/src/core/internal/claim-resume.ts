import type { HarnessContinuation, HarnessResumeGuard } from '../types/continuation.js';
import { describeError } from '../../shared/describe-error.js';
import { raceSignal } from './turn-signal.js';

/** Whether a resume may go on, or why the guard refused it. */
export type ResumeClaim = { ok: true } | { ok: false; reason: string };

/**
 * Asks the resume guard for the one claim on a verified continuation. Fails closed: a claim that
 * resolves anything but `true`, throws, or is still pending when `signal` aborts refuses the resume.
 */
export async function claimResume(
  guard: HarnessResumeGuard,
  continuation: HarnessContinuation,
  signal: AbortSignal | undefined,
): Promise<ResumeClaim> {
  let claimed: unknown;
  try {
    const claim = () => guard.claim(continuation);
    claimed = await (signal === undefined ? Promise.resolve().then(claim) : raceSignal(claim, signal));
  } catch (error) {
    return {
      ok: false,
      reason: `resumeGuard.claim failed for continuation ${continuation.id}, so it was not resumed: ${describeError(error)}`,
    };
  }
  if (claimed === true) return { ok: true };
  if (claimed === false) {
    return {
      ok: false,
      reason:
        `Continuation ${continuation.id} was already resumed (resumeGuard refused a second claim); a continuation ` +
        'resumes once. Resume the continuation of the result that resumed it, if that turn paused again.',
    };
  }
  return {
    ok: false,
    reason: `resumeGuard.claim must resolve to true or false, but resolved to ${claimed === null ? 'null' : typeof claimed}; the resume was refused.`,
  };
}
