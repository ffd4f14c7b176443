// The JSONL both ways of `omp --mode rpc` (oh-my-pi 18.2.3, shared/reference/more-engines-facts.md §4):
// commands `{id, type, …}` in, `ready`, `response`, `extension_ui_request` and pi's session events out.
import { memo } from '../../shared/schemas/lazy-schema.js';
import { lenientSchema as lenient } from '../../shared/schemas/lenient-schema.js';
import * as v from '../../shared/validation/index.js';

/** Longest id, name or method taken from the engine; a longer one makes the line invalid. */
const MAX_ID_LENGTH = 256;

/** Token counts and cost of one assistant message. */
export interface OmpUsage {
  input?: number | undefined;
  output?: number | undefined;
  cacheRead?: number | undefined;
  cost?: number | undefined;
}

/** One stdout line of `omp --mode rpc`, read into what the session acts on. */
export type OmpLine =
  | { kind: 'ready' }
  | { kind: 'response'; id: string; command: string; success: boolean; data: unknown; error: string | undefined }
  | { kind: 'ui_request'; id: string; method: string; title: string; options: readonly string[] }
  | { kind: 'agent_start' }
  | { kind: 'agent_end' }
  | { kind: 'text_delta'; text: string }
  | { kind: 'assistant_end'; usage: OmpUsage | undefined; stopReason: string | undefined; errorMessage: string | undefined }
  | { kind: 'tool_start'; toolCallId: string; toolName: string; command: string | undefined }
  | { kind: 'tool_end'; toolCallId: string; toolName: string; isError: boolean; denied: boolean }
  | { kind: 'ignored' }
  | { kind: 'invalid' };

const id = () => v.string().check(v.minLength(1), v.maxLength(MAX_ID_LENGTH));
const count = () => lenient(v.number().check(v.gte(0)));

const schemas = /* @__PURE__ */ memo(() => ({
  envelope: v.object({ type: id() }),
  response: v.object({ id: id(), command: lenient(v.string()), success: v.boolean(), data: v.optional(v.unknown()), error: lenient(v.string()) }),
  uiRequest: v.object({ id: id(), method: id(), title: lenient(v.string()), options: lenient(v.array(v.string())) }),
  update: v.object({ assistantMessageEvent: v.object({ type: v.string(), delta: lenient(v.string()) }) }),
  messageEnd: v.object({
    message: v.object({
      role: v.string(),
      stopReason: lenient(v.string()),
      errorMessage: lenient(v.string()),
      usage: lenient(v.object({ input: count(), output: count(), cacheRead: count(), cost: lenient(v.object({ total: count() })) })),
    }),
  }),
  toolStart: v.object({ toolCallId: id(), toolName: id(), args: lenient(v.object({ command: lenient(v.string()) })) }),
  toolEnd: v.object({
    toolCallId: id(),
    toolName: id(),
    isError: lenient(v.boolean()),
    result: lenient(v.object({ content: lenient(v.array(v.object({ type: v.string(), text: lenient(v.string()) }))) })),
  }),
}));

/** What omp answers a denied tool call with (its tool result text). */
const DENIED_PREFIX = 'Tool call denied by user';

/** Reads one stdout line; never throws. */
export function readOmpLine(raw: string): OmpLine {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { kind: 'invalid' };
  }
  const s = schemas();
  const envelope = s.envelope.safeParse(value);
  if (!envelope.success) return { kind: 'invalid' };
  switch (envelope.data.type) {
    case 'ready':
      return { kind: 'ready' };
    case 'agent_start':
      return { kind: 'agent_start' };
    case 'agent_end':
      return { kind: 'agent_end' };
    case 'response': {
      const parsed = s.response.safeParse(value);
      if (!parsed.success) return { kind: 'invalid' };
      const { id: responseId, command, success, data, error } = parsed.data;
      return { kind: 'response', id: responseId, command: command ?? '', success, data, error };
    }
    case 'extension_ui_request': {
      const parsed = s.uiRequest.safeParse(value);
      if (!parsed.success) return { kind: 'invalid' };
      return { kind: 'ui_request', id: parsed.data.id, method: parsed.data.method, title: parsed.data.title ?? '', options: parsed.data.options ?? [] };
    }
    case 'message_update': {
      const parsed = s.update.safeParse(value);
      if (!parsed.success) return { kind: 'invalid' };
      const event = parsed.data.assistantMessageEvent;
      return event.type === 'text_delta' && event.delta !== undefined && event.delta !== '' ? { kind: 'text_delta', text: event.delta } : { kind: 'ignored' };
    }
    case 'message_end': {
      const parsed = s.messageEnd.safeParse(value);
      if (!parsed.success) return { kind: 'invalid' };
      const message = parsed.data.message;
      if (message.role !== 'assistant') return { kind: 'ignored' };
      const usage = message.usage;
      return {
        kind: 'assistant_end',
        usage: usage === undefined ? undefined : { input: usage.input, output: usage.output, cacheRead: usage.cacheRead, cost: usage.cost?.total },
        stopReason: message.stopReason,
        errorMessage: message.errorMessage,
      };
    }
    case 'tool_execution_start': {
      const parsed = s.toolStart.safeParse(value);
      if (!parsed.success) return { kind: 'invalid' };
      return { kind: 'tool_start', toolCallId: parsed.data.toolCallId, toolName: parsed.data.toolName, command: parsed.data.args?.command };
    }
    case 'tool_execution_end': {
      const parsed = s.toolEnd.safeParse(value);
      if (!parsed.success) return { kind: 'invalid' };
      const isError = parsed.data.isError === true;
      const firstText = parsed.data.result?.content?.find((part) => part.type === 'text')?.text ?? '';
      return { kind: 'tool_end', toolCallId: parsed.data.toolCallId, toolName: parsed.data.toolName, isError, denied: isError && firstText.startsWith(DENIED_PREFIX) };
    }
    default:
      return { kind: 'ignored' };
  }
}

/** A command line for the engine. */
export function commandLine(requestId: string, type: string, fields: Record<string, unknown> = {}): string {
  return JSON.stringify({ ...fields, id: requestId, type });
}

/** The answer to an `extension_ui_request`: a `select` value, a `confirm` verdict, or cancelled. */
export function uiResponseLine(requestId: string, answer: { value: string } | { confirmed: boolean } | { cancelled: true }): string {
  return JSON.stringify({ type: 'extension_ui_response', id: requestId, ...answer });
}

/** UI methods omp sends without waiting for an answer. */
export const FIRE_AND_FORGET_UI = /* @__PURE__ */ new Set(['setWidget', 'setStatus', 'notify', 'setTitle', 'set_editor_text', 'open_url']);

/** An approval request: a `select` offering Approve and Deny, or a `confirm`. */
export function isApprovalRequest(line: Extract<OmpLine, { kind: 'ui_request' }>): boolean {
  if (line.method === 'confirm') return true;
  return line.method === 'select' && line.options.includes('Approve') && line.options.includes('Deny');
}

/** The tool and command an approval title names (`Allow tool: bash\nCommand: touch …`). */
export function approvalSubject(title: string): { toolName: string | undefined; command: string | undefined } {
  const tool = /^Allow tool: ([^\n]{1,256})/.exec(title)?.[1]?.trim();
  const command = /(?:^|\n)Command: ([^\n]*)/.exec(title)?.[1];
  return { toolName: tool, command };
}
