import { createHash } from 'node:crypto';
import { createMemoryVfs } from '@agent-assistant/vfs';
import { describe, expect, it } from 'vitest';
import {
  buildContextPacket,
  ContextPacketError,
  HarnessConfigError,
  type ContextPacketManifest,
  type ContextPacketOptions,
  type ContextPacketResult,
  type ContextPacketVfs,
} from '../../index.js';

const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');
const bytesOf = (text: string) => Buffer.byteLength(text, 'utf8');
const lines = (count: number, prefix = 'line') => Array.from({ length: count }, (_, index) => `${prefix} ${index + 1}\n`).join('');

const AGENTS = '# Rules\nBe brief.\nCite paths.\n';
const EXAMPLE = lines(40, 'code');
const vfs = createMemoryVfs({ '/AGENTS.md': AGENTS, '/src/example.ts': EXAMPLE, '/a.txt': 'alpha\n', '/b.txt': 'bravo\n', '/big.txt': 'x'.repeat(5000) });

const ISSUE_MANIFEST: ContextPacketManifest = {
  selections: [
    { id: 'rules', path: 'AGENTS.md', required: true },
    { id: 'source', path: 'src/example.ts', representation: 'body', startLine: 10, endLine: 30, dependsOn: ['rules'] },
  ],
};

/** Builds, and checks what every packet must be: its text within budget, parsing to the packet, newline-terminated. */
async function build(manifest: unknown, options: ContextPacketOptions, from: ContextPacketVfs = vfs): Promise<ContextPacketResult> {
  const result = await buildContextPacket(from, manifest, options);
  expect(result.text.endsWith('}\n')).toBe(true);
  expect(bytesOf(result.text)).toBe(result.bytes);
  expect(result.bytes).toBeLessThanOrEqual(options.budget);
  expect(JSON.parse(result.text)).toEqual(result.packet);
  return result;
}

async function failure(manifest: unknown, options: ContextPacketOptions, from: ContextPacketVfs = vfs): Promise<ContextPacketError> {
  const error: unknown = await buildContextPacket(from, manifest, options).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(ContextPacketError.isInstance(error), String(error)).toBe(true);
  expect((error as ContextPacketError).code).toBe('HARNESS_ERR_CONTEXT_PACKET');
  return error as ContextPacketError;
}

