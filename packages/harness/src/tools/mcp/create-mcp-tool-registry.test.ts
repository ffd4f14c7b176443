import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createHarness, createMcpToolRegistry, HarnessConfigError, type HarnessResult, type McpToolRegistry } from '../../index.js';
import { createScriptedModel, createTurnInput } from '../../testing/index.js';
import { loopbackServers } from '../../__fixtures__/loopback-servers.js';
import { mcpHttpHandler } from '../../__fixtures__/mcp-raw-server.mjs';
import { createTestServer } from './__fixtures__/mcp-test-server.mjs';

const stdioServer = fileURLToPath(new URL('./__fixtures__/mcp-stdio-server.mjs', import.meta.url));

function results(result: HarnessResult) {
  return result.transcript.flatMap((item) => (item.type === 'tool_result' ? [item.result] : []));
}

const call = (id: string, name: string, input: Record<string, unknown> = {}) => ({ type: 'tool_request' as const, calls: [{ id, name, input }] });

/** One turn that calls the given tools one after another, then answers. */
async function runCalls(tools: McpToolRegistry, calls: ReturnType<typeof call>[], limits = {}) {
  const model = createScriptedModel([...calls, { type: 'final_answer', text: 'done' }]);
  const harness = createHarness({ model, tools, limits: { maxToolCalls: 10, maxIterations: 10, ...limits } });
  return { result: await harness.runTurn(createTurnInput({ text: 'use the tools' })), model };
}

describe('createMcpToolRegistry over stdio (a real SDK server as a child process)', () => {
  const tools = createMcpToolRegistry({ transport: { type: 'stdio', command: process.execPath, args: [stdioServer] }, toolNamePrefix: 'srv_', callTimeoutMs: 5_000 });
  afterAll(() => tools.close());

  it('lists the server tools with their JSON Schemas, leaving out names models cannot call', async () => {
    const listed = await tools.listAvailable();
    expect(listed.map((tool) => tool.name)).toEqual(['srv_echo', 'srv_add', 'srv_fail', 'srv_hang', 'srv_add_tool']);
    expect(listed[0]).toMatchObject({
      description: 'Echo the text.',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      metadata: { mcpToolName: 'echo' },
    });
    expect(tools.skippedTools()).toEqual([{ index: 5, name: 'my.dotted', reason: 'the name (with the prefix) does not fit [A-Za-z0-9_-]{1,64}' }]);
  });

  it('maps content, structuredContent and isError through a harness turn', async () => {
    const { result } = await runCalls(tools, [call('c1', 'srv_echo', { text: 'hi' }), call('c2', 'srv_add', { a: 2, b: 3 }), call('c3', 'srv_fail')]);
    expect(result.outcome).toBe('completed');
    const [echo, add, fail] = results(result);
    expect(echo).toMatchObject({ status: 'success', output: 'echo: hi' });
    expect(add).toMatchObject({ status: 'success', output: '5', structuredOutput: { sum: 5 } });
    expect(fail).toMatchObject({ status: 'error', error: { code: 'mcp_tool_error', message: 'the thing is broken', retryable: true } });
  });

  it('gives invalid arguments back to the model as a retryable error', async () => {
    const { result } = await runCalls(tools, [call('c1', 'srv_add', { a: 'two' })]);
    const [add] = results(result);
    expect(add?.status).toBe('error');
    expect(add?.error?.retryable).toBe(true);
  });

  it('stops a call at the call timeout', async () => {
    const quick = createMcpToolRegistry({ transport: { type: 'stdio', command: process.execPath, args: [stdioServer] }, callTimeoutMs: 200 });
    try {
      const { result } = await runCalls(quick, [call('c1', 'hang')]);
      expect(results(result)[0]?.error).toMatchObject({ code: 'timeout', retryable: true });
    } finally {
      await quick.close();
    }
  });

  it('lists again after tools/list_changed', async () => {
    const changing = createMcpToolRegistry({ transport: { type: 'stdio', command: process.execPath, args: [stdioServer] } });
    try {
      await runCalls(changing, [call('c1', 'add_tool')]);
      const { result } = await runCalls(changing, [call('c2', 'late')]);
      expect(results(result)[0]).toMatchObject({ status: 'success', output: 'late tool ran' });
    } finally {
      await changing.close();
    }
  });

  it('reports a server that cannot start as an unrecoverable tool error', async () => {
    const broken = createMcpToolRegistry({ transport: { type: 'stdio', command: '/nonexistent/mcp-server' }, connectTimeoutMs: 5_000 });
    const result = await broken.execute({ id: 'c1', name: 'echo', input: {} }, {
      assistantId: 'a',
      turnId: 't',
      iteration: 1,
      toolCallIndex: 0,
      signal: new AbortController().signal,
    });
    expect(result.error).toMatchObject({ code: 'mcp_unavailable', retryable: false });
    await broken.close();
  });
});

