import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHarness, toExecutionRequest, type HarnessStreamEvent } from '../index.js';
import { createFakeExecutionAdapter, createManualClock, createTurnInput } from '../testing/index.js';

const city = z.object({ city: z.string(), days: z.number() });

describe('structured final output with a backend', () => {
  it('asks for the schema in the developer prompt and parses the final text', async () => {
    const backend = createFakeExecutionAdapter({ steps: [{ status: 'completed', output: { text: '```json\n{"city":"Oslo","days":2}\n```' } }] });
    const harness = createHarness({ backend, output: city, clock: createManualClock() });
    const result = await harness.runTurn(createTurnInput({ instructions: { systemPrompt: 'Be brief.', developerPrompt: 'Plan trips.' } }));
    expect(result).toMatchObject({ outcome: 'completed', output: { city: 'Oslo', days: 2 }, assistantMessage: { text: '{"city":"Oslo","days":2}' } });
    const instructions = backend.requests[0]!.instructions;
    expect(instructions.systemPrompt).toBe('Be brief.');
    expect(instructions.developerPrompt).toMatch(/^Plan trips\.\n\nAnswer with only a JSON value matching this JSON Schema, with no other text:\n\{/);
    const schemaText = instructions.developerPrompt!.split('\n').at(-1)!;
    expect(JSON.parse(schemaText)).toMatchObject({ type: 'object', required: ['city', 'days'] });
  });

  it('takes output.structured when the backend gives it', async () => {
    const backend = createFakeExecutionAdapter({ steps: [{ status: 'completed', output: { text: 'Done.', structured: { city: 'Bergen', days: 1 } } }] });
    const result = await createHarness({ backend }).runTurn(createTurnInput(), { output: city });
    expect(result).toMatchObject({ outcome: 'completed', output: { city: 'Bergen', days: 1 }, assistantMessage: { text: '{"city":"Bergen","days":1}' } });
    expect(backend.requests[0]!.instructions.developerPrompt).toMatch(/^Answer with only a JSON value/);
  });

  it('fails model_invalid_response (no retry) when the answer does not match', async () => {
    const backend = createFakeExecutionAdapter({ backendId: 'engine', steps: [{ status: 'completed', output: { text: '{"city":"Oslo"}' } }] });
    const result = await createHarness({ backend, output: city }).runTurn(createTurnInput());
    expect(result).toMatchObject({
      outcome: 'failed',
      stopReason: 'model_invalid_response',
      error: { code: 'schema_mismatch', source: 'backend:engine', retryable: true },
    });
    expect(result.error?.message).toMatch(/^The answer does not match the output schema: days: /);
    expect(result).not.toHaveProperty('output');
    expect(backend.requests).toHaveLength(1);
  });

  it('streams the output event before the result', async () => {
    const backend = createFakeExecutionAdapter({ steps: [{ status: 'completed', output: { text: '{"city":"Oslo","days":3}' } }] });
    const stream = createHarness({ backend, output: city }).streamTurn(createTurnInput());
    const events: HarnessStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    expect(events.slice(-2)).toEqual([{ type: 'output', output: { city: 'Oslo', days: 3 } }, { type: 'result', result: await stream.result }]);
  });

  it('enforces the schema on a resumed backend turn', async () => {
    const backend = createFakeExecutionAdapter({
      capabilities: { continuationSupport: 'opaque-resume' },
      steps: [
        { status: 'needs_clarification', output: { text: 'Which city?' }, continuation: { continuationId: 'session-1' } },
        { status: 'completed', output: { text: '{"city":"Oslo","days":5}' } },
      ],
    });
    const harness = createHarness({ backend, output: city });
    const paused = await harness.runTurn(createTurnInput());
    expect(paused.outcome).toBe('needs_clarification');
    const resumed = await harness.resumeTurn(paused.continuation, { type: 'clarification', answer: 'Oslo' });
    expect(resumed).toMatchObject({ outcome: 'completed', output: { city: 'Oslo', days: 5 } });
    expect(backend.requests[1]!.instructions.developerPrompt).toContain('Answer with only a JSON value');
  });

  it('toExecutionRequest leaves the instructions alone without output', () => {
    const input = createTurnInput({ instructions: { systemPrompt: 's', developerPrompt: 'd' } });
    expect(toExecutionRequest(input).instructions).toBe(input.instructions);
    const asked = toExecutionRequest(input, { output: { jsonSchema: { type: 'object' } } }).instructions;
    expect(asked.developerPrompt).toBe('d\n\nAnswer with only a JSON value matching this JSON Schema, with no other text:\n{"type":"object"}');
    expect(input.instructions.developerPrompt).toBe('d');
  });
});
