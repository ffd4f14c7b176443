import { createHash } from 'node:crypto';
import { createMemoryVfs } from '@agent-assistant/vfs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../../__fixtures__/property-runs.js';
import { buildContextPacket, ContextPacketError, type ContextPacketSelection } from '../../index.js';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const bytesOf = (text: string) => Buffer.byteLength(text, 'utf8');

/** Lines of `text` as the packet counts them: each with its `\n`, a final newline starting no line. */
function referenceLines(text: string): string[] {
  const parts = text.split(/(?<=\n)/);
  return parts.filter((part) => part !== '');
}

const PATHS = ['/f0.txt', '/f1.txt', '/dir/f2.md', '/f3.txt'];
const IDS = ['__proto__', 'constructor', 'a', 'b b', 'ünï', '"quoted"', 'x'.repeat(128), '🚀', 'c', 'd'];

const text = fc
  .array(fc.constantFrom('a', 'é', '\n', '\r\n', '🚀', '\u202e', '"', '\\', '\u0001', '\u009b', ' ', 'word'), { maxLength: 120 })
  .map((pieces) => pieces.join(''));

/** Up to 8 selections with unique ids; `dependsOn` only to lower ranks, so no cycles. */
const manifest = fc
  .tuple(
    fc.uniqueArray(fc.constantFrom(...IDS), { maxLength: 8 }),
    fc.array(
      fc.record({
        path: fc.constantFrom(...PATHS, '/missing.txt', 'dir'),
        lines: fc.option(fc.tuple(fc.option(fc.integer({ min: 1, max: 12 })), fc.option(fc.integer({ min: 0, max: 12 }))), { nil: undefined }),
        rank: fc.nat(),
        dependsOn: fc.array(fc.nat({ max: 7 }), { maxLength: 3 }),
        requiredWeight: fc.integer({ min: 0, max: 3 }),
      }),
      { minLength: 8, maxLength: 8 },
    ),
  )
  .map(([ids, drawn]) =>
    ids.map((id, index): ContextPacketSelection => {
      const draw = drawn[index]!;
      const selection: ContextPacketSelection = { id, path: draw.path };
      if (draw.requiredWeight === 0) selection.required = true;
      if (draw.lines !== undefined) {
        const [start, length] = draw.lines;
        if (start !== null) selection.startLine = start;
        if (length !== null) selection.endLine = (start ?? 1) + length;
        if (start === null && length === null) selection.representation = 'body';
      }
      const rankOf = (at: number) => drawn[at]!.rank * 16 + at;
      const dependsOn = [...new Set(draw.dependsOn.filter((at) => at < ids.length && rankOf(at) < rankOf(index)))].map((at) => ids[at]!);
      if (dependsOn.length > 0) selection.dependsOn = dependsOn;
      return selection;
    }),
  );

describe('buildContextPacket (property)', () => {
  it('stays within budget, takes required selections and their dependencies whole or fails typed, accounts for every selection in order, hashes right', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(text, { minLength: PATHS.length, maxLength: PATHS.length }), manifest, fc.integer({ min: 1, max: 3000 }), async (contents, selections, budget) => {
        const files = Object.fromEntries(PATHS.map((path, index) => [path, contents[index]!]));
        const vfs = createMemoryVfs(files);
        const byId = new Map(selections.map((selection) => [selection.id, selection]));
        const closure = (ids: string[]) => {
          const seen = new Set<string>();
          const stack = [...ids];
          while (stack.length > 0) {
            const id = stack.pop()!;
            if (seen.has(id)) continue;
            seen.add(id);
            stack.push(...(byId.get(id)?.dependsOn ?? []));
          }
          return seen;
        };
        const required = closure(selections.filter((selection) => selection.required === true).map((selection) => selection.id));

        let result;
        try {
          result = await buildContextPacket(vfs, { selections }, { budget });
        } catch (error) {
          if (!ContextPacketError.isInstance(error)) throw error;
          if (error.reason === 'over_budget') {
            const { neededBytes, overBy } = error.details;
            expect(overBy).toBe(neededBytes! - budget);
            expect(overBy).toBeGreaterThan(0);
            // Exact: at the budget it named, the packet is built, to the byte.
            const retried = await buildContextPacket(vfs, { selections }, { budget: neededBytes! });
            expect(retried.bytes).toBe(neededBytes);
            return;
          }
          expect(error.reason).toBe('required_unavailable');
          expect(required.has(error.details.id!)).toBe(true);
          // Only the missing file and the directory cannot be read here.
          const cause = byId.get(error.details.id!)!;
          expect([cause.path, error.details.cause]).toEqual(cause.path === 'dir' ? ['dir', 'not_a_file'] : ['/missing.txt', 'not_found']);
          return;
        }

        const { text: json, packet, bytes } = result;
        expect(bytes).toBe(bytesOf(json));
        expect(bytes).toBeLessThanOrEqual(budget);
        expect(json.endsWith('\n')).toBe(true);
        expect(JSON.parse(json)).toEqual(packet);
        expect(packet.complete).toBe(packet.omitted.length === 0);

        // Every selection once, in sources or omitted, each list in manifest order.
        const sourceIds = packet.sources.map((source) => source.id);
        const omittedIds = packet.omitted.map((omission) => omission.id);
        const order = selections.map((selection) => selection.id);
        expect([...sourceIds, ...omittedIds].sort()).toEqual([...order].sort());
        expect(sourceIds).toEqual(order.filter((id) => sourceIds.includes(id)));
        expect(omittedIds).toEqual(order.filter((id) => omittedIds.includes(id)));

        // Required selections and their dependencies are all there; every source has its dependencies.
        for (const id of required) expect(sourceIds).toContain(id);
        for (const id of sourceIds) for (const dependency of byId.get(id)!.dependsOn ?? []) expect(sourceIds).toContain(dependency);

        for (const source of packet.sources) {
          const selection = byId.get(source.id)!;
          const file = files[source.path as keyof typeof files]!;
          expect(file).toBeDefined();
          expect(source.sha256).toBe(sha256(file));
          expect(source.size).toBe(bytesOf(file));
          const all = referenceLines(file);
          expect(source.totalLines).toBe(all.length);
          if (source.representation === 'whole') {
            expect(source.content).toBe(file);
          } else {
            const start = selection.startLine ?? 1;
            const end = Math.min(selection.endLine ?? all.length, all.length);
            expect(source.startLine).toBe(Math.min(start, all.length + 1));
            expect(source.endLine).toBe(Math.max(source.startLine! - 1, end));
            expect(source.content).toBe(all.slice(source.startLine! - 1, source.endLine).join(''));
          }
        }
        for (const omission of packet.omitted) {
          if (omission.reason === 'not_found') expect(files[omission.path as keyof typeof files]).toBeUndefined();
          if (omission.reason === 'dependency_unavailable') expect(byId.get(omission.id)!.dependsOn).toContain(omission.dependency);
        }
      }),
      { numRuns: propertyRuns() },
    );
  });
});
