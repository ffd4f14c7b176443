import type { HarnessHistoryMessage } from '../../shared/types/turn-input.js';
import type { HarnessTranscriptItem } from '../types/transcript.js';

/** The shortest a rendered entry is cut to before old entries are left out instead. */
const MIN_ENTRY_CHARS = 80;

/** The history messages and transcript items to summarise, as the summary call reads them. */
export function renderForSummary(history: readonly HarnessHistoryMessage[], transcript: readonly HarnessTranscriptItem[], maxChars: number): string {
  const entries = [...history.map(renderMessage), ...transcript.flatMap(renderItem)].filter((entry) => entry !== '');
  const fitted = fitEntries(entries, Math.max(maxChars, MIN_ENTRY_CHARS));
  const parts = ['Summarise this conversation. It continues after your summary; keep what a later reply may need.'];
  if (history.length > 0 && transcript.length > 0) parts.push('It is the earlier conversation, then the steps the assistant took for the latest message.');
  return [...parts, '', ...fitted].join('\n');
}

function renderMessage(message: HarnessHistoryMessage): string {
  const attachments = (message.attachments ?? []).map((attachment) => `[attachment ${oneLine(attachment.name ?? attachment.id)} (${attachment.mediaType ?? attachment.type})]`);
  return [`[${message.role}] ${message.text}`, ...attachments].join(' ');
}

function renderItem(item: HarnessTranscriptItem): string[] {
  switch (item.type) {
    case 'assistant_step': {
      const said = item.text === undefined || item.text.trim() === '' ? [] : [`[assistant] ${item.text}`];
      const calls = (item.calls ?? []).map((call) => `[tool call ${oneLine(call.name)} #${oneLine(call.id)}] ${JSON.stringify(call.input)}`);
      return [...said, ...calls];
    }
    case 'tool_result': {
      const { result } = item;
      const head = `[tool result ${oneLine(result.toolName)} #${oneLine(result.callId)}: ${result.status}]`;
      const error = result.error === undefined ? '' : ` error ${oneLine(result.error.code)}: ${result.error.message}`;
      const output = result.output ?? (result.structuredOutput === undefined ? '' : JSON.stringify(result.structuredOutput));
      return [`${head}${error}${output === '' ? '' : ` ${output}`}`];
    }
    case 'compaction':
      return [`[summary of what came before] ${item.summary}`];
    case 'clarification_request':
      return [`[question to the user] ${item.question}`];
    case 'clarification_answer':
      return [`[the user's answer] ${item.answer}`];
    case 'approval_request':
      return [`[approval requested] ${item.request.summary}`];
    case 'approval_decision':
      return [`[approval ${oneLine(item.requestId)}: ${item.decision}]`];
    case 'invalid_output':
      return [];
  }
}

/**
 * The entries within `maxChars` in all: each cut to the longest length that fits (its start and
 * its end kept), at least `MIN_ENTRY_CHARS`; when even that does not fit, the oldest are left out
 * and a line says how many.
 */
function fitEntries(entries: string[], maxChars: number): string[] {
  const total = (cap: number) => entries.reduce((sum, entry) => sum + Math.min(entry.length, cap) + 1, 0);
  if (total(Infinity) <= maxChars) return entries;
  let low = MIN_ENTRY_CHARS;
  let high = entries.reduce((longest, entry) => Math.max(longest, entry.length), MIN_ENTRY_CHARS);
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (total(middle) <= maxChars) low = middle;
    else high = middle - 1;
  }
  const cut = entries.map((entry) => clip(entry, low));
  let used = cut.reduce((sum, entry) => sum + entry.length + 1, 0);
  let first = 0;
  while (used > maxChars && first < cut.length - 1) {
    used -= cut[first]!.length + 1;
    first += 1;
  }
  return first === 0 ? cut : [`[${first} earlier entries left out]`, ...cut.slice(first)];
}

/** The text cut to about `cap` characters: three quarters from its start, a quarter from its end. */
function clip(text: string, cap: number): string {
  if (text.length <= cap) return text;
  const omitted = ` …[${text.length - cap} characters left out]… `;
  const room = Math.max(0, cap - omitted.length);
  const head = safeEnd(text, Math.ceil((room * 3) / 4));
  const tail = safeStart(text, text.length - (room - head.length));
  return `${head}${omitted}${tail}`;
}

function safeEnd(text: string, end: number): string {
  const at = end > 0 && isHighSurrogate(text.charCodeAt(end - 1)) ? end - 1 : end;
  return text.slice(0, at);
}

function safeStart(text: string, start: number): string {
  const at = start < text.length && isLowSurrogate(text.charCodeAt(start)) ? start + 1 : start;
  return text.slice(at);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > 80 ? `${flat.slice(0, 80)}…` : flat;
}
