import { afterEach, describe, expect, it } from 'vitest';
import { createHarness } from '../core/create-harness.js';
import type { HarnessModelAdapter } from '../core/types/model.js';
import type { HarnessResult } from '../core/types/result.js';
import type { HarnessRuntime } from '../core/types/runtime.js';
import type { HarnessTurnInput } from '../shared/types/turn-input.js';
import { createFakeToolRegistry, createTurnInput } from '../testing/index.js';
import { createFakeAnthropicServer, createFakeOpenAICompatibleServer, type FakeModelServer, type FakeServerScript } from '../testing/node/index.js';
import { createAnthropicModel } from './anthropic/create-anthropic-model.js';
import { createOpenAICompatibleModel } from './openai-compatible/create-openai-compatible-model.js';

// Issue 23, item 10: some OpenAI-compatible servers number tool calls `call_0`, `call_1` again in
// every reply. Ids are the server's doing: the harness re-keys a repeated id as it does a missing one.

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const protocols = [
  {
    name: 'OpenAI-compatible',
    start: (replies: FakeServerScript[]) => createFakeOpenAICompatibleServer({ replies }),
    model: (url: string): HarnessModelAdapter => createOpenAICompatibleModel({ baseUrl: url, model: 'fake-model' }),
    /** Each replayed tool step: the call ids the assistant asked for, and the ids the results answer. */
    steps: (body: unknown) => {
      const messages = (body as { messages: { role: string; tool_calls?: { id: string }[]; tool_call_id?: string }[] }).messages;
      return messages.flatMap((message, index) => {
        if (message.role !== 'assistant' || message.tool_calls === undefined) return [];
        const answers: string[] = [];
        for (const next of messages.slice(index + 1)) {
          if (next.role !== 'tool') break;
          answers.push(next.tool_call_id!);
        }
        return [{ calls: message.tool_calls.map((call) => call.id), answers }];
      });
    },
  },
  {
    name: 'Anthropic',
    start: (replies: FakeServerScript[]) => createFakeAnthropicServer({ replies }),
    model: (url: string): HarnessModelAdapter => createAnthropicModel({ baseUrl: url, apiKey: 'test-key-0123456789', model: 'claude-test', maxTokens: 256 }),
    steps: (body: unknown) => {
      type Block = { type: string; id?: string; tool_use_id?: string };
      const messages = (body as { messages: { role: string; content: string | Block[] }[] }).messages;
      const blocks = (index: number) => (Array.isArray(messages[index]?.content) ? (messages[index]!.content as Block[]) : []);
      return messages.flatMap((message, index) => {
        const calls = message.role === 'assistant' ? blocks(index).filter((block) => block.type === 'tool_use') : [];
        if (calls.length === 0) return [];
        const answers = blocks(index + 1).filter((block) => block.type === 'tool_result').map((block) => block.tool_use_id!);
        return [{ calls: calls.map((call) => call.id!), answers }];
      });
    },
  },
];

async function run(harness: HarnessRuntime, input: HarnessTurnInput, streamed: boolean): Promise<HarnessResult> {
  if (!streamed) return harness.runTurn(input);
  const stream = harness.streamTurn(input);
  for await (const _event of stream) {
    // drain
  }
  return stream.result;
}

describe.each(protocols)('$name: a server that restarts tool call ids in every reply', (protocol) => {
  it.each([false, true])('runs both tool steps and completes; the replayed conversation pairs every call with its result (streamed: %s)', async (streamed) => {
    server = await protocol.start([
      { toolCalls: [{ id: 'call_0', name: 'lookup', arguments: { q: 'first' } }] },
      { toolCalls: [{ id: 'call_0', name: 'lookup', arguments: { q: 'second' } }, { id: 'call_0', name: 'lookup', arguments: { q: 'third' } }] },
      { text: 'Both looked up.' },
    ]);
    const tools = createFakeToolRegistry({ lookup: (input) => `result for ${String(input.q)}` });
    const harness = createHarness({ model: protocol.model(server.url), tools });
    const result = await run(harness, createTurnInput(), streamed);

    expect(result).toMatchObject({ outcome: 'completed', stopReason: 'answer_finalized', assistantMessage: { text: 'Both looked up.' } });
    expect(tools.calls.map((call) => call.input.q)).toEqual(['first', 'second', 'third']);
    expect(result.transcript.some((item) => item.type === 'invalid_output')).toBe(false);
    const ids = tools.calls.map((call) => call.id);
    expect(ids[0]).toBe('call_0');
    expect(new Set(ids).size).toBe(3);

    expect(server.requests).toHaveLength(3);
    const steps = protocol.steps(server.requests[2]!.body);
    expect(steps).toEqual([
      { calls: [ids[0]], answers: [ids[0]] },
      { calls: [ids[1], ids[2]], answers: [ids[1], ids[2]] },
    ]);
    // Each result is the one of its own call.
    const results = result.transcript.flatMap((item) => (item.type === 'tool_result' ? [item.result] : []));
    expect(results.map((entry) => [entry.callId, entry.output])).toEqual([
      [ids[0], 'result for first'],
      [ids[1], 'result for second'],
      [ids[2], 'result for third'],
    ]);
  });

  it('pauses for approval under the new id and resumes with it', async () => {
    server = await protocol.start([
      { toolCalls: [{ id: 'call_0', name: 'lookup', arguments: { q: 'first' } }] },
      { toolCalls: [{ id: 'call_0', name: 'delete_repo', arguments: { repo: 'prod' } }] },
      { text: 'Deleted.' },
    ]);
    const tools = createFakeToolRegistry({ lookup: () => 'found', delete_repo: { requiresApproval: true, execute: () => 'deleted' } });
    const harness = createHarness({ model: protocol.model(server.url), tools, continuationSecret: 'repeated-ids-secret-0123456789' });
    const paused = await harness.runTurn(createTurnInput());
    expect(paused).toMatchObject({ outcome: 'awaiting_approval' });
    const requestId = (paused.metadata?.approvalRequests as { id: string }[])[0]!.id;
    expect(requestId).not.toBe('call_0');
    const resumed = await harness.resumeTurn(paused.continuation!, { type: 'approval', decisions: { [requestId]: 'approved' } });
    expect(resumed).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Deleted.' } });
    expect(tools.calls.map((call) => call.name)).toEqual(['lookup', 'delete_repo']);
    expect(protocol.steps(server.requests[2]!.body)).toEqual([
      { calls: ['call_0'], answers: ['call_0'] },
      { calls: [requestId], answers: [requestId] },
    ]);
  });

  it('a refused tool step is replayed as not run: the model is told none of its calls ran', async () => {
    server = await protocol.start([{ toolCalls: [{ id: 'call_0', name: 'lookup', arguments: '{"q": "unterminated' }] }, { text: 'I could not look it up.' }]);
    const tools = createFakeToolRegistry({ lookup: () => 'found' });
    const result = await createHarness({ model: protocol.model(server.url), tools }).runTurn(createTurnInput());
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'I could not look it up.' } });
    expect(tools.calls).toEqual([]);
    expect(result.transcript.map((item) => item.type)).toEqual(['invalid_output', 'assistant_step']);
    expect(JSON.stringify(server.requests[1]!.body)).toContain('Your previous reply could not be used, so nothing in it was run: ');
    expect(protocol.steps(server.requests[1]!.body)).toEqual([]);
  });
});
