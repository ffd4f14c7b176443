import { afterEach, describe, expect, it } from 'vitest';
import { createHarness } from '../../core/create-harness.js';
import type { ExecutionRequest } from '../../execution/types.js';
import { createTurnInput, memoryTraceSink } from '../../testing/index.js';
import { createFakeOpenAICompatibleServer, type FakeModelServer, type FakeServerScript } from '../../testing/node/index.js';
import { createOpenRouterAdapter, OpenRouterExecutionAdapter } from './openrouter-execution-adapter.js';

const CANARY = 'sk-or-v1-canary-exec-55aa77bb99cc';
let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const request = (overrides: Partial<ExecutionRequest> = {}): ExecutionRequest => ({
  assistantId: 'assistant-1',
  turnId: 'turn-1',
  message: { id: 'm1', text: 'Summarise the plan.', receivedAt: '2026-01-01T00:00:00.000Z' },
  instructions: { systemPrompt: 'You are concise.', developerPrompt: 'Answer in one line.' },
  context: { blocks: [{ id: 'b1', label: 'plan', content: 'Ship on Friday.' }] },
  ...overrides,
});

async function adapterFor(replies: FakeServerScript[]) {
  server = await createFakeOpenAICompatibleServer({ replies });
  const apiKey = CANARY;
  const model = 'openai/gpt-5-mini';
  const adapter = new OpenRouterExecutionAdapter({ apiKey, model, baseUrl: server.url, retry: { initialDelayMs: 1, maxDelayMs: 2 } });
  return { server, adapter };
}

describe('OpenRouterExecutionAdapter.negotiate', () => {
  const adapter = createOpenRouterAdapter({ apiKey: 'k-123456' });

  it('supports a plain request without degradation', () => {
    expect(adapter.negotiate(request())).toMatchObject({ supported: true, degraded: false, reasons: [] });
  });

  it.each<[string, Partial<ExecutionRequest>, string]>([
    ['tools present', { tools: [{ name: 'search' }] }, 'tool_use_unsupported'],
    ['tool use required', { requirements: { toolUse: 'required' } }, 'tool_use_unsupported'],
    ['attachments present', { message: { id: 'm', text: 'see file', receivedAt: 'x', attachments: [{ id: 'a', type: 'file' }] } }, 'attachments_unsupported'],
    ['attachments required', { requirements: { attachments: 'required' } }, 'attachments_unsupported'],
    ['continuation required', { requirements: { continuationSupport: 'required' } }, 'continuation_unsupported'],
    ['approvals required', { requirements: { approvalInterrupts: 'required' } }, 'approval_interrupt_unsupported'],
    ['structured tool calls required', { requirements: { structuredToolCalls: 'required' } }, 'structured_tool_calls_unsupported'],
    ['a clarification resume', { resume: { type: 'clarification', answer: 'yes' } }, 'continuation_unsupported'],
  ])('blocks when %s', (_name, overrides, code) => {
    const negotiation = adapter.negotiate(request(overrides));
    expect(negotiation.supported).toBe(false);
    expect(negotiation.reasons).toContainEqual(expect.objectContaining({ code, severity: 'blocking' }));
  });

  it.each<[string, Partial<ExecutionRequest>, string]>([
    ['continuation preferred', { requirements: { continuationSupport: 'preferred' } }, 'continuation_unsupported'],
    ['approvals preferred', { requirements: { approvalInterrupts: 'preferred' } }, 'approval_interrupt_unsupported'],
    ['structured tool calls preferred', { requirements: { structuredToolCalls: 'preferred' } }, 'structured_tool_calls_unsupported'],
    ['a richer trace', { requirements: { traceDepth: 'detailed' } }, 'trace_depth_reduced'],
    ['a foreign continuation', { continuation: { continuationId: 'x' } }, 'continuation_unsupported'],
  ])('warns and degrades when %s', (_name, overrides, code) => {
    const negotiation = adapter.negotiate(request(overrides));
    expect(negotiation).toMatchObject({ supported: true, degraded: true });
    expect(negotiation.reasons).toEqual([expect.objectContaining({ code, severity: 'warning' })]);
  });

  it('reports tool use once even when tools are present and required', () => {
    const reasons = adapter.negotiate(request({ tools: [{ name: 'search' }], requirements: { toolUse: 'required' } })).reasons;
    expect(reasons.filter((reason) => reason.code === 'tool_use_unsupported')).toHaveLength(1);
  });

  it('hands out copies of its capabilities', () => {
    const capabilities = adapter.describeCapabilities();
    capabilities.notes?.push('mutated');
    capabilities.toolUse = 'native-iterative';
    expect(adapter.describeCapabilities()).toMatchObject({ toolUse: 'none', traceDepth: 'minimal', attachments: false });
    expect(adapter.describeCapabilities().notes).not.toContain('mutated');
    expect(adapter.negotiate(request()).effectiveCapabilities).not.toBe(adapter.negotiate(request()).effectiveCapabilities);
    expect(adapter.backendId).toBe('openrouter-api');
  });
});

