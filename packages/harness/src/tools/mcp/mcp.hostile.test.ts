// Hostile MCP servers (issue 22, classes 8–10): real SDK servers over streamable HTTP on loopback,
// answering with huge tool lists, malformed entries and echoes of the configured headers.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createHarness, createMcpToolRegistry, type HarnessResult, type McpToolRegistry, type McpToolRegistryOptions } from '../../index.js';
import { createScriptedModel, createTurnInput, memoryTraceSink } from '../../testing/index.js';
import { loopbackServers } from '../../__fixtures__/loopback-servers.js';
import { escapeAll, findSecret } from '../../providers/__fixtures__/find-secret.js';
import { createRawServer, mcpHttpHandler, type McpHttpHandlerOptions, type RawServerScript, type SeenHeaders } from '../../__fixtures__/mcp-raw-server.mjs';

const servers = loopbackServers();
const objectSchema = { type: 'object', properties: {} };
const tool = (name: string, extra: Record<string, unknown> = {}) => ({ name, inputSchema: objectSchema, ...extra });
const call = (id: string, name: string, input: Record<string, unknown> = {}) => ({ type: 'tool_request' as const, calls: [{ id, name, input }] });

/** A registry over a raw SDK server on loopback, and the `tools/list` cursors the server was asked for. */
async function rawRegistry(script: RawServerScript, options: Partial<McpToolRegistryOptions> & { headers?: Record<string, string> } = {}, http: McpHttpHandlerOptions = {}) {
  const listRequests: (string | undefined)[] = [];
  const counted: RawServerScript = {
    listTools: (cursor, headers) => {
      listRequests.push(cursor);
      return script.listTools(cursor, headers);
    },
    ...(script.callTool === undefined ? {} : { callTool: script.callTool }),
  };
  const { origin } = await servers.serve(mcpHttpHandler(() => createRawServer(counted), http));
  const { headers, ...rest } = options;
  const tools = createMcpToolRegistry({ ...rest, transport: { type: 'http', url: `${origin}/mcp`, ...(headers === undefined ? {} : { headers }) } } as McpToolRegistryOptions);
  return { tools, listRequests };
}

/** One turn calling the given tools in order, then answering; with its trace and model. */
async function runCalls(tools: McpToolRegistry, calls: ReturnType<typeof call>[]) {
  const model = createScriptedModel([...calls, { type: 'final_answer', text: 'done' }]);
  const trace = memoryTraceSink();
  const harness = createHarness({ model, tools, trace, limits: { maxToolCalls: 20, maxIterations: 20 } });
  const result = await harness.runTurn(createTurnInput({ text: 'use the tools' }));
  return { result, trace, model };
}

function toolResults(result: HarnessResult) {
  return result.transcript.flatMap((item) => (item.type === 'tool_result' ? [item.result] : []));
}

describe('a huge tool list takes the first maxTools tools (issue 22, class 8)', () => {
  const many = (count: number, prefix = 't') => Array.from({ length: count }, (_, index) => tool(`${prefix}${String(index)}`));

  it('lists 128 of 150,000 tools, reads no second page, and the turn completes', async () => {
    const huge = many(150_000);
    const { tools, listRequests } = await rawRegistry({ listTools: (cursor) => (cursor === undefined ? { tools: huge, nextCursor: 'page-2' } : { tools: many(10, 'late') }) });
    try {
      const listed = await tools.listAvailable();
      expect(listed).toHaveLength(128);
      expect(listed.at(-1)?.name).toBe('t127');
      const { result } = await runCalls(tools, [call('c1', 't0')]);
      expect(result).toMatchObject({ outcome: 'completed', stopReason: 'answer_finalized' });
      expect(toolResults(result)[0]?.status).toBe('success');
      expect(listRequests).toEqual([undefined]);
    } finally {
      await tools.close();
    }
  });

  it('reads pages only until maxTools usable tools are taken (bad entries do not count)', async () => {
    const page = (cursor: string | undefined) => {
      const number = cursor === undefined ? 0 : Number(cursor);
      return { tools: [...many(4, `p${String(number)}_`), { name: 'bad', inputSchema: { type: 'array' } }], nextCursor: String(number + 1) };
    };
    const { tools, listRequests } = await rawRegistry({ listTools: page }, { maxTools: 10 });
    try {
      expect((await tools.listAvailable()).map((item) => item.name)).toEqual([
        ...['p0_0', 'p0_1', 'p0_2', 'p0_3', 'p1_0', 'p1_1', 'p1_2', 'p1_3', 'p2_0', 'p2_1'],
      ]);
      expect(listRequests).toEqual([undefined, '1', '2']);
    } finally {
      await tools.close();
    }
  });
});

