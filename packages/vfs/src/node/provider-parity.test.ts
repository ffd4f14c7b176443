import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryVfs } from '../create-memory-vfs.js';
import type { VfsProvider } from '../vfs-provider.js';
import { createNodeFsVfs } from './create-node-fs-vfs.js';

/** The same tree, given to both providers. */
const FILES: Record<string, string> = {
  '/README.md': '# Demo\nA workspace for parity tests.\n',
  '/docs/guide.md': 'Getting started\n\nRun the installer.\nThen read the FAQ.\n',
  '/docs/faq.md': 'Q: Where is the config?\nA: In config/app.json.\n',
  '/docs/deep/a/b/c.txt': 'deep config line\n',
  '/config/app.json': '{ "name": "demo", "debug": false }\n',
  '/config/app-b.json': '{"name":"b"}',
  '/notes/ünïcødé.md': 'Grüße — config everywhere\n',
  '/big.txt': `${'x'.repeat(300)}\nconfig at the end\n`,
  '/bom.txt': '\ufeffstarts with a byte-order mark\n',
};

let base: string;
let memory: VfsProvider;
let disk: VfsProvider;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'vfs-parity-'));
  for (const [path, content] of Object.entries(FILES)) {
    const target = join(base, ...path.slice(1).split('/'));
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
  }
  memory = createMemoryVfs(FILES, { maxReadBytes: 100 });
  disk = createNodeFsVfs({ root: base, maxReadBytes: 100 });
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** Drops what only the disk knows (modification times) and the content type (same guesser). */
function comparable<T extends object | null>(value: T): T {
  if (value === null) return value;
  const { updatedAt: _updatedAt, ...rest } = value as T & { updatedAt?: string };
  return rest as T;
}

describe('memory and node providers agree', () => {
  it.each([
    ['/', 1, 1000],
    ['/', 10, 1000],
    ['/docs', 2, 1000],
    ['/docs', 10, 3],
    ['config', 1, 1000],
  ])('list(%j, depth %i, limit %i)', async (path, depth, limit) => {
    const fromMemory = await memory.list(path, { depth, limit });
    expect(fromMemory.length).toBeGreaterThan(0);
    expect(await disk.list(path, { depth, limit })).toEqual(fromMemory);
  });

  it.each(['config', 'CONFIG', 'faq', 'grüße', 'app', 'nothing matches this'])('search(%j)', async (query) => {
    expect(await disk.search(query, { limit: 50 })).toEqual(await memory.search(query, { limit: 50 }));
  });

  it('search with a small limit', async () => {
    const fromMemory = await memory.search('config', { limit: 2 });
    expect(fromMemory).toHaveLength(2);
    expect(await disk.search('config', { limit: 2 })).toEqual(fromMemory);
  });

  it.each(Object.keys(FILES))('read(%j)', async (path) => {
    expect(comparable(await disk.read(path))).toEqual(comparable(await memory.read(path)));
  });

  it('read truncates identically', async () => {
    const fromMemory = await memory.read('/big.txt');
    expect(fromMemory).toMatchObject({ truncated: true, size: 319 });
    expect(comparable(await disk.read('/big.txt'))).toEqual(comparable(fromMemory));
  });

  it.each(['/', '/docs', '/docs/faq.md', '/missing', '/docs/deep/a'])('stat(%j)', async (path) => {
    expect(comparable(await disk.stat!(path))).toEqual(comparable(await memory.stat!(path)));
  });

  it.each([
    ['read', '/missing.md'],
    ['list', '/missing'],
    ['list', '/README.md'],
    ['read', '/docs'],
    ['read', '../x'],
    ['read', '/a\u0000'],
  ] as const)('%s(%j) fails or succeeds the same way', async (method, path) => {
    const outcome = async (vfs: VfsProvider) => {
      try {
        return { value: await (method === 'read' ? vfs.read(path) : vfs.list(path)) };
      } catch (error) {
        return { code: (error as { code: string }).code };
      }
    };
    expect(await outcome(disk)).toEqual(await outcome(memory));
  });
});
