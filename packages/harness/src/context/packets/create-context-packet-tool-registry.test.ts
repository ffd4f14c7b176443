import { createMemoryVfs } from '@agent-assistant/vfs';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CONTEXT_PACKET_TOOL_NAME,
  createContextPacketToolRegistry,
  createHarness,
  createOpenAICompatibleModel,
  HarnessConfigError,
  type HarnessToolResult,
} from '../../index.js';
import { formatToolResult } from '../../shared/format-tool-result.js';
import { createTurnInput } from '../../testing/index.js';
import { createFakeOpenAICompatibleServer, type FakeModelServer } from '../../testing/node/index.js';

const vfs = createMemoryVfs({
  '/AGENTS.md': '# Rules\nBe brief.\n',
  '/src/example.ts': Array.from({ length: 50 }, (_, index) => `line ${index + 1}\n`).join(''),
  '/notes.md': 'n'.repeat(3000),
  [`/${'deep/'.repeat(700)}x.md`]: 'far away\n',
});
const bytesOf = (text: string) => Buffer.byteLength(text, 'utf8');
const context = { assistantId: 'a', turnId: 't', iteration: 1, toolCallIndex: 0, signal: new AbortController().signal };
const call = (input: unknown) => ({ id: 'call-1', name: CONTEXT_PACKET_TOOL_NAME, input: input as Record<string, unknown> });

/** What the model receives for a result, checked against the budget. */
function seenByModel(result: HarnessToolResult, budget: number): string {
  const { content } = formatToolResult(result);
  expect(bytesOf(content)).toBeLessThanOrEqual(budget);
  return content;
}

const servers: FakeModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('createContextPacketToolRegistry', () => {
  it('gives the model the packet over the real protocol, within the budget', async () => {
    const budget = 2048;
    const manifest = {
      selections: [
        { id: 'rules', path: 'AGENTS.md', required: true },
        { id: 'source', path: 'src/example.ts', representation: 'body', startLine: 10, endLine: 20, dependsOn: ['rules'] },
        { id: 'notes', path: 'notes.md' },
      ],
    };
    const server = await createFakeOpenAICompatibleServer({
      replies: [{ toolCalls: [{ id: 'call_1', name: CONTEXT_PACKET_TOOL_NAME, arguments: manifest }] }, { text: 'Read it.' }],
    });
    servers.push(server);
    const harness = createHarness({
      model: createOpenAICompatibleModel({ baseUrl: server.url, model: 'fake-model', retry: { maxRetries: 0 } }),
      tools: createContextPacketToolRegistry({ vfs, budget }),
    });
    const result = await harness.runTurn(createTurnInput({ text: 'Look at the example.' }));
    expect(result.outcome).toBe('completed');

    const sent = (server.requests[1]?.body as { messages: { role: string; content: string }[] }).messages.find((message) => message.role === 'tool');
    expect(sent).toBeDefined();
    expect(bytesOf(sent!.content)).toBeLessThanOrEqual(budget);
    const packet = JSON.parse(sent!.content) as { complete: boolean; sources: { id: string; startLine?: number; endLine?: number }[]; omitted: { id: string; reason: string }[] };
    expect(packet.sources.map((source) => [source.id, source.startLine, source.endLine])).toEqual([
      ['rules', 1, 2],
      ['source', 10, 20],
    ]);
    expect(packet.omitted).toEqual([{ id: 'notes', path: '/notes.md', reason: 'over_budget' }]);
    expect(packet.complete).toBe(false);

    const offered = (server.requests[0]?.body as { tools: { function: { name: string; parameters: { properties: Record<string, unknown> } } }[] }).tools;
    expect(offered.map((tool) => tool.function.name)).toEqual([CONTEXT_PACKET_TOOL_NAME]);
    expect(Object.keys(offered[0]!.function.parameters.properties)).toEqual(['selections']);
  });

  it('returns a packet that cannot be built as a retryable error naming why, within the budget even for a 4 KiB path', async () => {
    const budget = 1024;
    const tools = createContextPacketToolRegistry({ vfs, budget });
    const longPath = `/${'deep/'.repeat(700)}x.md`;
    const cases: [unknown, string][] = [
      [{ selections: [{ id: 'notes', path: 'notes.md', required: true }] }, 'over_budget'],
      [{ selections: [{ id: 'missing', path: `${longPath}.gone`, required: true }] }, 'required_unavailable'],
      [{ selections: [{ id: 'a', path: 'AGENTS.md', dependsOn: ['a'] }] }, 'dependency_cycle'],
      [{ selections: [{ id: 'a', path: 'AGENTS.md', dependsOn: ['b'] }] }, 'unknown_dependency'],
      [{ selections: [{ id: 'a', path: '../../etc/passwd' }] }, 'invalid_manifest'],
      [{ selections: 'everything' }, 'invalid_manifest'],
      [{ selections: [{ id: 'a'.repeat(200), path: 'x', [`${'k'.repeat(3000)}`]: 1 }] }, 'invalid_manifest'],
    ];
    for (const [input, code] of cases) {
      const result = await tools.execute(call(input), context);
      expect(result.status, code).toBe('error');
      expect(result.error).toMatchObject({ code, retryable: true });
      const content = seenByModel(result, budget);
      expect(JSON.parse(content)).toMatchObject({ error: { code, retryable: true } });
    }
    const overBudget = await tools.execute(call(cases[0]![0]), context);
    expect(overBudget.error?.metadata).toMatchObject({ id: 'notes', budget, overBy: expect.any(Number) as number });
  });

  it('fills the budget with as many selections as fit, for any budget', async () => {
    const selections = Array.from({ length: 50 }, (_, index) => ({ id: `line-${index + 1}`, path: 'src/example.ts', startLine: index + 1, endLine: index + 1 }));
    for (const budget of [4096, 6000, 9000, 20_000]) {
      const tools = createContextPacketToolRegistry({ vfs, budget });
      const result = await tools.execute(call({ selections }), context);
      expect(result.status).toBe('success');
      const packet = JSON.parse(seenByModel(result, budget)) as { sources: unknown[]; omitted: unknown[] };
      expect(packet.sources.length + packet.omitted.length).toBe(50);
    }
  });

  it.each([
    ['no vfs', { budget: 4096 }, 'vfs'],
    ['a budget too small for its errors', { vfs, budget: 1023 }, 'budget'],
    ['a bad maxFileBytes', { vfs, budget: 4096, maxFileBytes: 0 }, 'maxFileBytes'],
    ['a bad cacheDir', { vfs, budget: 4096, cacheDir: '' }, 'cacheDir'],
  ])('throws HarnessConfigError for %s', (_label, options, field) => {
    let error: unknown;
    try {
      createContextPacketToolRegistry(options as never);
    } catch (thrown) {
      error = thrown;
    }
    expect(HarnessConfigError.isInstance(error)).toBe(true);
    expect((error as HarnessConfigError).field).toBe(field);
  });
});
