// Any tools/list a server sends (issue 22, class 9): the registry offers exactly the usable
// entries, in order, without duplicates, at most maxTools; bad entries never cost a good one.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { propertyRuns } from '../../__fixtures__/property-runs.js';
import { createMcpToolRegistry } from '../../index.js';
import { createRawServer } from '../../__fixtures__/mcp-raw-server.mjs';

const NAME = /^[A-Za-z0-9_-]{1,64}$/;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What the docs promise: usable entries in order, first of each name, at most `maxTools`. */
function expectedNames(entries: unknown[], maxTools: number): string[] {
  const names: string[] = [];
  for (const entry of entries) {
    if (names.length >= maxTools) break;
    if (!isObject(entry) || typeof entry.name !== 'string' || !NAME.test(entry.name) || names.includes(entry.name)) continue;
    if (!isObject(entry.inputSchema) || entry.inputSchema.type !== 'object') continue;
    names.push(entry.name);
  }
  return names;
}

const nameArb = fc.oneof(fc.constantFrom('a', 'b', 'a_b', '__proto__', 'constructor', 'has space', '', 'x.y', 'n'.repeat(65)), fc.string({ maxLength: 8 }));
const schemaArb = fc.oneof(
  fc.constant({ type: 'object' }),
  fc.record({ type: fc.constant('object'), properties: fc.dictionary(fc.string({ maxLength: 6 }), fc.constant({ type: 'string' }), { maxKeys: 3 }) }),
  fc.constantFrom({ type: 'array' }, { type: 'string' }, {}, [], null, 'object', 7),
  fc.jsonValue({ maxDepth: 2 }),
);
const entryArb = fc.oneof(
  { arbitrary: fc.record({ name: nameArb, inputSchema: schemaArb }, { requiredKeys: ['name'] }), weight: 4 },
  { arbitrary: fc.record({ name: nameArb, description: fc.string({ maxLength: 20 }), inputSchema: fc.constant({ type: 'object' }) }), weight: 2 },
  { arbitrary: fc.jsonValue({ maxDepth: 2 }), weight: 1 },
);

describe('createMcpToolRegistry over any tool list (property)', () => {
  it('offers exactly the usable entries, in order, at most maxTools', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(entryArb, { maxLength: 30 }), fc.integer({ min: 1, max: 12 }), async (generated, maxTools) => {
        // What the server sends is what arrives: JSON, as on the wire.
        const entries = JSON.parse(JSON.stringify(generated)) as unknown[];
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        await createRawServer({ listTools: () => ({ tools: entries }) }).connect(serverSide);
        const client = new Client({ name: 'property', version: '1' });
        await client.connect(clientSide);
        try {
          const tools = createMcpToolRegistry({ client, maxTools });
          const listed = await tools.listAvailable();
          expect(listed.map((tool) => tool.name)).toEqual(expectedNames(entries, maxTools));
          for (const tool of listed) expect(tool.inputSchema?.type).toBe('object');
          expect(Object.getPrototypeOf({})).toBe(Object.prototype);
        } finally {
          await client.close();
        }
      }),
      { numRuns: propertyRuns() },
    );
  });
});
