import * as v from '../../shared/validation/index.js';
import { memo } from '../../shared/schemas/lazy-schema.js';

/** Longest id (thread, turn, item) accepted from the engine. */
const MAX_ID = 512;

/**
 * The parts of codex app-server messages (protocol v2, codex 0.171) this client reads, built on
 * first use. Unknown fields are dropped; a message that does not match is ignored, never trusted.
 */
export const codexSchemas = /* @__PURE__ */ memo(() => {
  const id = v.string().check(v.minLength(1), v.maxLength(MAX_ID));
  const text = v.string();
  const optionalText = v.optional(v.nullable(v.string()));
  const count = v.number().check(v.gte(0));

  const threadResult = v.object({ thread: v.object({ id }) });
  const turnResult = v.object({ turn: v.object({ id }) });
  const turnCompleted = v.object({
    threadId: id,
    turn: v.object({
      id,
      status: v.string(),
      error: v.optional(v.nullable(v.object({ message: v.string() }))),
    }),
  });
  const item = v.object({
    type: v.string(),
    id,
    text: v.optional(v.string()),
    command: optionalText,
    status: v.optional(v.string()),
    tool: optionalText,
    server: optionalText,
    changes: v.optional(v.array(v.object({ path: v.string() }))),
  });
  const itemEvent = v.object({ threadId: id, turnId: id, item });
  const agentDelta = v.object({ threadId: id, turnId: id, itemId: id, delta: text });
  const plan = v.object({
    threadId: id,
    turnId: id,
    plan: v.array(v.object({ step: v.string(), status: v.string() })),
  });
  const breakdown = v.object({
    inputTokens: count,
    outputTokens: count,
    cachedInputTokens: v.optional(count),
    reasoningOutputTokens: v.optional(count),
  });
  const tokenUsage = v.object({ threadId: id, turnId: id, tokenUsage: v.object({ last: breakdown }) });
  const error = v.object({
    threadId: id,
    turnId: id,
    willRetry: v.boolean(),
    error: v.object({ message: v.string() }),
  });
  const commandApproval = v.object({
    threadId: id,
    turnId: id,
    itemId: id,
    command: optionalText,
    cwd: optionalText,
    reason: optionalText,
  });
  const fileChangeApproval = v.object({
    threadId: id,
    turnId: id,
    itemId: id,
    reason: optionalText,
    grantRoot: optionalText,
  });
  return { threadResult, turnResult, turnCompleted, itemEvent, agentDelta, plan, tokenUsage, error, commandApproval, fileChangeApproval };
});

/** A decision codex accepts for a command or file-change approval request. */
export type CodexApprovalDecision = 'accept' | 'acceptForSession' | 'decline' | 'cancel';
