// The Codex parser on JSON lines recorded from the real `codex exec --json` 0.171.0.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixture } from './__fixtures__/test-helpers.js';
import { parseCodexOutput } from './parse-codex-output.js';

const recorded = (name: string) => readFileSync(fixture(`recorded/${name}`), 'utf8');

describe('parseCodexOutput (recorded real output)', () => {
  it('reads the agent message, usage and thread id', () => {
    expect(parseCodexOutput(recorded('codex-success.jsonl'))).toEqual({
      status: 'completed',
      text: 'PONG from fake',
      usage: { inputTokens: 24, outputTokens: 12 },
      continuation: { kind: 'codex.session', continuationId: '01a22894-54de-7d80-9bcf-f27e63c0ce01', state: { inputTokens: 24, outputTokens: 12 } },
      metadata: { threadId: '01a22894-54de-7d80-9bcf-f27e63c0ce01', toolCallCount: 0 },
    });
  });

  it('reads turn.failed with an embedded HTTP 400 as a non-retryable failure', () => {
    expect(parseCodexOutput(recorded('codex-http-400.jsonl'))).toMatchObject({
      status: 'failed',
      error: { code: 'backend_execution_error', message: 'Codex failed: fake injected HTTP 400', retryable: false, metadata: { status: 400 } },
    });
  });

  it('subtracts the thread totals carried by the continuation', () => {
    const previous = { kind: 'codex.session', continuationId: '01a22894-54de-7d80-9bcf-f27e63c0ce01', state: { inputTokens: 10, outputTokens: 2 } };
    expect(parseCodexOutput(recorded('codex-success.jsonl'), { continuation: previous })?.usage).toEqual({ inputTokens: 14, outputTokens: 10 });
  });

  it('treats an error item followed by a completed turn as a warning', () => {
    const stdout = [
      '{"type":"thread.started","thread_id":"t"}',
      '{"type":"error","message":"Model metadata for `fake-model` not found"}',
      '{"type":"item.completed","item":{"type":"agent_message","text":"fine"}}',
      '{"type":"turn.completed","usage":{"input_tokens":1,"output_tokens":1}}',
    ].join('\n');
    expect(parseCodexOutput(stdout)).toMatchObject({ status: 'completed', text: 'fine' });
  });

  it('reports a transient error without a status as retryable, and returns null for no outcome', () => {
    expect(parseCodexOutput('{"type":"error","message":"stream disconnected before completion"}')?.error?.retryable).toBe(true);
    expect(parseCodexOutput('{"type":"thread.started","thread_id":"t"}\n{"type":"turn.started"}')).toBeNull();
  });
});
