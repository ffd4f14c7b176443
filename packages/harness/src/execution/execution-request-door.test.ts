import { afterEach, describe, expect, it } from 'vitest';
import { createHarness } from '../core/create-harness.js';
import { buildLocalPrompt } from '../local/build-local-prompt.js';
import { LocalCommandExecutionAdapter } from '../local/local-command-adapter.js';
import { createOpenAICompatibleModel } from '../providers/openai-compatible/create-openai-compatible-model.js';
import { OpenRouterExecutionAdapter } from '../providers/openrouter/openrouter-execution-adapter.js';
import { contextBlockText } from '../shared/context-block-text.js';
import { createTurnInput } from '../testing/index.js';
import { createFakeOpenAICompatibleServer, type FakeModelServer } from '../testing/node/index.js';
import { checkExecutionRequest } from './execution-request-schema.js';
import type { ExecutionRequest } from './types.js';

/** The request as the package README wrote it: context blocks with `text`, not `content`. */
const readmeRequest: ExecutionRequest = {
  assistantId: 'support-bot',
  turnId: 'turn-1',
  message: { id: 'm1', text: 'When do we ship?', receivedAt: '2026-01-01T00:00:00.000Z' },
  instructions: { systemPrompt: 'You are concise.' },
  context: { blocks: [{ id: 'plan', label: 'Plan', text: 'We ship on Friday.' }] },
};

const throwing = Object.defineProperty({ assistantId: 'a', turnId: 't', instructions: { systemPrompt: '' } }, 'message', {
  enumerable: true,
  get() {
    throw new Error('getter boom');
  },
});

/** Malformed requests a caller might hand an adapter. */
const badRequests: [string, unknown, string][] = [
  ['undefined', undefined, 'request'],
  ['null', null, 'request'],
  ['a string', 'hello', 'request'],
  ['no message', { assistantId: 'a', turnId: 't', instructions: { systemPrompt: '' } }, 'request.message'],
  ['a block without text', { ...readmeRequest, context: { blocks: [{ id: 'b', label: 'l' }] } }, 'request.context.blocks.0'],
  ['a non-string block text', { ...readmeRequest, context: { blocks: [{ id: 'b', label: 'l', text: 42 }] } }, 'request.context.blocks.0.text'],
  ['blocks not an array', { ...readmeRequest, context: { blocks: 'x' } }, 'request.context.blocks'],
  ['a bad timeout', { ...readmeRequest, timeoutMs: -5 }, 'request.timeoutMs'],
  ['a throwing getter', throwing, 'could not be read'],
  [
    'a throwing Proxy',
    new Proxy(
      {},
      {
        get() {
          throw new Error('proxy boom');
        },
      },
    ),
    'request',
  ],
];

describe('checkExecutionRequest', () => {
  it('accepts the README request and keeps the block text', () => {
    const checked = checkExecutionRequest(readmeRequest, 'x');
    expect(checked.ok).toBe(true);
    if (checked.ok) expect(contextBlockText(checked.request.context!.blocks[0]!)).toBe('We ship on Friday.');
  });

  it.each(badRequests)('turns %s into a failed invalid_request result, never a throw', (_name, request, mention) => {
    const checked = checkExecutionRequest(request, 'backend-x');
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.result).toMatchObject({ backendId: 'backend-x', status: 'failed', error: { code: 'invalid_request', retryable: false } });
    expect(checked.result.error!.message).toContain(mention);
  });

  it('drops a __proto__ key from records instead of letting it reach the prototype', () => {
    const metadata = JSON.parse('{"__proto__":{"polluted":true},"kept":1}') as Record<string, unknown>;
    const checked = checkExecutionRequest({ ...readmeRequest, metadata }, 'x');
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    expect((checked.request.metadata as { polluted?: unknown }).polluted).toBeUndefined();
    expect(checked.request.metadata).toEqual({ kept: 1 });
  });
});

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('OpenRouterExecutionAdapter at the door', () => {
  it('runs the README request and sends the text block to the model', async () => {
    server = await createFakeOpenAICompatibleServer({ replies: [{ text: 'Friday.' }] });
    const adapter = new OpenRouterExecutionAdapter({ baseUrl: server.url, apiKey: 'test-key-abcdef' });
    const result = await adapter.execute(readmeRequest);
    expect(result).toMatchObject({ status: 'completed', output: { text: 'Friday.' } });
    expect(JSON.stringify(server.requests[0]!.body)).toContain('We ship on Friday.');
  });

  it.each(badRequests)('returns a failed result for %s and sends nothing', async (_name, request) => {
    server = await createFakeOpenAICompatibleServer({ replies: [{ text: 'never' }] });
    const adapter = new OpenRouterExecutionAdapter({ baseUrl: server.url, apiKey: 'test-key-abcdef' });
    const result = await adapter.execute(request as ExecutionRequest);
    expect(result).toMatchObject({ backendId: 'openrouter-api', status: 'failed', error: { code: 'invalid_request' } });
    expect(server.requests).toHaveLength(0);
  });
});

describe('LocalCommandExecutionAdapter at the door', () => {
  const built: ExecutionRequest[] = [];
  const adapter = new LocalCommandExecutionAdapter({
    backendId: 'local-cat',
    command: process.execPath,
    capabilities: { toolUse: 'none', structuredToolCalls: false, continuationSupport: 'none', approvalInterrupts: 'none', traceDepth: 'minimal', attachments: false },
    buildArgs: (request) => {
      built.push(request);
      return ['-e', 'process.stdin.pipe(process.stdout)'];
    },
    stdin: (request) => buildLocalPrompt(request),
    parseOutput: (stdout) => ({ text: stdout }),
  });

  it('renders a text block into the prompt the CLI reads', async () => {
    const result = await adapter.execute(readmeRequest);
    expect(result.status).toBe('completed');
    expect(result.output?.text).toContain('## Plan\n\nWe ship on Friday.');
  });

  it.each(badRequests)('returns a failed result for %s and starts no process', async (_name, request) => {
    built.length = 0;
    const result = await adapter.execute(request as ExecutionRequest);
    expect(result).toMatchObject({ backendId: 'local-cat', status: 'failed', error: { code: 'invalid_request' } });
    expect(built).toHaveLength(0);
  });
});

describe('the turn input seam', () => {
  it('runTurn accepts context blocks with `text` and the model sees them', async () => {
    server = await createFakeOpenAICompatibleServer({ replies: [{ text: 'Friday.' }] });
    const model = createOpenAICompatibleModel({ baseUrl: server.url, model: 'fake' });
    const result = await createHarness({ model }).runTurn(
      createTurnInput({ context: { blocks: [{ id: 'plan', label: 'Plan', text: 'We ship on Friday.' }, { id: 'c', label: 'Old', content: 'content spelling' }] } }),
    );
    expect(result.outcome).toBe('completed');
    const sent = JSON.stringify(server.requests[0]!.body);
    expect(sent).toContain('We ship on Friday.');
    expect(sent).toContain('content spelling');
  });

  it('runTurn refuses a block with neither `text` nor `content` as a config error', async () => {
    server = await createFakeOpenAICompatibleServer({ replies: [] });
    const model = createOpenAICompatibleModel({ baseUrl: server.url, model: 'fake' });
    const input = createTurnInput({ context: { blocks: [{ id: 'b', label: 'l' } as unknown as { id: string; label: string; text: string }] } });
    await expect(createHarness({ model }).runTurn(input)).rejects.toMatchObject({ code: 'HARNESS_ERR_INVALID_CONFIG' });
  });
});
