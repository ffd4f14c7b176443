import * as v from '../shared/validation/index.js';
import { lazySchema } from '../shared/schemas/lazy-schema.js';

/** Longest text of one `text_delta`, in characters. */
export const MAX_STREAM_DELTA_CHARS = 1_048_576;
const MAX_LABEL_CHARS = 4_096;
const MAX_COMMAND_CHARS = 65_536;
const MAX_PLAN_ENTRIES = 500;
const MAX_APPROVAL_OPTIONS = 32;

/**
 * The shape of an `ExecutionStreamEvent`, checked by the harness before it streams one. Unknown
 * fields are stripped, so what reaches the caller is exactly the documented shape.
 */
export const executionStreamEventSchema = /* @__PURE__ */ lazySchema(() => {
  const label = v.string().check(v.maxLength(MAX_LABEL_CHARS));
  const kind = v.optional(v.enum(['command', 'edit', 'read', 'search', 'fetch', 'think', 'other']));
  const command = v.optional(v.string().check(v.maxLength(MAX_COMMAND_CHARS)));
  return v.discriminatedUnion('type', [
    v.object({ type: v.literal('text_delta'), text: v.string().check(v.minLength(1), v.maxLength(MAX_STREAM_DELTA_CHARS)) }),
    v.object({
      type: v.literal('tool_activity'),
      phase: v.enum(['started', 'updated', 'finished']),
      toolCallId: label,
      name: label,
      kind,
      command,
      status: v.optional(v.enum(['succeeded', 'failed', 'rejected', 'cancelled'])),
    }),
    v.object({
      type: v.literal('plan_update'),
      entries: v
        .array(
          v.object({
            content: v.string().check(v.maxLength(MAX_COMMAND_CHARS)),
            status: v.enum(['pending', 'in_progress', 'completed']),
            priority: v.optional(v.enum(['high', 'medium', 'low'])),
          }),
        )
        .check(v.maxLength(MAX_PLAN_ENTRIES)),
    }),
    v.object({
      type: v.literal('approval_requested'),
      approvalKey: label,
      title: v.string().check(v.maxLength(MAX_COMMAND_CHARS)),
      toolCallId: v.optional(label),
      kind,
      command,
      options: v.optional(
        v
          .array(
            v.object({
              optionId: label,
              name: label,
              kind: v.enum(['allow_once', 'allow_always', 'reject_once', 'reject_always', 'other']),
            }),
          )
          .check(v.maxLength(MAX_APPROVAL_OPTIONS)),
      ),
    }),
  ]);
});
