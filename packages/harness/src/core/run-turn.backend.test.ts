import { describe, expect, it } from 'vitest';
import { createHarness, type ExecutionRequest } from '../index.js';
import {
  createFakeExecutionAdapter,
  createFakeToolRegistry,
  createScriptedModel,
  createTurnInput,
  memoryTraceSink,
} from '../testing/index.js';

describe('createHarness({ backend })', () => {
  it('maps a completed backend result, with usage and trace', async () => {
    const backend = createFakeExecutionAdapter({
      steps: [{ status: 'completed', output: { text: 'Hi there' }, usage: { inputTokens: 10, outputTokens: 3, costUnits: 0.002 } }],
    });
    const trace = memoryTraceSink();
    const result = await createHarness({ backend, trace }).runTurn(createTurnInput({ sessionId: 's1' }));
    expect(result).toMatchObject({
      outcome: 'completed',
      stopReason: 'answer_finalized',
      assistantMessage: { text: 'Hi there' },
      sessionId: 's1',
      usage: { totalInputTokens: 10, totalOutputTokens: 3, totalCostUnits: 0.002, modelCalls: 1, toolCalls: 0 },
      metadata: { backendId: 'fake-backend' },
    });
    expect(trace.types()).toEqual(['turn_started', 'model_step_started', 'model_step_finished', 'turn_finished']);
    expect(backend.requests[0]).toMatchObject({
      assistantId: 'assistant-test',
      turnId: 'turn-test',
      message: { text: 'Hello' },
      timeoutMs: 30_000,
    });
  });

  it('fails with backend_unsupported when negotiation blocks, without executing', async () => {
    const backend = createFakeExecutionAdapter({ steps: [] });
    const result = await createHarness({
      backend,
      tools: createFakeToolRegistry({ lookup: () => 'x' }),
    }).runTurn(createTurnInput());
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'backend_unsupported' });
    expect(result.metadata?.negotiation).toEqual([
      expect.objectContaining({ code: 'tool_use_unsupported', severity: 'blocking' }),
    ]);
    expect(backend.requests).toHaveLength(0);
  });

  it('reports degradation warnings and still runs', async () => {
    const backend = createFakeExecutionAdapter({ steps: [{ status: 'completed', output: { text: 'ok' } }] });
    const result = await createHarness({ backend, requirements: { continuationSupport: 'preferred' } }).runTurn(
      createTurnInput(),
    );
    expect(result.outcome).toBe('completed');
    expect(result.metadata?.degradation).toEqual([expect.objectContaining({ code: 'continuation_unsupported', severity: 'warning' })]);
  });

  it('returns deferred/timeout_reached promptly when the backend ignores the signal', async () => {
    let seenSignal: AbortSignal | undefined;
    const backend = createFakeExecutionAdapter({
      steps: [
        (_request, options) => {
          seenSignal = options.signal;
          return new Promise(() => undefined);
        },
      ],
    });
    const result = await createHarness({ backend, limits: { maxElapsedMs: 30 } }).runTurn(createTurnInput());
    expect(result).toMatchObject({ outcome: 'deferred', stopReason: 'timeout_reached' });
    expect(seenSignal?.aborted).toBe(true);
    expect(result.continuation?.state).toMatchObject({ mode: 'backend', backendId: 'fake-backend' });
  });

  it('keeps a continuation the backend reported before it was interrupted', async () => {
    const backend = createFakeExecutionAdapter({
      steps: [
        (_request, options) => {
          options.onContinuation?.({ kind: 'fake.session', continuationId: 'session-7' });
          return new Promise(() => undefined);
        },
        (request) => ({ status: 'completed', output: { text: `resumed ${request.continuation?.continuationId}` } }),
      ],
    });
    const harness = createHarness({ backend, limits: { maxElapsedMs: 30 } });
    const paused = await harness.runTurn(createTurnInput());
    expect(paused.stopReason).toBe('timeout_reached');
    const resumed = await harness.resumeTurn(paused.continuation, { type: 'deferred' });
    expect(resumed.assistantMessage?.text).toBe('resumed session-7');
  });

  it('returns deferred/cancelled when the caller aborts', async () => {
    const controller = new AbortController();
    const backend = createFakeExecutionAdapter({
      steps: [
        () => {
          controller.abort();
          return new Promise(() => undefined);
        },
      ],
    });
    const result = await createHarness({ backend }).runTurn(createTurnInput(), { signal: controller.signal });
    expect(result).toMatchObject({ outcome: 'deferred', stopReason: 'cancelled' });
  });

  it.each([
    [{ status: 'failed', error: { code: 'backend_execution_error', message: 'boom', retryable: false } }, 'failed', 'runtime_error'],
    [{ status: 'failed', error: { code: 'timeout', message: 'slow' } }, 'deferred', 'timeout_reached'],
    [{ status: 'failed', error: { code: 'invalid_backend_output', message: 'bad' } }, 'failed', 'model_invalid_response'],
    [{ status: 'unsupported', error: { code: 'unsupported_capability', message: 'no' } }, 'failed', 'backend_unsupported'],
    [{ status: 'deferred', error: { code: 'budget_exceeded', message: 'spent' } }, 'deferred', 'budget_reached'],
    [{ status: 'completed', output: {} }, 'failed', 'model_invalid_response'],
    [{ status: 'failed', error: { code: 'backend_execution_error', message: 'no', metadata: { refusal: true } } }, 'failed', 'model_refused'],
  ] as const)('maps %j to %s/%s', async (step, outcome, stopReason) => {
    const backend = createFakeExecutionAdapter({ steps: [step] });
    const result = await createHarness({ backend }).runTurn(createTurnInput());
    expect(result).toMatchObject({ outcome, stopReason });
    if (outcome === 'deferred') expect(result.continuation).toBeDefined();
  });

  it('turns a throwing backend into runtime_error and a malformed result into model_invalid_response', async () => {
    const throwing = createFakeExecutionAdapter({
      steps: [
        () => {
          throw new Error('spawn failed');
        },
      ],
    });
    const thrown = await createHarness({ backend: throwing }).runTurn(createTurnInput());
    expect(thrown).toMatchObject({ stopReason: 'runtime_error', metadata: { error: { message: 'spawn failed', source: 'backend.execute' } } });

    const malformed = createFakeExecutionAdapter({ steps: [{ status: 'weird' } as never] });
    const bad = await createHarness({ backend: malformed }).runTurn(createTurnInput());
    expect(bad).toMatchObject({ stopReason: 'model_invalid_response', metadata: { error: { code: 'invalid_backend_output' } } });
  });

  it('refuses a result that is not bounded plain JSON, so the result and its trace always serialise', async () => {
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 400_000; i += 1) deep = { d: deep };
    const getter = Object.defineProperty({}, 'x', { enumerable: true, get: () => { throw new Error('boom'); } });
    const cases: Record<string, unknown> = {
      'deep structured output': { status: 'completed', output: { text: 'ok', structured: deep } },
      'deep metadata': { status: 'completed', output: { text: 'ok' }, metadata: { deep } },
      'deep approval metadata': { status: 'awaiting_approval', approvalRequest: { reason: 'r', metadata: deep } },
      'a throwing getter': { status: 'completed', output: { text: 'ok' }, metadata: getter },
      'a BigInt': { status: 'completed', output: { text: 'ok' }, metadata: { n: 1n } },
    };
    for (const [name, step] of Object.entries(cases)) {
      const trace = memoryTraceSink();
      const backend = createFakeExecutionAdapter({ steps: [step as never] });
      const result = await createHarness({ backend, trace }).runTurn(createTurnInput());
      expect(result, name).toMatchObject({ outcome: 'failed', stopReason: 'model_invalid_response', metadata: { error: { code: 'invalid_backend_output' } } });
      expect(() => JSON.stringify(result), name).not.toThrow();
      expect(() => JSON.stringify(trace.events), name).not.toThrow();
    }
  });

  it('resumes a clarification in a new harness, handing the backend continuation back', async () => {
    const first = createFakeExecutionAdapter({
      capabilities: { continuationSupport: 'opaque-resume' },
      steps: [{ status: 'needs_clarification', output: { text: 'Which repo?' }, continuation: { continuationId: 'session-42' } }],
    });
    const paused = await createHarness({ backend: first }).runTurn(createTurnInput());
    expect(paused).toMatchObject({ outcome: 'needs_clarification', assistantMessage: { text: 'Which repo?' } });

    const requests: ExecutionRequest[] = [];
    const second = createFakeExecutionAdapter({
      capabilities: { continuationSupport: 'opaque-resume' },
      steps: [
        (request) => {
          requests.push(request);
          return { status: 'completed', output: { text: 'Looked at agent-assistant.' } };
        },
      ],
    });
    const resumed = await createHarness({ backend: second }).resumeTurn(JSON.parse(JSON.stringify(paused.continuation)), {
      type: 'clarification',
      answer: 'agent-assistant',
    });
    expect(resumed).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Looked at agent-assistant.' } });
    expect(requests[0]).toMatchObject({
      turnId: 'turn-test',
      continuation: { continuationId: 'session-42' },
      resume: { type: 'clarification', answer: 'agent-assistant' },
      message: { text: 'Hello' },
    });
  });

  it('resumes a backend approval with decisions keyed by the approval key', async () => {
    const backend = createFakeExecutionAdapter({
      capabilities: { approvalInterrupts: 'native' },
      steps: [
        { status: 'awaiting_approval', approvalRequest: { approvalKey: 'push-1', reason: 'Push to main?' } },
        (request) => ({ status: 'completed', output: { text: `decision ${JSON.stringify(request.resume)}` } }),
      ],
    });
    const harness = createHarness({ backend });
    const paused = await harness.runTurn(createTurnInput());
    expect(paused.metadata?.approvalRequests).toEqual([{ id: 'push-1', kind: 'backend_approval', summary: 'Push to main?' }]);
    const resumed = await harness.resumeTurn(paused.continuation, { type: 'approval', decisions: { 'push-1': 'approved' } });
    expect(resumed.assistantMessage?.text).toBe('decision {"type":"approval","decisions":{"push-1":"approved"}}');
  });

  it('refuses a continuation made for another backend or by a model harness', async () => {
    const backend = createFakeExecutionAdapter({
      steps: [{ status: 'deferred' }],
    });
    const paused = await createHarness({ backend }).runTurn(createTurnInput());
    expect(paused.stopReason).toBe('max_iterations_reached');
    const other = createFakeExecutionAdapter({ backendId: 'other-backend', steps: [] });
    const refused = await createHarness({ backend: other }).resumeTurn(paused.continuation, { type: 'deferred' });
    expect(refused.stopReason).toBe('continuation_invalid');

    const loopPaused = await createHarness({
      model: createScriptedModel([{ type: 'clarification', question: 'Why?' }]),
    }).runTurn(createTurnInput());
    const crossed = await createHarness({ backend }).resumeTurn(loopPaused.continuation, {
      type: 'clarification',
      answer: 'because',
    });
    expect(crossed.stopReason).toBe('continuation_invalid');
  });
});
