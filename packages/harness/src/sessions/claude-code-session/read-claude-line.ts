import * as v from '../../shared/validation/index.js';
import { lenientSchema } from '../../shared/schemas/lenient-schema.js';
import { lazySchema } from '../../shared/schemas/lazy-schema.js';

/** Longest id (request id, tool use id, session id) taken from the engine; longer ones make the line invalid. */
const MAX_ID_LENGTH = 256;

/** The `can_use_tool` permission request Claude Code sends with `--permission-prompt-tool stdio`. */
export interface ClaudePermissionRequest {
  requestId: string;
  toolName: string;
  input: Record<string, unknown>;
  toolUseId?: string | undefined;
  description?: string | undefined;
  blockedPath?: string | undefined;
  /** Claude's own "allow always" rules (`addRules`, `setMode`, ...), answered back as `updatedPermissions`. */
  suggestions: Record<string, unknown>[];
}

/** One stdout line of a live Claude Code session, read into what the session acts on. */
export type ClaudeLine =
  | { kind: 'init'; sessionId: string }
  | { kind: 'text_delta'; text: string }
  | { kind: 'assistant' }
  | { kind: 'tool_results' }
  | { kind: 'permission'; request: ClaudePermissionRequest }
  | { kind: 'control_request'; requestId: string; subtype: string }
  | { kind: 'control_response'; requestId: string; ok: boolean }
  | { kind: 'result'; result: Record<string, unknown> }
  | { kind: 'ignored' }
  | { kind: 'invalid'; reason: string };

const id = () => v.string().check(v.minLength(1), v.maxLength(MAX_ID_LENGTH));
const record = () => v.record(v.string(), v.unknown());
const lenient = lenientSchema;

const envelopeSchema = /* @__PURE__ */ lazySchema(() =>
  v.object({
    type: v.string(),
    subtype: lenient(v.string()),
    session_id: lenient(v.string()),
    parent_tool_use_id: lenient(v.nullable(v.string())),
  }),
);

const streamEventSchema = /* @__PURE__ */ lazySchema(() =>
  v.object({
    event: v.object({
      type: v.string(),
      delta: lenient(v.object({ type: v.string(), text: lenient(v.string()) })),
    }),
  }),
);

const messageSchema = /* @__PURE__ */ lazySchema(() =>
  v.object({
    message: v.object({
      content: v.union([
        v.string(),
        v.array(
          v.object({ type: v.string() }),
        ),
      ]),
    }),
  }),
);

const controlRequestSchema = /* @__PURE__ */ lazySchema(() =>
  v.object({
    request_id: id(),
    request: v.object({
      subtype: v.string(),
      tool_name: lenient(v.string().check(v.maxLength(MAX_ID_LENGTH))),
      input: lenient(record()),
      tool_use_id: lenient(id()),
      description: lenient(v.string()),
      blocked_path: lenient(v.string()),
      permission_suggestions: lenient(v.array(record())),
    }),
  }),
);

const controlResponseSchema = /* @__PURE__ */ lazySchema(() => v.object({ response: v.object({ subtype: v.string(), request_id: id() }) }));

/**
 * Reads one stdout line of `claude -p --input-format stream-json --output-format stream-json`.
 * Unknown message types are `ignored` (Claude adds new ones); a line that is not JSON or whose
 * known type has the wrong shape is `invalid`, with the reason. Messages of sub-agents
 * (`parent_tool_use_id` set) are ignored: only the main conversation is the turn's.
 */
export function readClaudeLine(line: string): ClaudeLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { kind: 'invalid', reason: 'a stdout line is not JSON' };
  }
  const envelope = envelopeSchema.safeParse(value);
  if (!envelope.success) return { kind: 'invalid', reason: 'a stdout line has no message type' };
  const { type, subtype } = envelope.data;
  const nested = typeof envelope.data.parent_tool_use_id === 'string';
  switch (type) {
    case 'system':
      if (subtype !== 'init') return { kind: 'ignored' };
      return envelope.data.session_id === undefined || envelope.data.session_id.length > MAX_ID_LENGTH
        ? { kind: 'invalid', reason: 'system/init has no usable session_id' }
        : { kind: 'init', sessionId: envelope.data.session_id };
    case 'stream_event': {
      if (nested) return { kind: 'ignored' };
      const parsed = streamEventSchema.safeParse(value);
      if (!parsed.success) return { kind: 'invalid', reason: 'a stream_event has no event' };
      const { event } = parsed.data;
      if (event.type !== 'content_block_delta' || event.delta?.type !== 'text_delta' || event.delta.text === undefined) return { kind: 'ignored' };
      return { kind: 'text_delta', text: event.delta.text };
    }
    case 'assistant':
    case 'user':
      return nested ? { kind: 'ignored' } : readMessage(type, value);
    case 'control_request':
      return readControlRequest(value);
    case 'control_response': {
      const parsed = controlResponseSchema.safeParse(value);
      if (!parsed.success) return { kind: 'invalid', reason: 'a control_response has no request_id' };
      return { kind: 'control_response', requestId: parsed.data.response.request_id, ok: parsed.data.response.subtype === 'success' };
    }
    case 'result':
      return { kind: 'result', result: value as Record<string, unknown> };
    default:
      return { kind: 'ignored' };
  }
}

/** Checks the shape of a main-conversation message; its text, tool calls and results are read into events by the stream reader. */
function readMessage(type: 'assistant' | 'user', value: unknown): ClaudeLine {
  const parsed = messageSchema.safeParse(value);
  if (!parsed.success) return { kind: 'invalid', reason: `an ${type} message has no content` };
  if (type === 'assistant') return { kind: 'assistant' };
  const content = parsed.data.message.content;
  const hasResults = typeof content !== 'string' && content.some((block) => block.type === 'tool_result');
  return hasResults ? { kind: 'tool_results' } : { kind: 'ignored' };
}

function readControlRequest(value: unknown): ClaudeLine {
  const parsed = controlRequestSchema.safeParse(value);
  if (!parsed.success) return { kind: 'invalid', reason: 'a control_request has no request_id or subtype' };
  const { request_id: requestId, request } = parsed.data;
  if (request.subtype !== 'can_use_tool') return { kind: 'control_request', requestId, subtype: request.subtype };
  if (request.tool_name === undefined || request.input === undefined) {
    return { kind: 'invalid', reason: 'a can_use_tool request has no tool_name or input' };
  }
  return {
    kind: 'permission',
    request: {
      requestId,
      toolName: request.tool_name,
      input: request.input,
      ...(request.tool_use_id === undefined ? {} : { toolUseId: request.tool_use_id }),
      ...(request.description === undefined ? {} : { description: request.description }),
      ...(request.blocked_path === undefined ? {} : { blockedPath: request.blocked_path }),
      suggestions: request.permission_suggestions ?? [],
    },
  };
}
