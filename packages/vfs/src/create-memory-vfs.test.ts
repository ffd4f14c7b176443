import { describe, expect, it } from 'vitest';
import { createMemoryVfs } from './create-memory-vfs.js';
import {
  VfsInvalidOptionError,
  VfsInvalidPathError,
  VfsIsADirectoryError,
  VfsNotADirectoryError,
  VfsNotFoundError,
  VfsPathEscapeError,
} from './errors/index.js';

const files = {
  '/README.md': '# Project\nSee docs/guide.md for the guide.\n',
  'docs/guide.md': 'Intro\nInstall with npm\nUse the TODO list\nmore todo here\n',
  '/docs/api/errors.md': { content: 'VFS_ERR_NOT_FOUND means missing', revision: 'r7', title: 'Errors' },
  '/src/todo.ts': 'export const x = 1;\n',
  '/assets/logo.png': { content: btoa('\u0089PNG\u0000\u0001'), encoding: 'base64' as const },
};

const sizeOf = (text: string) => new TextEncoder().encode(text).length;
const readmeSize = sizeOf(files['/README.md']);
const guideSize = sizeOf(files['docs/guide.md']);

describe('createMemoryVfs', () => {
  describe('list', () => {
    it('lists direct children depth-first in name order, directories without size', async () => {
      const vfs = createMemoryVfs(files);
      expect(await vfs.list('/')).toEqual([
        { path: '/README.md', type: 'file', size: readmeSize },
        { path: '/assets', type: 'dir' },
        { path: '/docs', type: 'dir' },
        { path: '/src', type: 'dir' },
      ]);
    });

    it('descends to the requested depth and stops at the limit', async () => {
      const vfs = createMemoryVfs(files);
      const deep = await vfs.list('docs/', { depth: 3 });
      expect(deep.map((entry) => entry.path)).toEqual(['/docs/api', '/docs/api/errors.md', '/docs/guide.md']);
      const shallow = await vfs.list('/docs', { depth: 1 });
      expect(shallow.map((entry) => entry.path)).toEqual(['/docs/api', '/docs/guide.md']);
      const limited = await vfs.list('/', { depth: 5, limit: 3 });
      expect(limited.map((entry) => entry.path)).toEqual(['/README.md', '/assets', '/assets/logo.png']);
    });

    it('carries metadata and the provider label', async () => {
      const vfs = createMemoryVfs(files, { provider: 'notes' });
      const [entry] = await vfs.list('/docs/api');
      expect(entry).toEqual({ path: '/docs/api/errors.md', type: 'file', size: 31, provider: 'notes', revision: 'r7', title: 'Errors' });
    });

    it('reports a missing directory, a file and bad options as typed errors', async () => {
      const vfs = createMemoryVfs(files);
      await expect(vfs.list('/nope')).rejects.toBeInstanceOf(VfsNotFoundError);
      await expect(vfs.list('/README.md')).rejects.toBeInstanceOf(VfsNotADirectoryError);
      await expect(vfs.list('/', { depth: 0 })).rejects.toMatchObject({ code: 'VFS_ERR_INVALID_OPTION', field: 'depth' });
      await expect(vfs.list('/', { limit: 1.5 })).rejects.toMatchObject({ field: 'limit' });
      await expect(vfs.list('/../x')).rejects.toBeInstanceOf(VfsPathEscapeError);
    });

    it('lists an empty VFS as no entries', async () => {
      expect(await createMemoryVfs({}).list('/')).toEqual([]);
    });
  });

  describe('read', () => {
    it('reads text with size, encoding and a guessed content type', async () => {
      const result = await createMemoryVfs(files).read('docs//guide.md');
      expect(result).toEqual({
        path: '/docs/guide.md',
        content: files['docs/guide.md'],
        encoding: 'utf-8',
        contentType: 'text/markdown',
        size: guideSize,
        truncated: false,
      });
    });

    it('keeps the first bytes of a large file, on a character boundary, with the total size', async () => {
      const vfs = createMemoryVfs({ '/big.txt': `${'é'.repeat(10)}tail` }, { maxReadBytes: 5 });
      const result = await vfs.read('/big.txt');
      expect(result).toMatchObject({ content: 'éé', truncated: true, size: 24 });
    });

    it('returns binary content as base64', async () => {
      const result = await createMemoryVfs(files).read('/assets/logo.png');
      expect(result).toMatchObject({ encoding: 'base64', contentType: 'image/png', size: 6, truncated: false });
      expect(atob(result!.content)).toBe('\u0089PNG\u0000\u0001');
    });

    it('returns null for a missing file and refuses directories and bad paths', async () => {
      const vfs = createMemoryVfs(files);
      expect(await vfs.read('/docs/missing.md')).toBeNull();
      await expect(vfs.read('/docs')).rejects.toBeInstanceOf(VfsIsADirectoryError);
      await expect(vfs.read('/docs/../README.md')).rejects.toBeInstanceOf(VfsPathEscapeError);
      await expect(vfs.read('/docs/\u0000')).rejects.toBeInstanceOf(VfsInvalidPathError);
    });
  });

  describe('search', () => {
    it('finds name matches and case-insensitive line matches with 1-based line and column', async () => {
      const results = await createMemoryVfs(files).search('todo');
      expect(results).toEqual([
        { path: '/docs/guide.md', type: 'file', size: guideSize, line: 3, column: 9, snippet: 'Use the TODO list' },
        { path: '/docs/guide.md', type: 'file', size: guideSize, line: 4, column: 6, snippet: 'more todo here' },
        { path: '/src/todo.ts', type: 'file', size: 20 },
      ]);
    });

    it('stops at the limit and returns nothing for another provider label', async () => {
      const vfs = createMemoryVfs(files, { provider: 'notes' });
      expect(await vfs.search('todo', { limit: 1 })).toHaveLength(1);
      expect(await vfs.search('todo', { provider: 'github' })).toEqual([]);
      expect(await vfs.search('todo', { provider: 'notes' })).toHaveLength(3);
      expect(await vfs.search('todo', { provider: '' })).toHaveLength(3);
    });

    it('finds nothing honestly and refuses an empty query', async () => {
      const vfs = createMemoryVfs(files);
      expect(await vfs.search('no such words')).toEqual([]);
      await expect(vfs.search('   ')).rejects.toMatchObject({ code: 'VFS_ERR_INVALID_OPTION', field: 'query' });
      await expect(vfs.search('x', { limit: 0 })).rejects.toMatchObject({ field: 'limit' });
    });

    it('matches a binary file by name only, never by its base64 content', async () => {
      expect(await createMemoryVfs(files).search('PNG')).toEqual([{ path: '/assets/logo.png', type: 'file', size: 6 }]);
    });
  });

  describe('stat', () => {
    it('describes files, directories and the root, and returns null when missing', async () => {
      const vfs = createMemoryVfs(files);
      expect(await vfs.stat('/')).toEqual({ path: '/', type: 'dir' });
      expect(await vfs.stat('/docs/api/')).toEqual({ path: '/docs/api', type: 'dir' });
      expect(await vfs.stat('/src/todo.ts')).toEqual({ path: '/src/todo.ts', type: 'file', size: 20 });
      expect(await vfs.stat('/nope')).toBeNull();
    });
  });

  describe('creation', () => {
    it.each([
      [{ '../x': 'a' }, 'files["../x"]'],
      [{ '/a': 'x', 'a/': 'y' }, 'files["a/"]'],
      [{ '/a': 'x', '/a/b': 'y' }, 'files["/a/b"]'],
      [{ '/a/b': 'y', '/a': 'x' }, 'files["/a"]'],
      [{ '/': 'x' }, 'files["/"]'],
      [{ '/a': 42 }, 'files["/a"]'],
      [{ '/a': { content: '!!', encoding: 'base64' } }, 'files["/a"]'],
    ])('refuses %j naming %s', (bad, field) => {
      expect(() => createMemoryVfs(bad as never)).toThrow(VfsInvalidOptionError);
      try {
        createMemoryVfs(bad as never);
      } catch (error) {
        expect((error as VfsInvalidOptionError).field).toBe(field);
      }
    });

    it('refuses bad options naming the field', () => {
      expect(() => createMemoryVfs({}, { maxReadBytes: 0 })).toThrow(/maxReadBytes/);
      expect(() => createMemoryVfs({}, { provider: ' ' })).toThrow(/provider/);
      expect(() => createMemoryVfs(null as never)).toThrow(VfsInvalidOptionError);
    });
  });
});
