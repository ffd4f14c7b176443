import type { HarnessToolCall, HarnessToolError, HarnessToolResult } from '../../../shared/types/tools.js';
import { describeError } from '../../../shared/describe-error.js';
import { toPlainJson } from '../../../core/continuation/to-plain-json.js';
import { isRecord } from '../../../shared/is-record.js';
import type { Redactor } from '../../../shared/redact-secrets.js';

/** JSON-RPC error codes of the SDK's `McpError`. */
const REQUEST_TIMEOUT = -32001;
const CONNECTION_CLOSED = -32000;
const INVALID_PARAMS = -32602;
const METHOD_NOT_FOUND = -32601;

const MAX_CONTENT_ITEMS = 100;

/**
 * Maps a `tools/call` result (`content`, `structuredContent`, `isError`) to a tool result. Every
 * string and key of the result is redacted while it is copied (a server may echo the configured
 * secrets); error text also loses anything that looks like a bearer token or `sk-…` key.
 */
export function mapCallResult(call: HarnessToolCall, raw: unknown, maxOutputChars: number, redactor: Redactor): HarnessToolResult {
  const base = { callId: call.id, toolName: call.name };
  const copied = toPlainJson(raw, { maxBytes: Math.max(maxOutputChars * 8, 1_048_576), maxDepth: 32, mapText: redactor.exact });
  if (!copied.ok || typeof copied.value !== 'object' || copied.value === null || Array.isArray(copied.value)) {
    return { ...base, status: 'error', error: { code: 'mcp_invalid_result', message: `The MCP server's result was unusable: ${copied.ok ? 'not an object' : copied.reason}.`, retryable: true } };
  }
  const result = copied.value as { content?: unknown; structuredContent?: unknown; isError?: unknown; toolResult?: unknown };
  const text = cut(renderContent(result.content ?? (result.toolResult === undefined ? [] : [{ type: 'text', text: JSON.stringify(result.toolResult) }])), maxOutputChars);
  const structured = isRecord(result.structuredContent) ? result.structuredContent : undefined;
  if (result.isError === true) {
    return {
      ...base,
      status: 'error',
      error: { code: 'mcp_tool_error', message: text === '' ? 'The MCP tool reported an error.' : redactor.text(text), retryable: true },
    };
  }
  return { ...base, status: 'success', output: text, ...(structured === undefined ? {} : { structuredOutput: structured }) };
}

/**
 * Maps a thrown error of `callTool` (timeout, protocol error, closed connection, an HTTP error
 * with the server's body) to a tool result, its message redacted.
 */
export function mapCallError(call: HarnessToolCall, error: unknown, callTimeoutMs: number, redactor: Redactor): HarnessToolResult {
  return { callId: call.id, toolName: call.name, status: 'error', error: callError(error, callTimeoutMs, redactor) };
}

function callError(error: unknown, callTimeoutMs: number, redactor: Redactor): HarnessToolError {
  const code = readCode(error);
  const message = redactor.text(describeError(error));
  if (code === REQUEST_TIMEOUT) {
    return { code: 'timeout', message: `The MCP tool did not answer within ${String(callTimeoutMs)} ms.`, retryable: true };
  }
  if (code === INVALID_PARAMS || code === METHOD_NOT_FOUND) return { code: 'invalid_input', message, retryable: true };
  if (code === CONNECTION_CLOSED) return { code: 'mcp_unavailable', message: `The MCP server connection closed: ${message}`, retryable: false };
  if (typeof code === 'number') return { code: 'mcp_error', message, retryable: true };
  return { code: 'mcp_unavailable', message: `The MCP server could not be reached: ${message}`, retryable: false };
}

function readCode(error: unknown): unknown {
  try {
    return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  } catch {
    return undefined;
  }
}

/** Text for the model: text items as they are, other items as a short description. */
function renderContent(content: unknown): string {
  if (!Array.isArray(content)) return '';
  const parts = content.slice(0, MAX_CONTENT_ITEMS).map((item: unknown) => {
    if (!isRecord(item)) return '';
    switch (item.type) {
      case 'text':
        return typeof item.text === 'string' ? item.text : '';
      case 'image':
      case 'audio':
        return `[${item.type} ${typeof item.mimeType === 'string' ? item.mimeType : ''}, ${String(typeof item.data === 'string' ? Math.floor((item.data.length * 3) / 4) : 0)} bytes, not shown]`;
      case 'resource_link':
        return `[resource ${typeof item.uri === 'string' ? item.uri : ''}${typeof item.name === 'string' ? ` (${item.name})` : ''}]`;
      case 'resource': {
        const resource = isRecord(item.resource) ? item.resource : {};
        const uri = typeof resource.uri === 'string' ? resource.uri : '';
        return typeof resource.text === 'string' ? `[resource ${uri}]\n${resource.text}` : `[resource ${uri}, binary, not shown]`;
      }
      default:
        return `[${typeof item.type === 'string' ? item.type : 'unknown'} content, not shown]`;
    }
  });
  if (content.length > MAX_CONTENT_ITEMS) parts.push(`[${String(content.length - MAX_CONTENT_ITEMS)} more content items not shown]`);
  return parts.filter((part) => part !== '').join('\n');
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}\n…[cut: ${String(text.length - max)} more characters]`;
}

