// The pi and Copilot CLI parsers and stream readers on output recorded from the real CLIs
// (pi 0.73.1 `-p --mode json`, Copilot CLI 1.0.102 `-p --output-format json`), and on hostile lines.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixture } from './__fixtures__/test-helpers.js';
import { createCopilotStreamReader } from './internal/read-copilot-stream.js';
import { createPiStreamReader } from './internal/read-pi-stream.js';
import { parseCopilotOutput } from './parse-copilot-output.js';
import { parsePiOutput } from './parse-pi-output.js';

const recorded = (name: string) => readFileSync(fixture(`recorded/${name}`), 'utf8');
const readAll = (read: (line: string) => unknown[], text: string) => text.split('\n').flatMap((line) => read(line));

describe('parsePiOutput (recorded real output)', () => {
  it('reads a tool loop: the last assistant text, usage summed over both model calls, the session id', () => {
    expect(parsePiOutput(recorded('pi-tool.jsonl'))).toEqual({
      status: 'completed',
      text: 'PONG from fake (after tool)',
      usage: { inputTokens: 24, outputTokens: 12, costUnits: 0 },
      continuation: { kind: 'pi.session', continuationId: '01a232aa-f4d3-74b8-b4b2-e680873ec3aa', state: {} },
      metadata: { sessionId: '01a232aa-f4d3-74b8-b4b2-e680873ec3aa' },
    });
  });

  it('reads the HTTP 400 pi exits 0 after as a non-retryable failure', () => {
    expect(parsePiOutput(recorded('pi-http-400.jsonl'))).toMatchObject({
      status: 'failed',
      error: { code: 'backend_execution_error', message: 'pi failed: 400 fake injected HTTP 400', retryable: false },
      continuation: { continuationId: '01a232ae-234c-74fe-964c-0b390fb8b19e' },
    });
  });

  it('fails a run cut before agent_end, explains the empty stdout of a foreign session, and returns null for no events', () => {
    const cut = recorded('pi-tool.jsonl').split('\n').slice(0, 8).join('\n');
    expect(parsePiOutput(cut)).toMatchObject({ status: 'failed', error: { code: 'invalid_backend_output', retryable: true } });
    const foreign = parsePiOutput('', { stderr: 'Session found in different project: /srv/a\nFork this session into current directory? [y/N] ' });
    expect(foreign?.error?.message).toBe('pi refused to resume the session: it belongs to another working directory (/srv/a) and pi printed nothing.');
    expect(parsePiOutput('warning: something\n')).toBeNull();
  });

  it('ignores hostile usage values and keeps the incoming continuation when the header has no id', () => {
    const lines = [
      { type: 'session', id: 42 },
      { type: 'message_end', message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }], usage: { input: -5, output: 'x', cost: { total: Number.NaN } } } },
      { type: 'agent_end' },
    ];
    const parsed = parsePiOutput(lines.map((line) => JSON.stringify(line)).join('\n'), { continuation: { kind: 'pi.session', continuationId: 'abc' } });
    expect(parsed).toMatchObject({ status: 'completed', text: 'ok', usage: { inputTokens: 0, outputTokens: 0, costUnits: 0 }, continuation: { continuationId: 'abc' } });
  });

  it('streams the recorded tool call and text deltas, which add up to the answer', () => {
    const stdout = recorded('pi-tool.jsonl');
    const events = readAll(createPiStreamReader(), stdout);
    expect(events.filter((event) => (event as { type: string }).type === 'tool_activity')).toEqual([
      { type: 'tool_activity', phase: 'started', toolCallId: 'call_fake_1', name: 'bash', kind: 'command', command: 'echo TOOL_OK' },
      { type: 'tool_activity', phase: 'finished', toolCallId: 'call_fake_1', name: 'bash', kind: 'command', status: 'succeeded' },
    ]);
    const text = events.flatMap((event) => ((event as { type: string }).type === 'text_delta' ? [(event as { text: string }).text] : [])).join('');
    expect(text).toBe(parsePiOutput(stdout)?.text);
    expect(readAll(createPiStreamReader(), '{"type":"tool_execution_start","toolCallId":{"x":1}}\nnot json\n{"type":"message_update","assistantMessageEvent":null}')).toEqual([]);
  });
});

describe('parseCopilotOutput (recorded real output)', () => {
  it('reads the answer after a denied tool, lists the denial, takes usage from the usage report', () => {
    expect(parseCopilotOutput(recorded('copilot-denied-tool.jsonl'), { usageReport: recorded('copilot-usage.json') })).toEqual({
      status: 'completed',
      text: 'PONG from fake (after tool)',
      usage: { inputTokens: 12, outputTokens: 6 },
      continuation: { kind: 'copilot.session', continuationId: 'b5b8bae8-3bd0-468b-9374-23c6972ffbb3', state: {} },
      metadata: {
        sessionId: 'b5b8bae8-3bd0-468b-9374-23c6972ffbb3',
        deniedTools: [{ toolCallId: 'call_fake_2', name: 'bash', command: 'touch /tmp/cpt-2iQ2/MARK' }],
      },
    });
  });

  it('reads session.error after an HTTP 400 as a non-retryable failure with its status', () => {
    expect(parseCopilotOutput(recorded('copilot-http-400.jsonl'))).toMatchObject({
      status: 'failed',
      error: { code: 'backend_execution_error', message: 'GitHub Copilot CLI failed: 400 fake injected HTTP 400', retryable: false, metadata: { status: 400 } },
      continuation: { continuationId: '81af8165-5d4a-4f23-96b3-9314fb0f4684' },
    });
  });

  it('fails a stream cut before its result line, ignores an unreadable usage report, returns null for no events', () => {
    const cut = recorded('copilot-denied-tool.jsonl').split('\n').slice(0, 5).join('\n');
    expect(parseCopilotOutput(cut)).toMatchObject({ status: 'failed', error: { code: 'invalid_backend_output' } });
    expect(parseCopilotOutput(recorded('copilot-denied-tool.jsonl'), { usageReport: '{"modelMetrics": [' })?.usage).toBeUndefined();
    expect(parseCopilotOutput('Error: No session, task, or name matched \'x\'.\n')).toBeNull();
  });

  it('streams the recorded deltas and the denied tool as rejected; hostile lines yield nothing', () => {
    const stdout = recorded('copilot-denied-tool.jsonl');
    const events = readAll(createCopilotStreamReader(), stdout);
    expect(events).toEqual([
      { type: 'tool_activity', phase: 'started', toolCallId: 'call_fake_2', name: 'bash', kind: 'command', command: 'touch /tmp/cpt-2iQ2/MARK' },
      { type: 'tool_activity', phase: 'finished', toolCallId: 'call_fake_2', name: 'bash', kind: 'command', status: 'rejected' },
      { type: 'text_delta', text: 'PONG from fake (after tool)' },
    ]);
    const hostile = ['{"type":"tool.execution_complete","data":{"toolCallId":"__proto__","success":false}}', '{"type":"assistant.message_delta","data":{"deltaContent":7}}', '{"data":null}'];
    expect(readAll(createCopilotStreamReader(), hostile.join('\n'))).toEqual([
      { type: 'tool_activity', phase: 'finished', toolCallId: '__proto__', name: 'tool', kind: 'other', status: 'failed' },
    ]);
  });
});
