import { HarnessError, type HarnessErrorOptions } from '../../core/errors/harness-error.js';
import { hasErrorMarker } from '../../core/errors/has-error-marker.js';

const marker = Symbol.for('agent-assistant.error.ContextPacketError');

/**
 * Why no packet was built:
 * - `invalid_manifest` — the manifest is malformed, over 256 KiB, has a duplicate id or a refused path;
 * - `unknown_dependency` — a `dependsOn` names no selection (`details.id`, `details.dependency`);
 * - `dependency_cycle` — `dependsOn` goes round (`details.cycle`: the ids, the first repeated at the end);
 * - `required_unavailable` — a required selection, or one it depends on, cannot be read
 *   (`details.id`, `details.path`, `details.cause`: an omission reason, `details.requiredBy`);
 * - `over_budget` — the required selections and what they depend on, with every other selection
 *   listed as omitted, do not fit (`details.id`: the first required one that passes the budget,
 *   `details.neededBytes`, `details.budget`, `details.overBy`);
 * - `cache_unavailable` — `cacheDir` cannot be used (not Node.js, not a private directory, not writable).
 */
export type ContextPacketErrorReason =
  | 'invalid_manifest'
  | 'unknown_dependency'
  | 'dependency_cycle'
  | 'required_unavailable'
  | 'over_budget'
  | 'cache_unavailable';

/** Facts of a {@link ContextPacketError}; which are set depends on the reason. */
export interface ContextPacketErrorDetails {
  /** The selection the error is about. */
  id?: string | undefined;
  /** Its normalised path. */
  path?: string | undefined;
  /** `unknown_dependency`: the id that names no selection. */
  dependency?: string | undefined;
  /** `dependency_cycle`: the ids of the cycle, the first repeated at the end. */
  cycle?: string[] | undefined;
  /** `required_unavailable`: why it cannot be read (an omission reason). */
  cause?: string | undefined;
  /** `required_unavailable`: the required selection that needs it (when it is not required itself). */
  requiredBy?: string | undefined;
  /** `invalid_manifest`: where in the manifest, e.g. `selections.2.path`. */
  field?: string | undefined;
  /** `over_budget`: bytes the smallest packet with every required selection takes. */
  neededBytes?: number | undefined;
  /** `over_budget`: the budget. */
  budget?: number | undefined;
  /** `over_budget`: `neededBytes - budget`. */
  overBy?: number | undefined;
}

/** A context packet could not be built; nothing partial was produced. */
export class ContextPacketError extends HarnessError {
  /** What went wrong; also the `error.code` the `context_packet` tool returns. */
  readonly reason: ContextPacketErrorReason;
  /** The facts, e.g. `{ id, neededBytes, budget, overBy }` for `over_budget`. */
  readonly details: Readonly<ContextPacketErrorDetails>;
  constructor(reason: ContextPacketErrorReason, message: string, details: ContextPacketErrorDetails = {}, options: HarnessErrorOptions = {}) {
    super('HARNESS_ERR_CONTEXT_PACKET', message, options);
    Object.defineProperty(this, marker, { value: true });
    this.name = 'ContextPacketError';
    this.reason = reason;
    this.details = Object.freeze({ ...details });
  }

  /** True for any `ContextPacketError`, even one from another copy of this package. */
  static override isInstance(value: unknown): value is ContextPacketError {
    return hasErrorMarker(value, marker);
  }
}
