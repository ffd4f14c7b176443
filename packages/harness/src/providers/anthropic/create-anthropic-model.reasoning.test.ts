import { afterEach, describe, expect, it } from 'vitest';
import type { HarnessModelOutput } from '../../core/types/model.js';
import type { HarnessTranscriptItem } from '../../core/types/transcript.js';
import { createFakeAnthropicServer, type FakeModelServer, type FakeServerScript } from '../../testing/node/index.js';
import { createModelInput, weatherTool } from '../__fixtures__/create-model-input.js';
import { createAnthropicModel } from './create-anthropic-model.js';
import { collectStreamParts as collect } from '../__fixtures__/collect-stream-parts.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const KEY = 'sk-ant-test-0123456789';

async function setup(replies: FakeServerScript[]) {
  server = await createFakeAnthropicServer({ replies });
  const model = createAnthropicModel({
    apiKey: KEY,
    model: 'claude-test',
    maxTokens: 4096,
    baseUrl: server.url,
    retry: { maxRetries: 0 },
    extraBody: { thinking: { type: 'enabled', budget_tokens: 2048 } },
  });
  return { server, model };
}


/** The transcript the harness records for a tool step and its result. */
function toolStep(output: HarnessModelOutput): HarnessTranscriptItem[] {
  if (output.type !== 'tool_request') throw new Error(`expected a tool request, got ${output.type}`);
  return [
    {
      type: 'assistant_step',
      iteration: 1,
      outputType: 'tool_request',
      calls: output.calls,
      ...(output.text === undefined ? {} : { text: output.text }),
      ...(output.reasoning === undefined ? {} : { reasoning: output.reasoning }),
    },
    ...output.calls.map((call): HarnessTranscriptItem => ({ type: 'tool_result', iteration: 1, result: { callId: call.id, toolName: call.name, status: 'success', output: 'Sunny' } })),
  ];
}

describe('Anthropic extended thinking', () => {
  it('streams thinking as reasoning_delta (never as text) and keeps text and signature as reasoning', async () => {
    const { model } = await setup([{ reasoning: 'The user wants Oslo.', text: 'Sunny.', deltaSize: 5 }]);
    const { deltas: text, reasoning, output } = await collect(model.streamStep(createModelInput()));
    expect(reasoning.join('')).toBe('The user wants Oslo.');
    expect(reasoning.length).toBeGreaterThan(1);
    expect(text.join('')).toBe('Sunny.');
    expect(output).toMatchObject({ type: 'final_answer', text: 'Sunny.', reasoning: [{ provider: 'anthropic', text: 'The user wants Oslo.', signature: btoa('sig_fake_1') }] });
  });

  it('replays thinking and redacted thinking unchanged at the start of the tool step (JSON), which the server checks', async () => {
    const { server, model } = await setup([
      { reasoning: 'Look it up.', redactedReasoning: 'ZW5jcnlwdGVk', text: 'Checking.', toolCalls: [{ id: 'toolu_1', name: 'lookup_weather', arguments: { city: 'Oslo' } }] },
      { text: 'Oslo is sunny.' },
    ]);
    const first = await model.nextStep(createModelInput({ availableTools: [weatherTool] }));
    expect(first).toMatchObject({
      type: 'tool_request',
      reasoning: [
        { provider: 'anthropic', text: 'Look it up.', signature: btoa('sig_fake_1') },
        { provider: 'anthropic', data: 'ZW5jcnlwdGVk' },
      ],
    });
    const second = await model.nextStep(createModelInput({ availableTools: [weatherTool], transcript: toolStep(first), iteration: 2 }));
    expect(second).toMatchObject({ type: 'final_answer', text: 'Oslo is sunny.' });
    const body = server.requests[1]!.body as { messages: { role: string; content: unknown[] }[] };
    expect(body.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Look it up.', signature: btoa('sig_fake_1') },
        { type: 'redacted_thinking', data: 'ZW5jcnlwdGVk' },
        { type: 'text', text: 'Checking.' },
        { type: 'tool_use', id: 'toolu_1', name: 'lookup_weather', input: { city: 'Oslo' } },
      ],
    });
  });

  it('replays streamed thinking (signature assembled from signature_delta) in the next streamed step', async () => {
    const { server, model } = await setup([
      { reasoning: 'Tool first.', toolCalls: [{ id: 'toolu_s', name: 'lookup_weather', arguments: { city: 'Bergen' } }], deltaSize: 2 },
      { text: 'Bergen is sunny.' },
    ]);
    const first = await collect(model.streamStep(createModelInput({ availableTools: [weatherTool] })));
    const second = await collect(model.streamStep(createModelInput({ availableTools: [weatherTool], transcript: toolStep(first.output), iteration: 2 })));
    expect(second.output).toMatchObject({ type: 'final_answer', text: 'Bergen is sunny.' });
    const body = server.requests[1]!.body as { messages: { content: unknown[] }[] };
    expect(body.messages[1]!.content[0]).toEqual({ type: 'thinking', thinking: 'Tool first.', signature: btoa('sig_fake_1') });
  });

  it('is refused by the server when the thinking block is left out (what the replay prevents)', async () => {
    const { model } = await setup([{ reasoning: 'x', toolCalls: [{ id: 'toolu_1', name: 'lookup_weather', arguments: { city: 'Oslo' } }] }, { text: 'never' }]);
    const first = await model.nextStep(createModelInput({ availableTools: [weatherTool] }));
    const stripped = toolStep({ ...first, reasoning: undefined });
    expect(await model.nextStep(createModelInput({ availableTools: [weatherTool], transcript: stripped }))).toMatchObject({ type: 'invalid', httpStatus: 400, retryable: false });
  });
});
