import * as v from '../../shared/validation/index.js';
import type { ExecutionContinuation } from '../../execution/types.js';
import { lazySchema } from '../../shared/schemas/lazy-schema.js';

/** What a paused ACP turn keeps in its continuation to find its permission request again. */
export interface AcpApprovalState {
  /** The pool key of the live engine. */
  poolKey: string;
  /** The engine process instance that asked. */
  instanceId: string;
  /** The JSON-RPC id of its `session/request_permission`. */
  permissionId: number | string;
  toolCallId: string;
  /** The key the caller's decision is filed under. */
  approvalKey: string;
  /** The session was opened for this turn only (no session or thread id). */
  ephemeral: boolean;
}

const stateSchema = /* @__PURE__ */ lazySchema(() =>
  v.object({
    poolKey: v.string().check(v.maxLength(4_096)),
    instanceId: v.string().check(v.maxLength(64)),
    permissionId: v.union([v.number(), v.string().check(v.maxLength(256))]),
    toolCallId: v.string().check(v.maxLength(1_024)),
    approvalKey: v.string().check(v.maxLength(512)),
    ephemeral: v.boolean(),
  }),
);

/** The approval state of a continuation of `kind`, or `undefined` when it has none (or it does not validate). */
export function readApprovalState(continuation: ExecutionContinuation | undefined, kind: string): AcpApprovalState | undefined {
  if (continuation?.kind !== kind) return undefined;
  const parsed = stateSchema.safeParse(continuation.state);
  return parsed.success ? parsed.data : undefined;
}
