import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as vfs from './index.js';
import * as vfsNode from './node/index.js';

const SRC = dirname(fileURLToPath(import.meta.url));

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('@agent-assistant/vfs entry points', () => {
  it('export the documented runtime values', () => {
    expect(Object.keys(vfs).sort()).toEqual(
      [
        'DEFAULT_VFS_LIMITS',
        'MAX_VFS_PATH_LENGTH',
        'VFS_ERROR_CODES',
        'VfsError',
        'VfsInvalidOptionError',
        'VfsInvalidPathError',
        'VfsIoError',
        'VfsIsADirectoryError',
        'VfsNotADirectoryError',
        'VfsNotFoundError',
        'VfsPathEscapeError',
        'createMemoryVfs',
        'normalizeVfsPath',
      ].sort(),
    );
    expect(Object.keys(vfsNode).sort()).toEqual(
      ['DEFAULT_NODE_FS_VFS_OPTIONS', 'VFS_CLI_DEFAULTS', 'VFS_CLI_EXIT_CODES', 'createNodeFsVfs', 'runVfsCli'].sort(),
    );
  });

  it('keep Node modules, Buffer and process out of the Worker-safe root entry', () => {
    const workerSafe = sourceFiles(SRC).filter((path) => !relative(SRC, path).startsWith('node'));
    expect(workerSafe.length).toBeGreaterThan(5);
    for (const path of workerSafe) {
      const code = readFileSync(path, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      expect(code, relative(SRC, path)).not.toMatch(/from '(node:|fs|path|os)/);
      expect(code, relative(SRC, path)).not.toMatch(/\b(Buffer|process)\b/);
    }
  });

  it('freeze their default objects', () => {
    expect(Object.isFrozen(vfs.DEFAULT_VFS_LIMITS)).toBe(true);
    expect(Object.isFrozen(vfsNode.DEFAULT_NODE_FS_VFS_OPTIONS)).toBe(true);
    expect(Object.isFrozen(vfsNode.VFS_CLI_EXIT_CODES)).toBe(true);
    expect(vfsNode.VFS_CLI_EXIT_CODES).toEqual({ ok: 0, notFound: 1, usage: 2 });
  });
});
