import type { HarnessOutcome } from '../../core/types/outcome.js';

/** Exit codes of `agent-assistant`. */
export const EXIT_CODES = /* @__PURE__ */ Object.freeze({
  completed: 0,
  failed: 1,
  usage: 2,
  paused: 3,
  deferred: 4,
  interrupted: 130,
});

/** The exit code of a turn's outcome (an interrupted run exits 130 whatever its outcome). */
export function exitCodeForOutcome(outcome: HarnessOutcome, interrupted: boolean): number {
  if (interrupted) return EXIT_CODES.interrupted;
  switch (outcome) {
    case 'completed':
      return EXIT_CODES.completed;
    case 'needs_clarification':
    case 'awaiting_approval':
      return EXIT_CODES.paused;
    case 'deferred':
      return EXIT_CODES.deferred;
    default:
      return EXIT_CODES.failed;
  }
}
