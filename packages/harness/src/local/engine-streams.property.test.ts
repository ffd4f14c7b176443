// Hostile stream lines for the goose and Cursor readers: any JSON value in any field, keys such as
// `__proto__`, getters never involved (JSON only) — the parsers and live readers never throw,
// every event they emit is well formed, and text deltas are exactly the assistant text parts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../__fixtures__/property-runs.js';
import type { ExecutionStreamEvent } from '../execution/types.js';
import { createCursorStreamReader, parseCursorOutput } from './parse-cursor-output.js';
import { createGooseStreamReader, parseGooseOutput } from './parse-goose-output.js';

const key = fc.constantFrom('type', 'message', 'content', 'role', 'text', 'id', 'toolCall', 'toolResult', 'value', 'name', 'arguments', 'command', 'status', 'error', 'result', 'is_error', 'usage', 'session_id', 'subtype', 'call_id', 'tool_call', 'shellToolCall', 'args', 'timestamp_ms', 'model_call_id', '__proto__', 'constructor');
const word = fc.constantFrom('message', 'assistant', 'user', 'text', 'toolRequest', 'toolResponse', 'complete', 'error', 'result', 'tool_call', 'started', 'completed', 'success', 'rejected', '__proto__', '');
const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, word, fc.integer(), fc.boolean(), fc.constant(null), fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(key, tie('value'), { maxKeys: 4 })),
})).value;
const lines = fc.array(fc.oneof(json.map((value) => JSON.stringify(value)), fc.string({ maxLength: 20 })), { maxLength: 8 });

function wellFormed(event: ExecutionStreamEvent): void {
  if (event.type === 'text_delta') expect(typeof event.text).toBe('string');
  else if (event.type === 'tool_activity') {
    expect(typeof event.toolCallId).toBe('string');
    expect(typeof event.name).toBe('string');
    expect(['started', 'updated', 'finished']).toContain(event.phase);
  } else throw new Error(`unexpected event ${event.type}`);
}

describe('goose and Cursor stream readers (property)', () => {
  it('never throw and emit only well-formed events, whatever the lines', () => {
    fc.assert(
      fc.property(lines, (input) => {
        const stdout = input.join('\n');
        for (const read of [createGooseStreamReader(), createCursorStreamReader()]) {
          for (const line of input) read(line).forEach(wellFormed);
        }
        const goose = parseGooseOutput(stdout);
        const cursor = parseCursorOutput(stdout);
        for (const parsed of [goose, cursor]) {
          if (parsed === null) continue;
          expect(['completed', 'failed']).toContain(parsed.status);
          if (parsed.text !== undefined) expect(typeof parsed.text).toBe('string');
        }
      }),
      { numRuns: propertyRuns() },
    );
  });

  it('goose: the deltas of a run are exactly its assistant text parts, in order', () => {
    const part = fc.string({ minLength: 1, maxLength: 10 });
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('assistant', 'user'), part), { maxLength: 6 }), (messages) => {
        const read = createGooseStreamReader();
        const deltas = messages
          .flatMap(([role, text]) => read(JSON.stringify({ type: 'message', message: { role, content: [{ type: 'text', text }] } })))
          .map((event) => (event.type === 'text_delta' ? event.text : ''));
        expect(deltas).toEqual(messages.filter(([role]) => role === 'assistant').map(([, text]) => text));
      }),
      { numRuns: propertyRuns() },
    );
  });
});