describe('buildContextPacket', () => {
  it("builds the issue's example: the rules whole, lines 10–30 of the source, hashes of the whole files", async () => {
    const { packet } = await build(ISSUE_MANIFEST, { budget: 4096 });
    expect(packet.complete).toBe(true);
    expect(packet.omitted).toEqual([]);
    expect(packet.sources).toEqual([
      { id: 'rules', path: '/AGENTS.md', representation: 'whole', sha256: sha256(AGENTS), size: bytesOf(AGENTS), encoding: 'utf-8', startLine: 1, endLine: 3, totalLines: 3, content: AGENTS },
      {
        id: 'source',
        path: '/src/example.ts',
        representation: 'body',
        sha256: sha256(EXAMPLE),
        size: bytesOf(EXAMPLE),
        encoding: 'utf-8',
        startLine: 10,
        endLine: 30,
        totalLines: 40,
        content: EXAMPLE.split('\n').slice(9, 30).join('\n') + '\n',
      },
    ]);
  });

  it('clamps a range past the end of the file and reports the real range; a range wholly past it takes no line', async () => {
    const { packet } = await build(
      {
        selections: [
          { id: 'tail', path: '/src/example.ts', startLine: 35, endLine: 99 },
          { id: 'beyond', path: '/src/example.ts', startLine: 50 },
          { id: 'open', path: '/src/example.ts', startLine: 39 },
        ],
      },
      { budget: 4096 },
    );
    const [tail, beyond, open] = packet.sources;
    expect(tail).toMatchObject({ representation: 'body', startLine: 35, endLine: 40, totalLines: 40, clamped: true, content: lines(40, 'code').split('\n').slice(34, 40).join('\n') + '\n' });
    expect(beyond).toMatchObject({ startLine: 41, endLine: 40, clamped: true, content: '' });
    expect(open).toMatchObject({ startLine: 39, endLine: 40, content: 'code 39\ncode 40\n' });
    expect(open).not.toHaveProperty('clamped');
  });

  it('counts lines as the file has them: CRLF kept, no final newline, empty files', async () => {
    const files = createMemoryVfs({ '/crlf.txt': 'a\r\nb\r\nc', '/empty.txt': '' });
    const { packet } = await build(
      {
        selections: [
          { id: 'b', path: '/crlf.txt', startLine: 2, endLine: 3 },
          { id: 'empty', path: '/empty.txt' },
        ],
      },
      { budget: 4096 },
      files,
    );
    expect(packet.sources[0]).toMatchObject({ startLine: 2, endLine: 3, totalLines: 3, content: 'b\r\nc' });
    expect(packet.sources[1]).toMatchObject({ startLine: 1, endLine: 0, totalLines: 0, content: '', sha256: sha256('') });
  });

  it('fails with over_budget when the required selections do not fit, by exactly how much; at that budget it fits to the byte', async () => {
    const error = await failure(ISSUE_MANIFEST, { budget: 200 });
    expect(error.reason).toBe('over_budget');
    const { neededBytes, overBy, budget, id } = error.details;
    expect(budget).toBe(200);
    expect(overBy).toBe(neededBytes! - 200);
    expect(id).toBe('rules');
    expect(error.message).toContain(`${neededBytes} bytes (${overBy} over)`);

    // Only the required ones (the optional "source" needs them, so it is listed as omitted).
    const onlyRequired = await build(ISSUE_MANIFEST, { budget: neededBytes! });
    expect(onlyRequired.bytes).toBe(neededBytes);
    expect(onlyRequired.packet.sources.map((source) => source.id)).toEqual(['rules']);
    expect(onlyRequired.packet.omitted).toEqual([{ id: 'source', path: '/src/example.ts', reason: 'over_budget' }]);
    expect(onlyRequired.packet.complete).toBe(false);
  });

  it('names the first required selection that passes the budget', async () => {
    const error = await failure(
      {
        selections: [
          { id: 'small', path: '/a.txt', required: true },
          { id: 'huge', path: '/big.txt', required: true },
        ],
      },
      { budget: 1000 },
    );
    expect(error.details).toMatchObject({ id: 'huge', path: '/big.txt', budget: 1000 });
    expect(error.details.neededBytes).toBeGreaterThan(5000);
  });

  it('skips an optional selection that does not fit and still tries the next ones, in order', async () => {
    const manifest = {
      selections: [
        { id: 'a', path: '/a.txt' },
        { id: 'big', path: '/big.txt' },
        { id: 'b', path: '/b.txt' },
      ],
    };
    const { packet } = await build(manifest, { budget: 1024 });
    expect(packet.sources.map((source) => source.id)).toEqual(['a', 'b']);
    expect(packet.omitted).toEqual([{ id: 'big', path: '/big.txt', reason: 'over_budget' }]);
    expect(packet.complete).toBe(false);
  });

  it('uses the budget to the byte: the whole packet at exactly its size, one byte less leaves the last selection out', async () => {
    const manifest = { selections: [{ id: 'a', path: '/a.txt' }, { id: 'b', path: '/b.txt' }] };
    const full = await build(manifest, { budget: 65_536 });
    const exact = await build(manifest, { budget: full.bytes });
    expect(exact.packet.complete).toBe(true);
    expect(exact.text).toBe(full.text);
    const short = await build(manifest, { budget: full.bytes - 1 });
    expect(short.packet.sources.map((source) => source.id)).toEqual(['a']);
    expect(short.packet.omitted.map((omission) => omission.id)).toEqual(['b']);
  });

  it('takes an optional selection only together with what it depends on, even when that comes later', async () => {
    const manifest = {
      selections: [
        { id: 'needs-big', path: '/a.txt', dependsOn: ['big'] },
        { id: 'needs-b', path: '/a.txt', startLine: 1, dependsOn: ['b'] },
        { id: 'big', path: '/big.txt' },
        { id: 'b', path: '/b.txt' },
      ],
    };
    const { packet } = await build(manifest, { budget: 2048 });
    expect(packet.sources.map((source) => source.id)).toEqual(['needs-b', 'b']);
    expect(packet.omitted.map((omission) => [omission.id, omission.reason])).toEqual([
      ['needs-big', 'over_budget'],
      ['big', 'over_budget'],
    ]);
  });

  it('leaves out what depends on a selection that cannot be read, naming it', async () => {
    const { packet } = await build(
      {
        selections: [
          { id: 'gone', path: '/missing.md' },
          { id: 'user', path: '/a.txt', dependsOn: ['gone'] },
          { id: 'user-of-user', path: '/b.txt', dependsOn: ['user'] },
        ],
      },
      { budget: 4096 },
    );
    expect(packet.sources).toEqual([]);
    expect(packet.omitted).toEqual([
      { id: 'gone', path: '/missing.md', reason: 'not_found' },
      { id: 'user', path: '/a.txt', reason: 'dependency_unavailable', dependency: 'gone' },
      { id: 'user-of-user', path: '/b.txt', reason: 'dependency_unavailable', dependency: 'user' },
    ]);
  });

  it('fails with required_unavailable for a required selection that cannot be read, or that depends on one', async () => {
    const missing = await failure({ selections: [{ id: 'rules', path: '/nope.md', required: true }] }, { budget: 4096 });
    expect(missing.reason).toBe('required_unavailable');
    expect(missing.details).toEqual({ id: 'rules', path: '/nope.md', cause: 'not_found' });

    const throughDependency = await failure(
      {
        selections: [
          { id: 'dir', path: '/src' },
          { id: 'mid', path: '/a.txt', dependsOn: ['dir'] },
          { id: 'top', path: '/b.txt', required: true, dependsOn: ['mid'] },
        ],
      },
      { budget: 4096 },
    );
    expect(throughDependency.details).toEqual({ id: 'dir', path: '/src', cause: 'not_a_file', requiredBy: 'top' });
    expect(throughDependency.message).toContain('which required selection "top" depends on');
  });

  it('refuses cycles in dependsOn, naming the cycle', async () => {
    const cycle = await failure(
      {
        selections: [
          { id: 'a', path: '/a.txt', dependsOn: ['b'] },
          { id: 'b', path: '/b.txt', dependsOn: ['c'] },
          { id: 'c', path: '/a.txt', dependsOn: ['a'] },
        ],
      },
      { budget: 4096 },
    );
    expect(cycle.reason).toBe('dependency_cycle');
    expect(cycle.details.cycle).toEqual(['a', 'b', 'c', 'a']);
    expect(cycle.message).toContain('"a" → "b" → "c" → "a"');

    const self = await failure({ selections: [{ id: 'me', path: '/a.txt', dependsOn: ['me'] }] }, { budget: 4096 });
    expect(self.details.cycle).toEqual(['me', 'me']);
  });

  it('refuses a dependsOn that names no selection', async () => {
    const error = await failure({ selections: [{ id: 'a', path: '/a.txt', dependsOn: ['ghost'] }] }, { budget: 4096 });
    expect(error.reason).toBe('unknown_dependency');
    expect(error.details).toEqual({ id: 'a', dependency: 'ghost' });
  });

  it('treats hostile ids as plain text: __proto__ and constructor work as ids and dependencies', async () => {
    const { packet } = await build(
      {
        selections: [
          { id: '__proto__', path: '/a.txt' },
          { id: 'constructor', path: '/b.txt', dependsOn: ['__proto__'] },
        ],
      },
      { budget: 4096 },
    );
    expect(packet.sources.map((source) => source.id)).toEqual(['__proto__', 'constructor']);
    expect(Object.getPrototypeOf(packet.sources[0])).toBe(Object.prototype);
  });

  it.each([
    ['a duplicate id', { selections: [{ id: 'x', path: '/a.txt' }, { id: 'x', path: '/b.txt' }] }, 'selections.1.id'],
    ['a control character in an id', { selections: [{ id: 'x\u001b[2J', path: '/a.txt' }] }, 'selections.0.id'],
    ['a C1 control in an id', { selections: [{ id: 'x\u009b', path: '/a.txt' }] }, 'selections.0.id'],
    ['an empty id', { selections: [{ id: '', path: '/a.txt' }] }, 'selections.0.id'],
    ['a long id', { selections: [{ id: 'i'.repeat(129), path: '/a.txt' }] }, 'selections.0.id'],
    ['a path with ..', { selections: [{ id: 'x', path: '../etc/passwd' }] }, 'selections.0.path'],
    ['a path with a NUL byte', { selections: [{ id: 'x', path: '/a\u0000.txt' }] }, 'selections.0.path'],
    ['a Windows path', { selections: [{ id: 'x', path: 'C:\\secret' }] }, 'selections.0.path'],
    ['an unknown key', { selections: [{ id: 'x', path: '/a.txt', startline: 3 }] }, 'selections.0'],
    ['lines with representation whole', { selections: [{ id: 'x', path: '/a.txt', representation: 'whole', startLine: 2 }] }, 'selections.0.representation'],
    ['an unknown representation', { selections: [{ id: 'x', path: '/a.txt', representation: 'outline' }] }, 'selections.0.representation'],
    ['a range that ends before it starts', { selections: [{ id: 'x', path: '/a.txt', startLine: 5, endLine: 2 }] }, 'selections.0.endLine'],
    ['a line 0', { selections: [{ id: 'x', path: '/a.txt', startLine: 0 }] }, 'selections.0.startLine'],
    ['a fractional line', { selections: [{ id: 'x', path: '/a.txt', endLine: 2.5 }] }, 'selections.0.endLine'],
    ['a duplicate dependency', { selections: [{ id: 'a', path: '/a.txt' }, { id: 'b', path: '/b.txt', dependsOn: ['a', 'a'] }] }, 'selections.1.dependsOn'],
    ['required as a string', { selections: [{ id: 'x', path: '/a.txt', required: 'yes' }] }, 'selections.0.required'],
    ['no selections', {}, 'selections'],
    ['an array', [], undefined],
    ['null', null, undefined],
    ['an extra top-level key', { selections: [], budget: 5 }, undefined],
  ])('refuses %s as invalid_manifest', async (_label, manifest, field) => {
    const error = await failure(manifest, { budget: 4096 });
    expect(error.reason).toBe('invalid_manifest');
    if (field !== undefined) expect(error.details.field).toBe(field);
  });

  it('refuses a manifest over 256 KiB, and a huge selections array without walking it', async () => {
    const selections = Array.from({ length: 2000 }, (_, index) => ({ id: `selection-${index}`, path: `/${'p'.repeat(120)}/${index}.txt` }));
    const error = await failure({ selections }, { budget: 4096 });
    expect(error.reason).toBe('invalid_manifest');
    expect(error.message).toContain('256 KiB');

    const huge = { selections: new Array(100_000_000) };
    const started = performance.now();
    expect((await failure(huge, { budget: 4096 })).message).toContain('256 KiB');
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('turns a manifest whose properties throw when read into invalid_manifest', async () => {
    const trap = new Proxy(
      {},
      {
        get() {
          throw new Error('boom');
        },
      },
    );
    const getter = {
      selections: [
        Object.defineProperty({ path: '/a.txt' }, 'id', {
          enumerable: true,
          get() {
            throw new Error('boom');
          },
        }),
      ],
    };
    expect((await failure(trap, { budget: 4096 })).reason).toBe('invalid_manifest');
    expect((await failure(getter, { budget: 4096 })).reason).toBe('invalid_manifest');
  });

  it('takes a binary file whole as base64 and refuses its lines', async () => {
    const bytes = new Uint8Array([0, 1, 2, 250, 251, 252]);
    const files = createMemoryVfs({ '/logo.bin': { content: Buffer.from(bytes).toString('base64'), encoding: 'base64' } });
    const { packet } = await build(
      {
        selections: [
          { id: 'logo', path: '/logo.bin' },
          { id: 'lines', path: '/logo.bin', startLine: 1 },
        ],
      },
      { budget: 4096 },
      files,
    );
    expect(packet.sources).toEqual([
      { id: 'logo', path: '/logo.bin', representation: 'whole', sha256: sha256(bytes), size: 6, encoding: 'base64', content: 'AAEC+vv8' },
    ]);
    expect(packet.omitted).toEqual([{ id: 'lines', path: '/logo.bin', reason: 'binary' }]);
  });

  it('leaves out files over maxFileBytes, files the VFS cuts short, and files past maxTotalBytes', async () => {
    const files = createMemoryVfs({ '/one.txt': 'x'.repeat(100), '/two.txt': 'y'.repeat(100), '/three.txt': 'z'.repeat(10) }, { maxReadBytes: 150 });
    const tooLarge = await build({ selections: [{ id: 'one', path: '/one.txt' }] }, { budget: 4096, maxFileBytes: 99 }, files);
    expect(tooLarge.packet.omitted).toEqual([{ id: 'one', path: '/one.txt', reason: 'too_large' }]);

    const cut = await build({ selections: [{ id: 'big', path: '/big.txt' }] }, { budget: 65_536 }, createMemoryVfs({ '/big.txt': 'b'.repeat(200) }, { maxReadBytes: 150 }));
    expect(cut.packet.omitted).toEqual([{ id: 'big', path: '/big.txt', reason: 'too_large' }]);

    const total = await build(
      { selections: [{ id: 'one', path: '/one.txt' }, { id: 'two', path: '/two.txt' }, { id: 'three', path: '/three.txt' }, { id: 'one-again', path: '/one.txt' }] },
      { budget: 4096, maxTotalBytes: 150 },
      files,
    );
    expect(total.packet.sources.map((source) => source.id)).toEqual(['one', 'one-again']);
    expect(total.packet.omitted).toEqual([
      { id: 'two', path: '/two.txt', reason: 'read_limit' },
      { id: 'three', path: '/three.txt', reason: 'read_limit' },
    ]);
  });

  it("hashes the file's bytes: a byte-order mark and astral characters included", async () => {
    const text = '\ufeffGrüße 🚀\n';
    const { packet } = await build({ selections: [{ id: 'bom', path: '/bom.txt' }] }, { budget: 4096 }, createMemoryVfs({ '/bom.txt': text }));
    expect(packet.sources[0]).toMatchObject({ sha256: sha256(Buffer.from(text, 'utf8')), size: Buffer.byteLength(text), content: text });
  });

  it('writes characters that reorder or recolour a terminal as escapes; the packet still parses to the same text', async () => {
    const text = 'a\u202eb\u009b31mc\u2028d\n';
    const { text: json, packet } = await build({ selections: [{ id: 'x', path: '/x.txt' }] }, { budget: 4096 }, createMemoryVfs({ '/x.txt': text }));
    expect(json).not.toMatch(/[\u202e\u009b\u2028]/);
    expect(json).toContain('\\u202e');
    expect(packet.sources[0]?.content).toBe(text);
  });

  it('never fails on what a hostile VFS returns: throwing reads, odd results, a lying size', async () => {
    const hostile: ContextPacketVfs = {
      async read(path) {
        switch (path) {
          case '/throws':
            throw Object.defineProperty(new Error('x'), 'code', {
              get() {
                throw new Error('getter');
              },
            });
          case '/number':
            return 42 as never;
          case '/no-content':
            return { path } as never;
          case '/lies':
            return { path, content: 'short', size: 10 };
          case '/odd-encoding':
            return { path, content: 'x', encoding: 'utf-16' as never };
          case '/bad-base64':
            return { path, content: 'not base64!', encoding: 'base64' };
          case '/escape':
            throw Object.assign(new Error('escape'), { code: 'VFS_ERR_PATH_ESCAPE' });
          default:
            return null;
        }
      },
    };
    const paths = ['/throws', '/number', '/no-content', '/lies', '/odd-encoding', '/bad-base64', '/escape', '/null'];
    const { packet } = await build({ selections: paths.map((path) => ({ id: path, path })) }, { budget: 4096 }, hostile);
    expect(packet.omitted.map((omission) => omission.reason)).toEqual(['read_failed', 'read_failed', 'read_failed', 'read_failed', 'read_failed', 'read_failed', 'outside_root', 'not_found']);
  });

  it('stops when its signal is aborted', async () => {
    const controller = new AbortController();
    const slow: ContextPacketVfs = {
      read: (path) => {
        controller.abort(new Error('stop now'));
        return vfs.read(path);
      },
    };
    await expect(buildContextPacket(slow, { selections: [{ id: 'a', path: '/a.txt' }] }, { budget: 4096, signal: controller.signal })).rejects.toThrow('stop now');
  });

  it.each([
    ['a missing budget', {}, 'budget'],
    ['a zero budget', { budget: 0 }, 'budget'],
    ['a fractional budget', { budget: 10.5 }, 'budget'],
    ['a budget over 64 MiB', { budget: 67_108_865 }, 'budget'],
    ['a bad maxFileBytes', { budget: 10, maxFileBytes: -1 }, 'maxFileBytes'],
    ['a bad maxTotalBytes', { budget: 10, maxTotalBytes: '5' }, 'maxTotalBytes'],
    ['an empty cacheDir', { budget: 10, cacheDir: ' ' }, 'cacheDir'],
  ])('throws HarnessConfigError for %s', async (_label, options, field) => {
    const error: unknown = await buildContextPacket(vfs, { selections: [] }, options as ContextPacketOptions).catch((thrown: unknown) => thrown);
    expect(HarnessConfigError.isInstance(error)).toBe(true);
    expect((error as HarnessConfigError).field).toBe(field);
  });

  it('an empty manifest is a complete, empty packet; a budget too small for even that is over_budget', async () => {
    const { text } = await build({ selections: [] }, { budget: 100 });
    expect(text).toBe('{"complete":true,"sources":[],"omitted":[]}\n');
    const error = await failure({ selections: [{ id: 'a', path: '/a.txt' }] }, { budget: 20 });
    expect(error.details).toMatchObject({ budget: 20, overBy: error.details.neededBytes! - 20 });
    expect(error.details.id).toBeUndefined();
  });
});