describe('one bad entry leaves out only itself (issue 22, class 9)', () => {
  const hugeName = 'h'.repeat(100_000);
  const entries: unknown[] = [
    tool('good_first', { description: 'Good.' }),
    { name: 'array_schema', inputSchema: { type: 'array', items: {} } },
    { name: 'missing_schema' },
    { name: 'null_schema', inputSchema: null },
    { name: 'list_schema', inputSchema: [] },
    42,
    'a string',
    null,
    [tool('nested_in_array')],
    { inputSchema: objectSchema },
    tool('__proto__', { description: 'An ordinary name.' }),
    tool('constructor'),
    tool(hugeName),
    tool('n'.repeat(65)),
    tool('dotted.name'),
    tool('good_first', { description: 'A duplicate.' }),
    { name: 'proto_schema', inputSchema: JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}') as unknown },
    tool('good_last'),
  ];
  const goodNames = ['good_first', '__proto__', 'constructor', 'proto_schema', 'good_last'];

  it('lists exactly the good entries and says why the others were left out', async () => {
    const { tools } = await rawRegistry({ listTools: () => ({ tools: entries }) });
    try {
      expect((await tools.listAvailable()).map((item) => item.name)).toEqual(goodNames);
      const skipped = tools.skippedTools();
      expect(skipped.map((note) => note.index)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 14, 15]);
      expect(skipped[0]).toEqual({ index: 1, name: 'array_schema', reason: 'the inputSchema is not an object schema (type "object")' });
      expect(skipped[1]).toEqual({ index: 2, name: 'missing_schema', reason: 'the entry has no inputSchema' });
      expect(skipped.find((note) => note.index === 12)?.reason).toMatch(/not usable JSON: it is larger than/);
      expect(skipped.find((note) => note.index === 13)?.name).toBe(`${'n'.repeat(65)}`);
      expect(skipped.find((note) => note.index === 15)?.reason).toBe('an earlier tool has the same name');
      expect(JSON.stringify(skipped).length).toBeLessThan(4_000);
    } finally {
      await tools.close();
    }
  });

  it('calls a tool named __proto__ like any other, and pollutes no prototype', async () => {
    const called: string[] = [];
    const { tools } = await rawRegistry({
      listTools: () => ({ tools: entries }),
      callTool: (name) => {
        called.push(name);
        return { content: [{ type: 'text', text: `ran ${name}` }] };
      },
    });
    try {
      const { result } = await runCalls(tools, [call('c1', '__proto__'), call('c2', 'constructor')]);
      expect(result.outcome).toBe('completed');
      expect(toolResults(result).map((item) => item.output)).toEqual(['ran __proto__', 'ran constructor']);
      expect(called).toEqual(['__proto__', 'constructor']);
      expect(Object.getPrototypeOf({})).toBe(Object.prototype);
      expect(({} as Record<string, unknown>).type).toBeUndefined();
    } finally {
      await tools.close();
    }
  });

  it('reads the list entry by entry with a passed-in SDK Client too', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createRawServer({ listTools: () => ({ tools: entries }) }).connect(serverSide);
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(clientSide);
    try {
      await expect(client.listTools()).rejects.toThrow();
      const tools = createMcpToolRegistry({ client });
      expect((await tools.listAvailable()).map((item) => item.name)).toEqual(goodNames);
    } finally {
      await client.close();
    }
  });
});

