// A server echoing a configured header value anywhere, in any JSON escaping (issue 22, class 10):
// the value shows nowhere in the tool list, the result, its errors, the trace or the model's input.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { propertyRuns } from '../../__fixtures__/property-runs.js';
import { encodeJson } from '../../providers/__fixtures__/wire-bodies.js';
import { findSecret } from '../../providers/__fixtures__/find-secret.js';
import { createHarness, createMcpToolRegistry } from '../../index.js';
import { createScriptedModel, createTurnInput, memoryTraceSink } from '../../testing/index.js';
import { createRawServer, mcpFetch } from '../../__fixtures__/mcp-raw-server.mjs';

type Escape = 'plain' | 'lower' | 'upper';
type Placement = 'text' | 'structured_value' | 'structured_key' | 'is_error' | 'rpc_error' | 'description' | 'schema_key' | 'http_401_call' | 'http_401_connect';

/** Header-safe secrets (visible ASCII, with the characters JSON escapes); the affixes keep them out of our own wording. */
const secretArb = fc
  .string({ minLength: 3, maxLength: 24, unit: fc.constantFrom('a', 'Z', '0', '9', '-', '_', '.', '"', '\\', '/', ' ', '+', '=') })
  .map((middle) => `K7q${middle}Q`);
const placementArb = fc.constantFrom<Placement>('text', 'structured_value', 'structured_key', 'is_error', 'rpc_error', 'description', 'schema_key', 'http_401_call', 'http_401_connect');
const escapesArb = fc.array(fc.constantFrom<Escape>('plain', 'plain', 'lower', 'upper'), { minLength: 1, maxLength: 7 });

/** `text` as the server writes it: JSON string content, each code unit literal or `\uXXXX` as `escapes` say. */
const written = (text: string, escapes: readonly Escape[]) => encodeJson(text, (index) => escapes[index % escapes.length]!).slice(1, -1);

describe('createMcpToolRegistry with a server echoing configured headers (property)', () => {
  it('never shows a header value, literal or escaped, wherever the server puts it', async () => {
    await fc.assert(
      fc.asyncProperty(secretArb, fc.boolean(), placementArb, escapesArb, async (secret, asBearer, placement, escapes) => {
        const token = secret.replaceAll(' ', '_');
        const headers: Record<string, string> = asBearer ? { Authorization: `Bearer ${token}` } : { 'X-Secret': secret };
        const secrets = asBearer ? [headers.Authorization!, token] : [secret];
        const echoed = (seen: Readonly<Record<string, unknown>>) => {
          const value = String(asBearer ? seen.authorization : seen['x-secret']);
          const shown = asBearer && escapes.length % 2 === 0 ? value.slice('Bearer '.length) : value;
          return `before ${written(shown, escapes)} after`;
        };
        const server = () =>
          createRawServer({
            listTools: (_cursor, seen) => ({
              tools: [
                {
                  name: 'echo',
                  ...(placement === 'description' ? { description: echoed(seen) } : {}),
                  inputSchema: { type: 'object', properties: placement === 'schema_key' ? { [echoed(seen)]: { type: 'string' } } : {} },
                },
              ],
            }),
            callTool: (_name, _input, seen) => {
              const said = echoed(seen);
              if (placement === 'rpc_error') throw new McpError(ErrorCode.InvalidRequest, said);
              if (placement === 'is_error') return { isError: true, content: [{ type: 'text', text: said }] };
              if (placement === 'structured_value') return { content: [], structuredContent: { said } };
              if (placement === 'structured_key') return { content: [], structuredContent: { [said]: true } };
              return { content: [{ type: 'text', text: placement === 'text' ? said : 'ok' }] };
            },
          });
        const fetch = mcpFetch(server, {
          intercept: (message, seen) => {
            const method = (message as { method?: unknown }).method;
            const refused = placement === 'http_401_connect' || (placement === 'http_401_call' && method === 'tools/call');
            return refused ? { status: 401, body: echoed(seen) } : undefined;
          },
        });
        const tools = createMcpToolRegistry({ transport: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers, fetch } });
        const model = createScriptedModel([{ type: 'tool_request', calls: [{ id: 'c1', name: 'echo', input: {} }] }, { type: 'final_answer', text: 'done' }]);
        const trace = memoryTraceSink();
        try {
          const listed = await tools.listAvailable().catch((error: unknown) => ({ message: (error as Error).message }));
          const result = await createHarness({ model, tools, trace }).runTurn(createTurnInput({ text: 'echo' }));
          const everything = JSON.parse(JSON.stringify({ listed, result, events: trace.events, inputs: model.calls })) as unknown;
          for (const value of secrets) expect(findSecret(everything, value)).toEqual([]);
        } finally {
          await tools.close();
        }
      }),
      { numRuns: propertyRuns() },
    );
    // Each run is a whole turn against a real MCP client and server: seconds of work, not a hang.
  }, 120_000);
});