describe('OpenRouterExecutionAdapter.execute', () => {
  it('completes with text, usage (cost → costUnits), trace and metadata, sending separate prompt messages', async () => {
    const { server, adapter } = await adapterFor([{ text: ' Ship on Friday. ', usage: { inputTokens: 40, outputTokens: 5, cost: 0.0003 } }]);
    const result = await adapter.execute(request());
    expect(result).toMatchObject({
      backendId: 'openrouter-api',
      status: 'completed',
      output: { text: 'Ship on Friday.' },
      usage: { inputTokens: 40, outputTokens: 5, costUnits: 0.0003 },
      trace: { summary: { stepCount: 1, toolCallCount: 0, degraded: false }, events: [{ type: 'model_started' }, { type: 'model_completed', data: { finishReason: 'stop' } }] },
      metadata: { model: 'openai/gpt-5-mini', responseId: 'chatcmpl-fake-1', attempts: 1 },
    });
    expect(result.degradation).toBeUndefined();
    const body = server.requests[0]!.body as { model: string; messages: { role: string; content: string }[]; tools?: unknown };
    expect(body.model).toBe('openai/gpt-5-mini');
    expect(body.tools).toBeUndefined();
    expect(body.messages).toEqual([
      { role: 'system', content: 'You are concise.' },
      { role: 'system', content: 'Answer in one line.' },
      { role: 'system', content: 'Context prepared for this turn:\n\n[plan]\nShip on Friday.' },
      { role: 'user', content: 'Summarise the plan.' },
    ]);
  });

  it('sends the history as user and assistant messages before the message', async () => {
    const { server, adapter } = await adapterFor([{ text: 'Friday.' }]);
    const history = [
      { role: 'user' as const, text: 'When do we ship?' },
      { role: 'assistant' as const, text: 'Let me check the plan.' },
    ];
    expect(await adapter.execute(request({ history }))).toMatchObject({ status: 'completed', output: { text: 'Friday.' } });
    const body = server.requests[0]!.body as { messages: { role: string; content: string }[] };
    expect(body.messages.slice(3)).toEqual([
      { role: 'user', content: 'When do we ship?' },
      { role: 'assistant', content: 'Let me check the plan.' },
      { role: 'user', content: 'Summarise the plan.' },
    ]);
  });

  it('returns unsupported without sending anything when negotiation blocks', async () => {
    const { server, adapter } = await adapterFor([]);
    const result = await adapter.execute(request({ tools: [{ name: 'search' }] }));
    expect(result).toMatchObject({ status: 'unsupported', error: { code: 'unsupported_capability', retryable: false }, trace: { summary: { degraded: false } } });
    expect(result.degradation).toContainEqual(expect.objectContaining({ code: 'tool_use_unsupported' }));
    expect(server.requests).toHaveLength(0);
  });

  it('keeps warnings as degradation on a completed result', async () => {
    const { adapter } = await adapterFor([{ text: 'ok' }]);
    const result = await adapter.execute(request({ requirements: { traceDepth: 'standard' } }));
    expect(result).toMatchObject({ status: 'completed', trace: { summary: { degraded: true } } });
    expect(result.degradation).toEqual([expect.objectContaining({ code: 'trace_depth_reduced' })]);
  });

  it.each<[string, FakeServerScript[], Record<string, unknown>]>([
    ['a 401 (not retryable)', [{ type: 'error', status: 401, message: 'No auth' }], { code: 'backend_execution_error', retryable: false, metadata: { httpStatus: 401 } }],
    ['a 400 with a non-JSON body', [{ type: 'http', status: 400, body: 'Bad Request' }], { code: 'backend_execution_error', retryable: false, metadata: { httpStatus: 400 } }],
    [
      'exhausted 5xx retries',
      [500, 502, 503].map((status): FakeServerScript => ({ type: 'error', status })),
      { code: 'backend_execution_error', retryable: true, metadata: { httpStatus: 503 } },
    ],
    ['a body that is not JSON', [{ type: 'http', status: 200, body: '<html>gateway</html>' }], { code: 'invalid_backend_output', retryable: false }],
    ['an answer without text', [{ text: '' }], { code: 'invalid_backend_output', retryable: true }],
    ['a refusal', [{ refusal: 'Not allowed.' }], { code: 'backend_execution_error', retryable: false, metadata: { refusal: true } }],
    [
      'an error inside a 200',
      [{ text: '', error: { message: 'Provider down', code: 502 } }],
      { code: 'backend_execution_error', retryable: true, metadata: { httpStatus: 502, errorCode: 'provider_unavailable' } },
    ],
    [
      'a quota error inside a 200',
      [{ text: '', error: { message: 'You exceeded your current quota.', code: 'insufficient_quota' } }],
      { code: 'backend_execution_error', retryable: false, metadata: { errorCode: 'quota_exceeded', providerCode: 'insufficient_quota' } },
    ],
  ])('fails truthfully on %s', async (_name, replies, error) => {
    const { adapter } = await adapterFor(replies);
    const result = await adapter.execute(request());
    expect(result).toMatchObject({ status: 'failed', error, trace: { events: [{ type: 'model_started' }, { type: 'failure' }] } });
  });

  it('retries a 429 with Retry-After before answering', async () => {
    const { server, adapter } = await adapterFor([{ type: 'error', status: 429, retryAfter: 0 }, { text: 'ok' }]);
    expect(await adapter.execute(request())).toMatchObject({ status: 'completed', metadata: { attempts: 2 } });
    expect(server.requests).toHaveLength(2);
  });

  it('reports request.timeoutMs as a retryable timeout and closes the connection', async () => {
    const { server, adapter } = await adapterFor([{ type: 'hang' }]);
    const result = await adapter.execute(request({ timeoutMs: 250 }));
    expect(result).toMatchObject({ status: 'failed', error: { code: 'timeout', retryable: true } });
    await server.requests[0]!.closed;
    expect(server.requests[0]!.abortedByClient()).toBe(true);
  });

  it('fails without a key, naming the variable but sending nothing', async () => {
    server = await createFakeOpenAICompatibleServer();
    const adapter = new OpenRouterExecutionAdapter({ baseUrl: server.url, apiKey: { env: 'OPENROUTER_API_KEY' }, env: {} });
    const result = await adapter.execute(request());
    expect(result).toMatchObject({ status: 'failed', error: { code: 'backend_execution_error', retryable: false } });
    expect(result.error?.message).toContain('OPENROUTER_API_KEY');
    expect(server.requests).toHaveLength(0);
  });

  it('runs under createHarness as a backend, with cost in the turn usage and no key anywhere', async () => {
    const { adapter } = await adapterFor([
      (recorded) => ({ type: 'http', status: 503, body: { error: { message: `key ${recorded.headers.authorization ?? ''} overloaded` } } }),
      { text: 'Ship on Friday.', usage: { inputTokens: 30, outputTokens: 4, cost: 0.0002 } },
    ]);
    const trace = memoryTraceSink();
    const result = await createHarness({ backend: adapter, trace }).runTurn(createTurnInput({ text: 'Summarise the plan.' }));
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Ship on Friday.' }, usage: { totalCostUnits: 0.0002, totalInputTokens: 30 } });
    expect(JSON.stringify({ result, events: trace.events })).not.toContain(CANARY);
  });

  it('maps a backend failure and a timeout to the harness outcomes', async () => {
    const { adapter } = await adapterFor([{ type: 'error', status: 403, message: `forbidden for ${CANARY}` }]);
    const failed = await createHarness({ backend: adapter }).runTurn(createTurnInput());
    expect(failed).toMatchObject({
      outcome: 'failed',
      stopReason: 'provider_error',
      error: { code: 'backend_execution_error', retryable: false, providerCode: 'fake_error' },
      metadata: { error: { code: 'backend_execution_error', retryable: false, metadata: { errorCode: 'permission_denied', httpStatus: 403 } } },
    });
    expect(JSON.stringify(failed)).not.toContain(CANARY);
    server?.enqueue({ type: 'hang' });
    const slow = await createHarness({ backend: adapter, limits: { maxElapsedMs: 100 } }).runTurn(createTurnInput());
    expect(slow).toMatchObject({ outcome: 'deferred', stopReason: 'timeout_reached' });
  });
});