describe('configured header values echoed by the server never leave the registry (issue 22, class 10)', () => {
  const token = 'mcp-canary-0123456789abcdef';
  const apiKey = 'xk-canary-ZYXWVUT98765';
  const headers = { Authorization: `Bearer ${token}`, 'X-Api-Key': apiKey };
  const secrets = [headers.Authorization, token, apiKey];

  /** Everything the caller and the model could see, checked for every secret in every escaped form. */
  function expectNowhere(...values: unknown[]) {
    const everything = JSON.parse(JSON.stringify(values)) as unknown;
    for (const secret of secrets) expect(findSecret(everything, secret)).toEqual([]);
    const text = JSON.stringify(values);
    for (const secret of secrets) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(escapeAll(secret));
      expect(text).not.toContain(escapeAll(secret, true));
    }
  }

  const echo = (seen: SeenHeaders) => {
    const authorization = String(seen.authorization);
    const key = String(seen['x-api-key']);
    return { authorization, key, all: JSON.stringify(seen) };
  };
  const script: RawServerScript = {
    listTools: (_cursor, seen) => ({
      tools: [
        tool('echo', { description: `Called with ${echo(seen).authorization} and ${echo(seen).key}.` }),
        tool('fail'),
        tool('rpc_error'),
        tool(token, { description: 'A tool named after the token.' }),
        { name: 'schema_echo', inputSchema: { type: 'object', properties: { [echo(seen).key]: { type: 'string', description: echo(seen).authorization } } } },
      ],
    }),
    callTool: (name, _input, seen) => {
      const { authorization, key, all } = echo(seen);
      if (name === 'fail') return { isError: true, content: [{ type: 'text', text: `denied for ${authorization} (${escapeAll(key)})` }] };
      if (name === 'rpc_error') throw new McpError(ErrorCode.InvalidRequest, `bad credentials ${authorization} ${key}`);
      return {
        content: [
          { type: 'text', text: `headers: ${all}` },
          { type: 'text', text: `escaped: ${escapeAll(authorization)} ${escapeAll(key, true)} token ${authorization.slice(7)}` },
          { type: 'resource', resource: { uri: `https://x.test/?k=${key}`, text: key } },
        ],
        structuredContent: { headers: seen, [key]: 'as a key', nested: { list: [authorization, escapeAll(key)] } },
      };
    },
  };

  it('redacts them from results, errors, tool definitions and the trace', async () => {
    const seen: string[] = [];
    const { tools } = await rawRegistry(script, { headers }, {
      intercept: (_message, request) => {
        seen.push(String(request.headers.authorization));
        return undefined;
      },
    });
    try {
      const listed = await tools.listAvailable();
      expect(listed.map((item) => item.name)).toEqual(['echo', 'fail', 'rpc_error', 'schema_echo']);
      const { result, trace, model } = await runCalls(tools, [call('c1', 'echo'), call('c2', 'fail'), call('c3', 'rpc_error')]);
      expect(result.outcome).toBe('completed');
      const [echoed, failed, rpc] = toolResults(result);
      expect(echoed?.status).toBe('success');
      expect(echoed?.output).toContain('[REDACTED]');
      expect(failed?.error).toMatchObject({ code: 'mcp_tool_error', retryable: true });
      expect(rpc?.error?.message).toContain('[REDACTED]');
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.every((value) => value === headers.Authorization)).toBe(true);
      expectNowhere(listed, tools.skippedTools(), result, trace.events, model.calls);
    } finally {
      await tools.close();
    }
  });

  it('redacts them from a 401 body on connect: the turn fails without them', async () => {
    const { tools } = await rawRegistry(script, { headers }, {
      intercept: (_message, request) => ({ status: 401, body: `unauthorized: ${String(request.headers.authorization)} / ${escapeAll(String(request.headers['x-api-key']))}` }),
    });
    try {
      const error: unknown = await tools.listAvailable().catch((thrown: unknown) => thrown);
      expect(String((error as Error).message)).toMatch(/could not be listed: .*Error POSTing to endpoint: unauthorized: \[REDACTED\]/);
      const { result, trace, model } = await runCalls(tools, [call('c1', 'echo')]);
      expect(result).toMatchObject({ outcome: 'failed', stopReason: 'runtime_error', metadata: { error: { source: 'tools.listAvailable' } } });
      const direct = await tools.execute({ id: 'c9', name: 'echo', input: {} }, { assistantId: 'a', turnId: 't', iteration: 1, toolCallIndex: 0, signal: new AbortController().signal });
      expect(direct.error?.message).toContain('[REDACTED]');
      expectNowhere(String((error as Error).message), result, trace.events, model.calls, direct);
    } finally {
      await tools.close();
    }
  });

  it('redacts them from a 401 body on a tool call', async () => {
    const { tools } = await rawRegistry(script, { headers }, {
      intercept: (message, request) =>
        (message as { method?: unknown }).method === 'tools/call' ? { status: 401, body: `{"error":"no access for ${escapeAll(String(request.headers.authorization))}"}` } : undefined,
    });
    try {
      const { result, trace, model } = await runCalls(tools, [call('c1', 'echo')]);
      const [denied] = toolResults(result);
      expect(denied?.status).toBe('error');
      expect(denied?.error?.message).toMatch(/Error POSTing to endpoint: .*no access for \[REDACTED\]/);
      expectNowhere(result, trace.events, model.calls);
    } finally {
      await tools.close();
    }
  });
});

describe('secret-looking env values of a stdio server are redacted too (issue 22, class 10)', () => {
  it('redacts API_TOKEN and keeps LOG_LEVEL', async () => {
    const envEcho = fileURLToPath(new URL('./__fixtures__/mcp-env-echo-server.mjs', import.meta.url));
    const token = 'env-canary-0123456789';
    const tools = createMcpToolRegistry({ transport: { type: 'stdio', command: process.execPath, args: [envEcho], env: { API_TOKEN: token, LOG_LEVEL: 'verbose-logging' } } });
    try {
      const listed = await tools.listAvailable();
      const { result, trace, model } = await runCalls(tools, [call('c1', 'env')]);
      expect(toolResults(result)[0]?.output).toBe('API_TOKEN=[REDACTED] LOG_LEVEL=verbose-logging');
      expect(findSecret(JSON.parse(JSON.stringify({ listed, result, events: trace.events, inputs: model.calls })), token)).toEqual([]);
    } finally {
      await tools.close();
    }
  });
});
