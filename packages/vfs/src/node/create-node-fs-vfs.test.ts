import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  VfsInvalidOptionError,
  VfsInvalidPathError,
  VfsIoError,
  VfsIsADirectoryError,
  VfsNotADirectoryError,
  VfsNotFoundError,
  VfsPathEscapeError,
} from '../errors/index.js';
import { createNodeFsVfs } from './create-node-fs-vfs.js';

const GUIDE = 'Intro\nInstall with npm\nUse the TODO list\nmore todo here\n';
const guideSize = new TextEncoder().encode(GUIDE).length;
let base: string;
let root: string;
let outside: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'vfs-node-')));
  root = join(base, 'root');
  outside = join(base, 'outside');
  await mkdir(join(root, 'docs', 'api'), { recursive: true });
  await mkdir(join(root, 'src'), { recursive: true });
  await mkdir(outside);
  await writeFile(join(outside, 'secret.txt'), 'TOP SECRET token\n');
  await writeFile(join(root, 'README.md'), '# Project\nSee the guide.\n');
  await writeFile(join(root, 'docs', 'guide.md'), GUIDE);
  await writeFile(join(root, 'docs', 'api', 'errors.md'), 'VFS_ERR_NOT_FOUND means missing\n');
  await writeFile(join(root, 'src', 'todo.ts'), 'export const x = 1;\n');
  await writeFile(join(root, 'binary.bin'), new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0xff]));
  await writeFile(join(root, 'unicode.txt'), `${'é'.repeat(10)}tail`);
  await symlink(join(root, 'docs'), join(root, 'docs-link'));
  await symlink(join(root, 'README.md'), join(root, 'readme-link.md'));
  await symlink(join(outside, 'secret.txt'), join(root, 'escape-file.txt'));
  await symlink(outside, join(root, 'escape-dir'));
  await symlink('../../outside/secret.txt', join(root, 'src', 'relative-escape.txt'));
  await symlink(join(root, 'nowhere'), join(root, 'broken-link'));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('createNodeFsVfs', () => {
  describe('sandbox', () => {
    it('refuses ".." traversal, even when it would stay inside', async () => {
      const vfs = createNodeFsVfs({ root });
      await expect(vfs.read('../outside/secret.txt')).rejects.toBeInstanceOf(VfsPathEscapeError);
      await expect(vfs.read('/docs/../../outside/secret.txt')).rejects.toBeInstanceOf(VfsPathEscapeError);
      await expect(vfs.read('/docs/../README.md')).rejects.toBeInstanceOf(VfsPathEscapeError);
      await expect(vfs.list('..')).rejects.toBeInstanceOf(VfsPathEscapeError);
      await expect(vfs.stat('../outside')).rejects.toBeInstanceOf(VfsPathEscapeError);
    });

    it('maps absolute paths inside the root, so host files are never reached', async () => {
      const vfs = createNodeFsVfs({ root });
      expect(await vfs.read(join(outside, 'secret.txt'))).toBeNull();
      expect(await vfs.read('/etc/passwd')).toBeNull();
      expect(await vfs.read('/README.md')).toMatchObject({ path: '/README.md', content: '# Project\nSee the guide.\n' });
      await expect(vfs.read('C:/Windows/win.ini')).rejects.toBeInstanceOf(VfsPathEscapeError);
      await expect(vfs.read('..\\outside\\secret.txt')).rejects.toBeInstanceOf(VfsInvalidPathError);
    });

    it('refuses NUL bytes', async () => {
      const vfs = createNodeFsVfs({ root });
      await expect(vfs.read('/README.md\u0000.txt')).rejects.toBeInstanceOf(VfsInvalidPathError);
      await expect(vfs.list('/docs\u0000')).rejects.toBeInstanceOf(VfsInvalidPathError);
      await expect(vfs.stat('\u0000')).rejects.toBeInstanceOf(VfsInvalidPathError);
    });

    it('refuses symlinks that lead outside the root, for every method', async () => {
      const vfs = createNodeFsVfs({ root });
      await expect(vfs.read('/escape-file.txt')).rejects.toBeInstanceOf(VfsPathEscapeError);
      await expect(vfs.read('/src/relative-escape.txt')).rejects.toBeInstanceOf(VfsPathEscapeError);
      await expect(vfs.read('/escape-dir/secret.txt')).rejects.toBeInstanceOf(VfsPathEscapeError);
      await expect(vfs.list('/escape-dir')).rejects.toBeInstanceOf(VfsPathEscapeError);
      await expect(vfs.stat('/escape-file.txt')).rejects.toBeInstanceOf(VfsPathEscapeError);
    });

    it('does not reveal whether a file exists behind an escaping symlink', async () => {
      const vfs = createNodeFsVfs({ root });
      await expect(vfs.read('/escape-dir/no-such-file.txt')).rejects.toBeInstanceOf(VfsPathEscapeError);
      await expect(vfs.stat('/escape-dir/a/b/c')).rejects.toBeInstanceOf(VfsPathEscapeError);
    });

    it('follows symlinks that stay inside the root', async () => {
      const vfs = createNodeFsVfs({ root });
      expect(await vfs.read('/readme-link.md')).toMatchObject({ path: '/readme-link.md', content: '# Project\nSee the guide.\n' });
      expect((await vfs.list('/docs-link')).map((entry) => entry.path)).toEqual(['/docs-link/api', '/docs-link/guide.md']);
    });

    it('leaves escaping and broken symlinks out of listings and searches', async () => {
      const vfs = createNodeFsVfs({ root });
      const paths = (await vfs.list('/', { depth: 5 })).map((entry) => entry.path);
      expect(paths).not.toContain('/escape-file.txt');
      expect(paths).not.toContain('/escape-dir');
      expect(paths).not.toContain('/src/relative-escape.txt');
      expect(paths).not.toContain('/broken-link');
      expect(await vfs.search('SECRET')).toEqual([]);
    });

    it('lists symlinked directories inside the root without descending into them', async () => {
      const entries = await createNodeFsVfs({ root }).list('/', { depth: 3 });
      expect(entries.find((entry) => entry.path === '/docs-link')).toEqual({ path: '/docs-link', type: 'dir' });
      expect(entries.some((entry) => entry.path.startsWith('/docs-link/'))).toBe(false);
    });
  });

  describe('read', () => {
    it('reads text with size, encoding, content type and modification time', async () => {
      const result = await createNodeFsVfs({ root }).read('docs/guide.md');
      expect(result).toMatchObject({
        path: '/docs/guide.md',
        content: GUIDE,
        encoding: 'utf-8',
        contentType: 'text/markdown',
        size: guideSize,
        truncated: false,
      });
      expect(Number.isNaN(Date.parse(result!.updatedAt!))).toBe(false);
    });

    it('caps reads at maxReadBytes, keeping whole characters and reporting the total size', async () => {
      const vfs = createNodeFsVfs({ root, maxReadBytes: 5 });
      expect(await vfs.read('/unicode.txt')).toMatchObject({ content: 'éé', truncated: true, size: 24, encoding: 'utf-8' });
      expect(await vfs.read('/README.md')).toMatchObject({ content: '# Pro', truncated: true, size: 25 });
    });

    it('returns binary files as base64', async () => {
      const result = await createNodeFsVfs({ root }).read('/binary.bin');
      expect(result).toMatchObject({ encoding: 'base64', size: 7, truncated: false });
      expect([...Buffer.from(result!.content, 'base64')]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0xff]);
    });

    it.skipIf(process.platform === 'win32')('refuses a FIFO without blocking, and lists it as unknown', async () => {
      execFileSync('mkfifo', [join(root, 'src', 'pipe')]);
      try {
        const vfs = createNodeFsVfs({ root });
        await expect(vfs.read('/src/pipe')).rejects.toBeInstanceOf(VfsIoError);
        expect(await vfs.stat('/src/pipe')).toMatchObject({ type: 'unknown' });
        expect(await vfs.list('/src')).toContainEqual({ path: '/src/pipe', type: 'unknown' });
        expect(await vfs.search('pipe')).toEqual([]);
      } finally {
        await rm(join(root, 'src', 'pipe'));
      }
    });

    it('returns null when nothing is there and refuses a directory', async () => {
      const vfs = createNodeFsVfs({ root });
      expect(await vfs.read('/missing.md')).toBeNull();
      expect(await vfs.read('/README.md/child')).toBeNull();
      expect(await vfs.read('/broken-link')).toBeNull();
      await expect(vfs.read('/docs')).rejects.toBeInstanceOf(VfsIsADirectoryError);
    });
  });

  describe('list and stat', () => {
    it('lists depth-first in name order and stops at the limit', async () => {
      const vfs = createNodeFsVfs({ root });
      expect(await vfs.list('/docs', { depth: 2 })).toEqual([
        { path: '/docs/api', type: 'dir' },
        { path: '/docs/api/errors.md', type: 'file', size: 32 },
        { path: '/docs/guide.md', type: 'file', size: guideSize },
      ]);
      expect(await vfs.list('/docs', { depth: 2, limit: 2 })).toHaveLength(2);
    });

    it('lowers depth and limit to maxDepth and maxEntries', async () => {
      const vfs = createNodeFsVfs({ root, maxDepth: 1, maxEntries: 2 });
      const entries = await vfs.list('/', { depth: 10, limit: 100 });
      expect(entries).toHaveLength(2);
      expect(entries.every((entry) => entry.path.split('/').length === 2)).toBe(true);
    });

    it('reports a missing directory and a file as typed errors', async () => {
      const vfs = createNodeFsVfs({ root });
      await expect(vfs.list('/nope')).rejects.toBeInstanceOf(VfsNotFoundError);
      await expect(vfs.list('/README.md')).rejects.toBeInstanceOf(VfsNotADirectoryError);
      await expect(vfs.list('/', { depth: 0 })).rejects.toMatchObject({ code: 'VFS_ERR_INVALID_OPTION', field: 'depth' });
    });

    it('stats files, directories and the root; null when missing', async () => {
      const vfs = createNodeFsVfs({ root, provider: 'disk' });
      expect(await vfs.stat('/')).toMatchObject({ path: '/', type: 'dir', provider: 'disk' });
      expect(await vfs.stat('/src/todo.ts')).toMatchObject({ path: '/src/todo.ts', type: 'file', size: 20 });
      expect(await vfs.stat('/missing')).toBeNull();
    });
  });

  describe('search', () => {
    it('reports name matches and line matches with line numbers', async () => {
      const results = await createNodeFsVfs({ root }).search('todo');
      expect(results).toEqual([
        { path: '/docs/guide.md', type: 'file', size: guideSize, line: 3, column: 9, snippet: 'Use the TODO list' },
        { path: '/docs/guide.md', type: 'file', size: guideSize, line: 4, column: 6, snippet: 'more todo here' },
        { path: '/src/todo.ts', type: 'file', size: 20 },
      ]);
    });

    it('stops at the limit', async () => {
      const results = await createNodeFsVfs({ root }).search('todo', { limit: 2 });
      expect(results.map((result) => result.line)).toEqual([3, 4]);
    });

    it('skips files over maxSearchFileBytes and stops after maxSearchFiles', async () => {
      expect(await createNodeFsVfs({ root, maxSearchFileBytes: 20 }).search('install')).toEqual([]);
      // Walk order: README.md, binary.bin, docs/api/errors.md, ... — one file read finds nothing.
      expect(await createNodeFsVfs({ root, maxSearchFiles: 1 }).search('install')).toEqual([]);
      expect(await createNodeFsVfs({ root, maxSearchFiles: 4 }).search('install')).toHaveLength(1);
    });

    it('filters by provider label', async () => {
      expect(await createNodeFsVfs({ root }).search('todo', { provider: 'github' })).toEqual([]);
      expect(await createNodeFsVfs({ root, provider: 'disk' }).search('todo', { provider: 'disk' })).toHaveLength(3);
    });
  });

  describe('options', () => {
    it('refuses a missing, empty or non-directory root, naming the field', () => {
      expect(() => createNodeFsVfs({ root: join(base, 'does-not-exist') })).toThrow(VfsInvalidOptionError);
      expect(() => createNodeFsVfs({ root: '' })).toThrow(/root/);
      expect(() => createNodeFsVfs({ root: join(root, 'README.md') })).toThrow(/not a directory/);
      expect(() => createNodeFsVfs(undefined as never)).toThrow(VfsInvalidOptionError);
    });

    it.each(['maxReadBytes', 'maxSearchFileBytes', 'maxSearchFiles', 'maxEntries', 'maxDepth'] as const)(
      'refuses a non-positive-integer %s',
      (field) => {
        for (const value of [0, -1, 1.5, Number.NaN, '5']) {
          try {
            createNodeFsVfs({ root, [field]: value as number });
            expect.unreachable(`${field}=${String(value)} was accepted`);
          } catch (error) {
            expect(error).toMatchObject({ code: 'VFS_ERR_INVALID_OPTION', field });
          }
        }
      },
    );

    it('exposes the real root', () => {
      expect(createNodeFsVfs({ root: join(root, 'docs', '..') }).root).toBe(root);
    });
  });
});
