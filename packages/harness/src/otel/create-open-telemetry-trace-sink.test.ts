import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness } from '../core/create-harness.js';
import { HarnessConfigError } from '../core/errors/harness-config-error.js';
import { createFakeToolRegistry } from '../testing/fake-tool-registry.js';
import { createScriptedModel } from '../testing/scripted-model.js';
import { createTurnInput } from '../testing/create-turn-input.js';
import { createOpenTelemetryTraceSink, type OpenTelemetryTraceSinkOptions, type OpenTelemetryTracer } from './index.js';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({
  spanProcessors: [new SimpleSpanProcessor(exporter)],
});
// Compile-time check: a real SDK tracer fits the sink's structural tracer type.
const tracer: OpenTelemetryTracer = provider.getTracer('harness-test');

afterEach(() => exporter.reset());

const spans = () => exporter.getFinishedSpans();
const named = (name: string) => spans().filter((span) => span.name === name);
const only = (name: string): ReadableSpan => {
  const found = named(name);
  expect(
    found,
    `spans named ${name}: ${spans()
      .map((span) => span.name)
      .join(', ')}`,
  ).toHaveLength(1);
  return found[0] as ReadableSpan;
};
const parentId = (span: ReadableSpan) => span.parentSpanContext?.spanId;

const secretArgs = {
  path: 'notes/secret.txt',
  token: 'sk-live-should-not-leak',
};

function toolTurnModel() {
  return createScriptedModel([
    {
      type: 'tool_request',
      calls: [{ id: 'call-1', name: 'read_file', input: secretArgs }],
      usage: {
        inputTokens: 120,
        outputTokens: 12,
        cachedInputTokens: 100,
        costUnits: 0.002,
      },
    },
    {
      type: 'final_answer',
      text: 'The file says hello.',
      usage: { inputTokens: 160, outputTokens: 8, reasoningTokens: 3 },
    },
  ]);
}

const readFile = () => createFakeToolRegistry({ read_file: () => 'hello from a private file' });

function sink(options: Partial<OpenTelemetryTraceSinkOptions> = {}) {
  return createOpenTelemetryTraceSink({
    tracer,
    model: 'gpt-test',
    provider: 'openai',
    agentName: 'helper',
    ...options,
  });
}