describe('createMcpToolRegistry over streamable HTTP (a real SDK server on loopback)', () => {
  const servers = loopbackServers();
  const seenHeaders: string[] = [];
  const serve = async () => {
    const { origin } = await servers.serve(
      mcpHttpHandler(() => createTestServer(), {
        intercept: (_message, request) => {
          seenHeaders.push(String(request.headers.authorization));
          return undefined;
        },
      }),
    );
    return `${origin}/mcp`;
  };

  it('calls tools through a harness turn, sending the configured headers', async () => {
    const tools = createMcpToolRegistry({ transport: { type: 'http', url: await serve(), headers: { Authorization: 'Bearer test-token' } } });
    try {
      const { result } = await runCalls(tools, [call('c1', 'add', { a: 20, b: 22 }), call('c2', 'fail')]);
      const [add, fail] = results(result);
      expect(add).toMatchObject({ status: 'success', structuredOutput: { sum: 42 } });
      expect(fail?.error?.code).toBe('mcp_tool_error');
      expect(seenHeaders.length).toBeGreaterThan(0);
      expect(seenHeaders.every((header) => header === 'Bearer test-token')).toBe(true);
      expect(JSON.stringify(result)).not.toContain('test-token');
    } finally {
      await tools.close();
    }
  });
});

describe('createMcpToolRegistry with a client', () => {
  it('uses a connected SDK Client and leaves it open on close', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createTestServer().connect(serverSide);
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(clientSide);
    const tools = createMcpToolRegistry({ client, allowTools: ['echo'], requiresApproval: true });
    const listed = await tools.listAvailable();
    expect(listed.map((tool) => tool.name)).toEqual(['echo']);
    const harness = createHarness({ model: createScriptedModel([call('c1', 'echo', { text: 'x' })]), tools });
    const paused = await harness.runTurn(createTurnInput({ text: 'echo' }));
    expect(paused.outcome).toBe('awaiting_approval');
    await tools.close();
    expect(await client.listTools()).toHaveProperty('tools');
    await client.close();
  });

  it('passes the cancellation of the turn on to the server', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const controller = new AbortController();
    const cancelled = new Promise<void>((resolve) => {
      // The server aborts the turn once the call reached it, then reports the cancellation it receives.
      void createTestServer({ onHang: () => controller.abort(), onCancelled: resolve }).connect(serverSide);
    });
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(clientSide);
    const harness = createHarness({ model: createScriptedModel([call('c1', 'hang')]), tools: createMcpToolRegistry({ client }) });
    const result = await harness.runTurn(createTurnInput({ text: 'hang' }), { signal: controller.signal });
    expect(result.stopReason).toBe('cancelled');
    await cancelled;
    await client.close();
  });

  it('refuses bad options', () => {
    expect(() => createMcpToolRegistry({} as never)).toThrow(HarnessConfigError);
    expect(() => createMcpToolRegistry({ transport: { type: 'http', url: 'ftp://x' } })).toThrow(/transport.url/);
    expect(() => createMcpToolRegistry({ transport: { type: 'stdio', command: '' } })).toThrow(HarnessConfigError);
    expect(() => createMcpToolRegistry({ client: {} as never })).toThrow(/listTools/);
  });
});
