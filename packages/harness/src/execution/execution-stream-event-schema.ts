import * as z from '../shared/validation/index.js';
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
  const label = z.string().check(z.maxLength(MAX_LABEL_CHARS));
  const kind = z.optional(z.enum(['command', 'edit', 'read', 'search', 'fetch', 'think', 'other']));
  const command = z.optional(z.string().check(z.maxLength(MAX_COMMAND_CHARS)));
  return z.discriminatedUnion('type', [
    z.object({ type: z.literal('text_delta'), text: z.string().check(z.minLength(1), z.maxLength(MAX_STREAM_DELTA_CHARS)) }),
    z.object({
      type: z.literal('tool_activity'),
      phase: z.enum(['started', 'updated', 'finished']),
      toolCallId: label,
      name: label,
      kind,
      command,
      status: z.optional(z.enum(['succeeded', 'failed', 'rejected', 'cancelled'])),
    }),
    z.object({
      type: z.literal('plan_update'),
      entries: z
        .array(
          z.object({
            content: z.string().check(z.maxLength(MAX_COMMAND_CHARS)),
            status: z.enum(['pending', 'in_progress', 'completed']),
            priority: z.optional(z.enum(['high', 'medium', 'low'])),
          }),
        )
        .check(z.maxLength(MAX_PLAN_ENTRIES)),
    }),
    z.object({
      type: z.literal('approval_requested'),
      approvalKey: label,
      title: z.string().check(z.maxLength(MAX_COMMAND_CHARS)),
      toolCallId: z.optional(label),
      kind,
      command,
      options: z.optional(
        z
          .array(
            z.object({
              optionId: label,
              name: label,
              kind: z.enum(['allow_once', 'allow_always', 'reject_once', 'reject_always', 'other']),
            }),
          )
          .check(z.maxLength(MAX_APPROVAL_OPTIONS)),
      ),
    }),
  ]);
});