describe('createOpenTelemetryTraceSink with the OpenTelemetry SDK', () => {
  it('records invoke_agent, chat and execute_tool spans in the GenAI conventions', async () => {
    const harness = createHarness({
      model: toolTurnModel(),
      tools: readFile(),
      trace: sink(),
    });
    const result = await harness.runTurn(createTurnInput({ sessionId: 'session-9' }));
    expect(result.outcome).toBe('completed');
    expect(result.traceSummary.traceSinkErrors).toBe(0);

    const turn = only('invoke_agent helper');
    expect(turn.kind).toBe(0);
    expect(parentId(turn)).toBeUndefined();
    expect(turn.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.id': 'assistant-test',
      'gen_ai.agent.name': 'helper',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-test',
      'gen_ai.conversation.id': 'session-9',
      'agent_assistant.turn.id': 'turn-test',
      'agent_assistant.outcome': 'completed',
      'agent_assistant.stop_reason': 'answer_finalized',
      'gen_ai.usage.input_tokens': 280,
      'gen_ai.usage.output_tokens': 20,
      'gen_ai.usage.cache_read.input_tokens': 100,
      'agent_assistant.usage.reasoning_tokens': 3,
      'agent_assistant.tool_calls': 1,
    });
    expect(turn.status.code).toBe(0);

    const steps = named('chat gpt-test');
    expect(steps).toHaveLength(2);
    for (const step of steps) {
      expect(step.kind).toBe(2);
      expect(parentId(step)).toBe(turn.spanContext().spanId);
      expect(step.spanContext().traceId).toBe(turn.spanContext().traceId);
      expect(step.attributes['gen_ai.operation.name']).toBe('chat');
    }
    const [first, second] = steps as [ReadableSpan, ReadableSpan];
    expect(first.attributes).toMatchObject({
      'gen_ai.response.finish_reasons': ['tool_call'],
      'gen_ai.usage.input_tokens': 120,
      'gen_ai.usage.output_tokens': 12,
      'gen_ai.usage.cache_read.input_tokens': 100,
      'agent_assistant.usage.cost_units': 0.002,
    });
    expect(second.attributes['gen_ai.response.finish_reasons']).toEqual(['stop']);

    const tool = only('execute_tool read_file');
    expect(parentId(tool)).toBe(turn.spanContext().spanId);
    expect(tool.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'read_file',
      'gen_ai.tool.call.id': 'call-1',
      'gen_ai.tool.type': 'function',
      'agent_assistant.tool.status': 'success',
    });
    // No content without opt-in: neither the arguments nor the result are on any span.
    const everything = JSON.stringify(spans().map((span) => [span.attributes, span.events]));
    expect(everything).not.toContain('sk-live-should-not-leak');
    expect(everything).not.toContain('hello from a private file');
    expect(tool.attributes['gen_ai.tool.call.arguments']).toBeUndefined();
  });

  it('records tool arguments and results only with captureContent, cut to maxContentLength', async () => {
    const tools = createFakeToolRegistry({ read_file: () => 'x'.repeat(500) });
    const harness = createHarness({
      model: toolTurnModel(),
      tools,
      trace: sink({ captureContent: true, maxContentLength: 100 }),
    });
    await harness.runTurn(createTurnInput());
    const tool = only('execute_tool read_file');
    expect(JSON.parse(String(tool.attributes['gen_ai.tool.call.arguments']))).toEqual(secretArgs);
    const result = String(tool.attributes['gen_ai.tool.call.result']);
    expect(result).toHaveLength(100);
    expect(result.endsWith('…[truncated]')).toBe(true);
  });

  it('marks failures with span status ERROR and error.type', async () => {
    const model = createScriptedModel([
      {
        type: 'tool_request',
        calls: [{ id: 'call-1', name: 'deploy', input: {} }],
      },
    ]);
    const tools = createFakeToolRegistry({
      deploy: () => ({
        status: 'error',
        error: {
          code: 'deploy_refused',
          message: 'cluster is read-only',
          retryable: false,
        },
      }),
    });
    const result = await createHarness({ model, tools, trace: sink() }).runTurn(createTurnInput());
    expect(result.stopReason).toBe('tool_error_unrecoverable');

    const tool = only('execute_tool deploy');
    expect(tool.status).toEqual({ code: 2, message: 'deploy_refused' });
    expect(tool.attributes['error.type']).toBe('deploy_refused');
    const turn = only('invoke_agent helper');
    expect(turn.status).toEqual({
      code: 2,
      message: 'tool_error_unrecoverable',
    });
    expect(turn.attributes).toMatchObject({
      'error.type': 'tool_error_unrecoverable',
      'agent_assistant.outcome': 'failed',
    });
  });

  it('records a compaction as a span event and counts its summary call in the turn usage', async () => {
    const model = createScriptedModel(
      (input) =>
        input.instructions.systemPrompt.startsWith('You compact')
          ? { type: 'final_answer', text: 'SUMMARY', usage: { inputTokens: 700, outputTokens: 20 } }
          : { type: 'final_answer', text: 'done', usage: { inputTokens: 100, outputTokens: 5 } },
      { contextWindow: 1_000 },
    );
    const history = Array.from({ length: 12 }, (_, index) => ({ role: index % 2 === 0 ? ('user' as const) : ('assistant' as const), text: `message ${String(index)} `.repeat(40) }));
    const result = await createHarness({ model, trace: sink() }).runTurn(createTurnInput({ history }));
    expect(result.usage).toMatchObject({ modelCalls: 2, totalInputTokens: 800, totalOutputTokens: 25 });
    const turn = only('invoke_agent helper');
    expect(turn.attributes).toMatchObject({ 'gen_ai.usage.input_tokens': 800, 'gen_ai.usage.output_tokens': 25 });
    const compaction = turn.events.find((event) => event.name === 'agent_assistant.history_compacted');
    expect(compaction?.attributes).toMatchObject({
      'agent_assistant.compaction.trigger': 'threshold',
      'agent_assistant.compaction.summarized': 9,
      'gen_ai.usage.input_tokens': 700,
    });
    expect(compaction?.attributes?.['agent_assistant.compaction.bytes_after']).toBeLessThan(compaction?.attributes?.['agent_assistant.compaction.bytes_before'] as number);
  });

  it('marks an invalid model output on its chat span and a limit as a span event', async () => {
    const model = createScriptedModel(() => ({
      type: 'invalid',
      kind: 'transient',
      reason: 'The stream ended before it was complete.',
      retryable: true,
    }));
    const result = await createHarness({
      model,
      trace: sink(),
      limits: { maxIterations: 1 },
    }).runTurn(createTurnInput());
    expect(result.stopReason).toBe('max_iterations_reached');
    const step = only('chat gpt-test');
    expect(step.status.code).toBe(2);
    expect(step.attributes).toMatchObject({
      'error.type': 'transient',
      'gen_ai.response.finish_reasons': ['error'],
    });
    const turn = only('invoke_agent helper');
    expect(turn.attributes['agent_assistant.stop_reason']).toBe('max_iterations_reached');
    const limit = turn.events.find((event) => event.name === 'agent_assistant.limit_reached');
    expect(limit?.attributes).toEqual({
      'agent_assistant.stop_reason': 'max_iterations_reached',
    });
  });

  it('links a resumed run to the run that paused for approval', async () => {
    const model = createScriptedModel([
      {
        type: 'tool_request',
        calls: [{ id: 'call-1', name: 'send_email', input: { to: 'a@example.com' } }],
      },
      { type: 'final_answer', text: 'Sent.' },
    ]);
    const tools = createFakeToolRegistry({
      send_email: { requiresApproval: true, execute: () => 'sent' },
    });
    const traceSink = sink();
    const harness = createHarness({ model, tools, trace: traceSink });
    const paused = await harness.runTurn(createTurnInput());
    expect(paused.outcome).toBe('awaiting_approval');
    const pausedSpan = only('invoke_agent helper');
    expect(pausedSpan.status.code).toBe(0);
    expect(pausedSpan.attributes['agent_assistant.stop_reason']).toBe('approval_required');
    expect(pausedSpan.events.map((event) => event.name)).toContain('agent_assistant.approval_requested');
    expect(traceSink.pausedSpanContext('turn-test')?.spanId).toBe(pausedSpan.spanContext().spanId);
    exporter.reset();

    const resumed = await harness.resumeTurn(paused.continuation, {
      type: 'approval',
      decisions: { 'call-1': 'approved' },
    });
    expect(resumed.outcome).toBe('completed');
    const resumedSpan = only('invoke_agent helper');
    expect(resumedSpan.attributes['agent_assistant.continuation.resumed_from']).toBe(paused.continuation?.id);
    expect(resumedSpan.links.map((link) => link.context.spanId)).toEqual([pausedSpan.spanContext().spanId]);
    expect(only('execute_tool send_email').attributes['agent_assistant.tool.status']).toBe('success');
  });

  it('links across processes through the resumedFrom option', async () => {
    const model = createScriptedModel([
      { type: 'clarification', question: 'Which city?' },
      { type: 'final_answer', text: 'Oslo it is.' },
    ]);
    const first = sink();
    const paused = await createHarness({ model, trace: first }).runTurn(createTurnInput());
    const stored = first.pausedSpanContext('turn-test');
    expect(stored).toBeDefined();
    exporter.reset();

    const seen: string[] = [];
    const second = sink({
      resumedFrom: (turnId, continuationId) => {
        seen.push(`${turnId}/${continuationId}`);
        return stored;
      },
    });
    await createHarness({ model, trace: second }).resumeTurn(paused.continuation, { type: 'clarification', answer: 'Oslo' });
    expect(seen).toEqual([`turn-test/${paused.continuation?.id}`]);
    expect(only('invoke_agent helper').links[0]?.context.spanId).toBe(stored?.spanId);
  });

  it('records the question only with captureContent', async () => {
    const run = async (captureContent: boolean) => {
      exporter.reset();
      const model = createScriptedModel([{ type: 'clarification', question: 'What is your account number?' }]);
      await createHarness({ model, trace: sink({ captureContent }) }).runTurn(createTurnInput());
      return only('invoke_agent helper').events.find((event) => event.name === 'agent_assistant.clarification_requested');
    };
    expect((await run(false))?.attributes).toEqual({});
    expect((await run(true))?.attributes?.['agent_assistant.clarification.question']).toBe('What is your account number?');
  });

  it('keeps hostile call ids and names as plain data and never disturbs the turn when the tracer throws', async () => {
    const model = createScriptedModel([
      {
        type: 'tool_request',
        calls: [{ id: '__proto__', name: 'constructor', input: {} }],
      },
      { type: 'final_answer', text: 'done' },
    ]);
    const tools = createFakeToolRegistry({ constructor: () => 'ok' });
    await createHarness({ model, tools, trace: sink() }).runTurn(createTurnInput());
    expect(only('execute_tool constructor').attributes['gen_ai.tool.call.id']).toBe('__proto__');

    const throwing: OpenTelemetryTracer = {
      startSpan() {
        throw new Error('exporter down');
      },
    };
    const result = await createHarness({
      model: createScriptedModel([{ type: 'final_answer', text: 'still fine' }]),
      trace: createOpenTelemetryTraceSink({ tracer: throwing }),
    }).runTurn(createTurnInput());
    expect(result.outcome).toBe('completed');
    expect(result.traceSummary.traceSinkErrors).toBeGreaterThan(0);
  });

  it('works with the global API tracer and names spans without a model or agent name', async () => {
    trace.setGlobalTracerProvider(provider);
    try {
      const model = createScriptedModel([{ type: 'final_answer', text: 'hi' }]);
      await createHarness({
        model,
        trace: createOpenTelemetryTraceSink({
          tracer: trace.getTracer('global'),
        }),
      }).runTurn(createTurnInput());
      expect(
        spans()
          .map((span) => span.name)
          .sort(),
      ).toEqual(['chat', 'invoke_agent']);
    } finally {
      trace.disable();
    }
  });

  it('refuses options without a tracer with HarnessConfigError naming the field', () => {
    const bad = (options: unknown) => () => createOpenTelemetryTraceSink(options as OpenTelemetryTraceSinkOptions);
    expect(bad({})).toThrow(HarnessConfigError);
    expect(bad({ tracer: {} })).toThrow(/tracer/);
    expect(bad({ tracer, maxContentLength: -1 })).toThrow(/maxContentLength/);
    try {
      bad({ tracer, captureContent: 'yes' })();
    } catch (error) {
      expect(HarnessConfigError.isInstance(error) && error.field).toBe('captureContent');
    }
  });
});
