// The CLI stream readers on output recorded from the real CLIs, and on hostile lines.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixture } from '../__fixtures__/test-helpers.js';
import { parseClaudeCodeOutput } from '../parse-claude-code-output.js';
import { parseCodexOutput } from '../parse-codex-output.js';
import { createClaudeCodeStreamReader } from '../read-claude-code-stream.js';
import { createCodexStreamReader } from './read-codex-stream.js';
import { createGeminiCliStreamReader } from './read-gemini-cli-stream.js';
import { geminiStreamReport } from './gemini-stream-report.js';

const recorded = (name: string) => readFileSync(fixture(`recorded/${name}`), 'utf8');
const readAll = (read: (line: string) => unknown[], text: string) => text.split('\n').flatMap((line) => read(line));

describe('CLI stream readers', () => {
  it('Claude Code (recorded 2.1.332 stream-json): the partial deltas make up the final result, nothing twice', () => {
    const stdout = recorded('claude-stream.jsonl');
    const events = readAll(createClaudeCodeStreamReader(), stdout);
    expect(events).toEqual([{ type: 'text_delta', text: parseClaudeCodeOutput(stdout)?.text }]);
  });

  it('codex (recorded 0.171.0 JSONL): the agent message', () => {
    const stdout = recorded('codex-success.jsonl');
    expect(readAll(createCodexStreamReader(), stdout)).toEqual([{ type: 'text_delta', text: parseCodexOutput(stdout)?.text }]);
  });

  it('codex: declined commands are rejected, failing exits failed, todo lists are plans', () => {
    const read = createCodexStreamReader();
    const line = (value: unknown) => read(JSON.stringify(value));
    expect(line({ type: 'item.completed', item: { id: 'c1', type: 'command_execution', command: 'rm x', status: 'declined' } })).toMatchObject([{ status: 'rejected' }]);
    expect(line({ type: 'item.completed', item: { id: 'c2', type: 'command_execution', command: 'false', exit_code: 1, status: 'completed' } })).toMatchObject([{ status: 'failed' }]);
    expect(line({ type: 'item.updated', item: { id: 't', type: 'todo_list', items: [{ text: 'a', completed: true }, { text: 'b', completed: false }, { nope: 1 }] } })).toEqual([
      { type: 'plan_update', entries: [{ content: 'a', status: 'completed' }, { content: 'b', status: 'pending' }] },
    ]);
    expect(line({ type: 'item.started', item: { id: 'm', type: 'mcp_tool_call', server: 'docs', tool: 'search' } })).toMatchObject([{ name: 'docs.search', phase: 'started' }]);
  });

  it('Gemini CLI: a stream becomes the JSON report (joined answer, session, usage in report shape)', () => {
    const stdout = [
      { type: 'init', session_id: 's-1', model: 'auto' },
      { type: 'message', role: 'assistant', content: 'A', delta: true },
      { type: 'message', role: 'assistant', content: 'B', delta: true },
      { type: 'result', status: 'success', stats: { models: { m: { input_tokens: 3, output_tokens: 4 }, __proto__: { input_tokens: 1 } } } },
    ]
      .map((value) => JSON.stringify(value))
      .join('\n');
    const report = geminiStreamReport(stdout);
    expect(report).toMatchObject({ session_id: 's-1', response: 'AB' });
    expect(geminiStreamReport('{ "session_id": "x", "response": "plain json" }')).toBeUndefined();
  });

  it('ignore garbage, partial objects and hostile ids without throwing', () => {
    const lines = [
      '',
      'not json',
      '{"type":"stream_event"',
      '[1,2]',
      'null',
      JSON.stringify({ type: 'assistant', message: { content: [{ type: 'tool_use', id: 42, name: 'Bash' }, null, 'x'] } }),
      JSON.stringify({ type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: '__proto__' }] } }),
      JSON.stringify({ type: 'tool_result', tool_id: '__proto__', status: 'success' }),
      JSON.stringify({ type: 'item.completed', item: { id: '__proto__', type: 'command_execution' } }),
    ];
    for (const read of [createClaudeCodeStreamReader(), createGeminiCliStreamReader(), createCodexStreamReader()]) {
      const events = lines.flatMap((line) => read(line));
      for (const event of events) expect(event).toMatchObject({ type: 'tool_activity', phase: 'finished', toolCallId: '__proto__' });
    }
  });
});
