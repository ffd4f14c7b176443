import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createHarness,
  HarnessConfigError,
  type HarnessModelAdapter,
  type HarnessModelConfig,
  type HarnessModelInput,
  type HarnessModelStreamPart,
  type HarnessStreamEvent,
  type HarnessToolCall,
  type HarnessTurnInput,
  type HarnessTurnStream,
} from '../index.js';
import { createFakeToolRegistry, createManualClock, createScriptedModel, createTurnInput, memoryTraceSink } from '../testing/index.js';

const call = (id: string, name = 'lookup', input: Record<string, unknown> = { q: id }): HarnessToolCall => ({ id, name, input });

function harnessFor(model: HarnessModelAdapter, extra: Partial<Omit<HarnessModelConfig, 'model'>> = {}) {
  return createHarness({ model, clock: createManualClock(), ...extra });
}

async function collect(stream: HarnessTurnStream): Promise<HarnessStreamEvent[]> {
  const events: HarnessStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

const summary = (events: HarnessStreamEvent[]) =>
  events.map((event) => {
    switch (event.type) {
      case 'text_delta':
        return `delta ${event.iteration} ${event.text}`;
      case 'step_started':
        return `step ${event.iteration}`;
      case 'step_finished':
        return `step ${event.iteration} ${event.outputType}`;
      case 'tool_started':
        return `tool ${event.iteration} ${event.call.id}`;
      case 'tool_finished':
        return `tool ${event.iteration} ${event.result.callId} ${event.result.status}`;
      case 'result':
        return `result ${event.result.stopReason}`;
      default:
        return event.type;
    }
  });

afterEach(() => {
  vi.useRealTimers();
});

describe('streamTurn', () => {
  it('streams the model’s deltas, step and tool events, and ends with the result', async () => {
    const model = createScriptedModel([
      { type: 'tool_request', calls: [call('c1')] },
      { deltas: ['Sunny ', 'in ', 'Oslo.'], output: { type: 'final_answer', text: 'Sunny in Oslo.' } },
    ]);
    const nextStep = vi.spyOn(model, 'nextStep');
    const stream = harnessFor(model, { tools: createFakeToolRegistry({ lookup: () => 'sunny' }) }).streamTurn(createTurnInput());
    const events = await collect(stream);
    expect(summary(events)).toEqual([
      'turn_started',
      'step 1',
      'step 1 tool_request',
      'tool 1 c1',
      'tool 1 c1 success',
      'step 2',
      'delta 2 Sunny ',
      'delta 2 in ',
      'delta 2 Oslo.',
      'step 2 final_answer',
      'result answer_finalized',
    ]);
    const result = await stream.result;
    expect(events.at(-1)).toEqual({ type: 'result', result });
    expect(events[0]).toEqual({ type: 'turn_started', turnId: 'turn-test' });
    expect(result.assistantMessage?.text).toBe('Sunny in Oslo.');
    expect(nextStep).not.toHaveBeenCalled();
  });

  it('sends one delta with the whole answer when the adapter cannot stream', async () => {
    const base = createScriptedModel([
      { type: 'tool_request', calls: [call('c1')], text: 'Checking.' },
      { type: 'final_answer', text: 'All good.' },
    ]);
    const model: HarnessModelAdapter = { nextStep: (input) => base.nextStep(input) };
    const events = await collect(harnessFor(model, { tools: createFakeToolRegistry({ lookup: () => 'x' }) }).streamTurn(createTurnInput()));
    expect(events.filter((event) => event.type === 'text_delta')).toEqual([{ type: 'text_delta', iteration: 2, text: 'All good.' }]);
  });

  it('sends no delta for an empty answer or for non-answers', async () => {
    const plain = (steps: Parameters<typeof createScriptedModel>[0]): HarnessModelAdapter => {
      const base = createScriptedModel(steps);
      return { nextStep: (input) => base.nextStep(input) };
    };
    for (const model of [
      plain([{ type: 'final_answer', text: '' }]),
      plain([{ type: 'clarification', question: 'Which?' }]),
      plain([{ type: 'refusal', reason: 'No.' }]),
    ]) {
      const events = await collect(harnessFor(model).streamTurn(createTurnInput()));
      expect(events.some((event) => event.type === 'text_delta')).toBe(false);
      expect(events.at(-1)?.type).toBe('result');
    }
  });

  it('uses nextStep, not streamStep, for runTurn', async () => {
    const model = createScriptedModel([{ type: 'final_answer', text: 'ok' }]);
    const streamStep = vi.spyOn(model, 'streamStep');
    await harnessFor(model).runTurn(createTurnInput());
    expect(streamStep).not.toHaveBeenCalled();
  });

  it('treats a stream that ends without an output as an empty response, and validates the output it yields', async () => {
    let step = 0;
    const model: HarnessModelAdapter = {
      nextStep: () => Promise.reject(new Error('not used')),
      async *streamStep(): AsyncIterable<HarnessModelStreamPart> {
        step += 1;
        yield { type: 'text_delta', text: `attempt ${step} ` };
        if (step === 2) yield { type: 'output', output: { type: 'final_answer' } as never };
        if (step === 3) yield { type: 'output', output: { type: 'final_answer', text: 'third time' } };
      },
    };
    const stream = harnessFor(model, { limits: { maxConsecutiveInvalidModelOutputs: 2 } }).streamTurn(createTurnInput());
    const events = await collect(stream);
    const result = await stream.result;
    expect(result.transcript.map((item) => (item.type === 'invalid_output' ? item.kind : item.type))).toEqual([
      'empty_response',
      'schema_mismatch',
      'assistant_step',
    ]);
    expect(summary(events).filter((line) => line.startsWith('step') && line.split(' ').length === 3)).toEqual([
      'step 1 invalid',
      'step 2 invalid',
      'step 3 final_answer',
    ]);
  });

  it('streams faults as a result event instead of throwing', async () => {
    const model: HarnessModelAdapter = {
      nextStep: () => Promise.reject(new Error('unused')),
      // eslint-disable-next-line require-yield
      async *streamStep(): AsyncIterable<HarnessModelStreamPart> {
        throw new Error('stream broke');
      },
    };
    const stream = harnessFor(model).streamTurn(createTurnInput());
    const events = await collect(stream);
    expect(events.at(-1)).toMatchObject({
      type: 'result',
      result: { stopReason: 'runtime_error', metadata: { error: { message: 'stream broke', source: 'model' } } },
    });
  });

  it('also feeds the trace sink', async () => {
    const trace = memoryTraceSink();
    await collect(harnessFor(createScriptedModel([{ type: 'final_answer', text: 'ok' }]), { trace }).streamTurn(createTurnInput()));
    expect(trace.types()).toEqual(['turn_started', 'model_step_started', 'model_step_finished', 'turn_finished']);
  });

  it('throws HarnessConfigError for a malformed input before starting', () => {
    const model = createScriptedModel([]);
    expect(() => harnessFor(model).streamTurn({ ...createTurnInput(), message: null } as unknown as HarnessTurnInput)).toThrow(
      HarnessConfigError,
    );
    expect(model.calls).toHaveLength(0);
  });
});

/** A streaming model that yields one delta, then waits for the test before going on. */
function gatedStreamModel() {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const inputs: HarnessModelInput[] = [];
  const model: HarnessModelAdapter = {
    nextStep: () => Promise.reject(new Error('unused')),
    async *streamStep(input): AsyncIterable<HarnessModelStreamPart> {
      inputs.push(input);
      yield { type: 'text_delta', text: 'first ' };
      await gate;
      yield { type: 'text_delta', text: 'late ' };
      yield { type: 'output', output: { type: 'final_answer', text: 'first late' } };
    },
  };
  return { model, inputs, release: () => release() };
}

describe('streamTurn cancellation', () => {
  it('cancels the turn when the consumer breaks out of the loop', async () => {
    const { model, inputs } = gatedStreamModel();
    const stream = harnessFor(model).streamTurn(createTurnInput());
    const seen: string[] = [];
    for await (const event of stream) {
      seen.push(event.type);
      if (event.type === 'text_delta') break;
    }
    const result = await stream.result;
    expect(seen).toEqual(['turn_started', 'step_started', 'text_delta']);
    expect(result).toMatchObject({ outcome: 'deferred', stopReason: 'cancelled' });
    expect(inputs[0]?.signal.aborted).toBe(true);
  });

  it('ends with a cancelled result when the caller aborts, and emits nothing after it', async () => {
    const { model, release } = gatedStreamModel();
    const caller = new AbortController();
    const stream = harnessFor(model).streamTurn(createTurnInput(), { signal: caller.signal });
    const events: HarnessStreamEvent[] = [];
    for await (const event of stream) {
      events.push(event);
      if (event.type === 'text_delta') {
        caller.abort();
        release();
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(summary(events)).toEqual(['turn_started', 'step 1', 'delta 1 first ', 'result cancelled']);
    expect((await stream.result).continuation?.type).toBe('deferred');
  });

  it('ends with timeout_reached when a stream hangs and ignores the signal, leaving no timer', async () => {
    vi.useFakeTimers();
    const { model } = gatedStreamModel();
    const stream = harnessFor(model, { limits: { maxElapsedMs: 1_000 } }).streamTurn(createTurnInput());
    const collected = collect(stream);
    await vi.advanceTimersByTimeAsync(1_000);
    const events = await collected;
    expect(summary(events)).toEqual(['turn_started', 'step 1', 'delta 1 first ', 'result timeout_reached']);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('streamTurn: text from a running tool call', () => {
  it('streams context.turn.emitText as tool_text_delta while the call runs; drops empty and late text; absent in runTurn', async () => {
    let late: ((text: string) => void) | undefined;
    const presence: boolean[] = [];
    const tools = createFakeToolRegistry({
      lookup: (_input, context) => {
        const emit = context.turn?.emitText;
        presence.push(emit !== undefined);
        emit?.('first ');
        emit?.('');
        emit?.('second');
        late = emit;
        return 'found';
      },
    });
    const model = () => createScriptedModel([{ type: 'tool_request', calls: [call('c1')] }, { type: 'final_answer', text: 'done' }]);
    const events = await collect(harnessFor(model(), { tools }).streamTurn(createTurnInput()));
    late?.('after the call');
    const deltas = events.filter((event) => event.type === 'tool_text_delta');
    expect(deltas).toEqual([
      { type: 'tool_text_delta', iteration: 1, callId: 'c1', toolName: 'lookup', text: 'first ' },
      { type: 'tool_text_delta', iteration: 1, callId: 'c1', toolName: 'lookup', text: 'second' },
    ]);
    expect(events.map((event) => event.type).filter((type) => type.startsWith('tool_'))).toEqual(['tool_started', 'tool_text_delta', 'tool_text_delta', 'tool_finished']);
    expect((await harnessFor(model(), { tools }).runTurn(createTurnInput())).outcome).toBe('completed');
    expect(presence).toEqual([true, false]);
  });
});
