import * as v from '../../shared/validation/index.js';
import type { ExecutionContinuation } from '../../execution/types.js';
import { lazySchema } from '../../shared/schemas/lazy-schema.js';

/** What a paused turn's continuation keeps (in `state`, beside the protocol's own) to find its approval request again. */
export interface PausedTurnState {
  /** The pool key of the live session. */
  poolKey: string;
  /** The live session that asked (a later one under the same key has another id). */
  instanceId: string;
  /** The key the caller's decision is filed under. */
  approvalKey: string;
  /** The session was opened for this turn only. */
  ephemeral: boolean;
}

const stateSchema = /* @__PURE__ */ lazySchema(() =>
  v.looseObject({
    poolKey: v.string().check(v.maxLength(4_096)),
    instanceId: v.string().check(v.maxLength(64)),
    approvalKey: v.string().check(v.maxLength(512)),
    ephemeral: v.boolean(),
  }),
);

/** The paused-turn state of a continuation of `kind`, or `undefined` when it has none (or it does not validate). */
export function readPausedTurnState(continuation: ExecutionContinuation | undefined, kind: string): PausedTurnState | undefined {
  if (continuation?.kind !== kind) return undefined;
  const parsed = stateSchema.safeParse(continuation.state);
  if (!parsed.success) return undefined;
  const { poolKey, instanceId, approvalKey, ephemeral } = parsed.data;
  return { poolKey, instanceId, approvalKey, ephemeral };
}
