import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryVfs } from '../create-memory-vfs.js';
import type { VfsProvider } from '../vfs-provider.js';
import { VFS_CLI_HELP } from './internal/format-vfs-cli-output.js';
import { runVfsCli, VFS_CLI_EXIT_CODES } from './run-vfs-cli.js';

let base: string;
let root: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'vfs-cli-')));
  root = join(base, 'ws');
  await mkdir(join(root, 'docs', 'api'), { recursive: true });
  await writeFile(join(root, 'README.md'), '# Workspace\nTODO: write docs\n');
  await writeFile(join(root, 'docs', 'guide.md'), 'Step one\nStep two: TODO\n');
  await writeFile(join(root, 'docs', 'api', 'ref.md'), 'Reference\n');
  await writeFile(join(root, 'docs', 'logo.bin'), new Uint8Array([0, 1, 2, 255]));
  await writeFile(join(root, 'docs', 'accents.txt'), 'ééééé');
  await writeFile(join(base, 'secret.txt'), 'secret\n');
  await symlink(join(base, 'secret.txt'), join(root, 'leak.txt'));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

async function run(argv: string[], options: { cwd?: string; vfs?: VfsProvider } = {}) {
  let stdout = '';
  let stderr = '';
  const code = await runVfsCli(argv, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    cwd: options.cwd ?? root,
    ...(options.vfs === undefined ? {} : { vfs: options.vfs }),
  });
  return { code, stdout, stderr };
}

describe('runVfsCli', () => {
  it('prints help and exits 0 without a command', async () => {
    for (const argv of [[], ['help'], ['--help']]) {
      expect(await run(argv)).toEqual({ code: 0, stdout: VFS_CLI_HELP, stderr: '' });
    }
  });

  it('lists entries, one per line, relative to --root resolved against cwd', async () => {
    const result = await run(['list', '--root', 'ws'], { cwd: base });
    expect(result).toEqual({ code: 0, stdout: '/README.md\tfile\t29 bytes\n/docs\tdir\n', stderr: '' });
  });

  it('prints a tree indented by level', async () => {
    const result = await run(['tree', '/docs']);
    expect(result.stdout).toBe(
      ['/docs', '  accents.txt (10 bytes)', '  api/', '    ref.md (10 bytes)', '  guide.md (24 bytes)', '  logo.bin (4 bytes)', ''].join('\n'),
    );
    expect(result.code).toBe(0);
  });

  it('prints JSON with --json', async () => {
    const result = await run(['list', 'docs/api', '--json']);
    expect(JSON.parse(result.stdout)).toEqual([{ path: '/docs/api/ref.md', type: 'file', size: 10 }]);
  });

  it('reads a file to stdout, and notes truncation on stderr', async () => {
    expect(await run(['read', 'README.md'])).toEqual({ code: 0, stdout: '# Workspace\nTODO: write docs\n', stderr: '' });
    const capped = await run(['read', '/docs/accents.txt', '--max-bytes', '5']);
    expect(capped).toEqual({
      code: 0,
      stdout: 'éé',
      stderr: 'vfs: output truncated: showed 4 of 10 bytes of /docs/accents.txt.\n',
    });
    const json = JSON.parse((await run(['read', '/docs/accents.txt', '--max-bytes=5', '--json'])).stdout);
    expect(json).toMatchObject({ path: '/docs/accents.txt', content: 'éé', truncated: true, size: 10 });
  });

  it('does not print binary content raw', async () => {
    const result = await run(['read', '/docs/logo.bin']);
    expect(result).toMatchObject({ code: 0, stdout: '' });
    expect(result.stderr).toContain('binary file (4 bytes)');
    const json = JSON.parse((await run(['read', '/docs/logo.bin', '--json'])).stdout);
    expect(json).toMatchObject({ encoding: 'base64', content: 'AAEC/w==' });
  });

  it('searches with line numbers, joining the query words', async () => {
    const result = await run(['search', 'todo']);
    expect(result).toEqual({ code: 0, stdout: '/README.md:2:1: TODO: write docs\n/docs/guide.md:2:11: Step two: TODO\n', stderr: '' });
    expect((await run(['search', 'step', 'two'])).stdout).toBe('/docs/guide.md:2:1: Step two: TODO\n');
    expect((await run(['search', 'todo', '--limit', '1'])).stdout).toBe('/README.md:2:1: TODO: write docs\n');
    expect(await run(['search', 'absent'])).toEqual({ code: 0, stdout: 'No results.\n', stderr: '' });
  });

  it('stats an entry', async () => {
    const result = await run(['stat', '/docs/guide.md']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^path: \/docs\/guide\.md\ntype: file\nsize: 24\nupdatedAt: \d{4}-/);
  });

  it('exits 1 for things that are not there', async () => {
    expect(await run(['read', '/missing.md'])).toEqual({ code: 1, stdout: '', stderr: 'vfs: not found: /missing.md\n' });
    expect(await run(['stat', 'missing'])).toEqual({ code: 1, stdout: '', stderr: 'vfs: not found: /missing\n' });
    expect(await run(['list', '/missing'])).toMatchObject({ code: 1, stderr: 'vfs: No directory at /missing.\n' });
    expect(await run(['read', '/docs'])).toMatchObject({ code: 1, stderr: 'vfs: /docs is a directory.\n' });
  });

  it('exits 2 for usage errors, with the help text', async () => {
    for (const argv of [['list', '--depth', '5x'], ['list', '--limit', '1.5'], ['frob'], ['read']]) {
      const result = await run(argv);
      expect(result.code).toBe(VFS_CLI_EXIT_CODES.usage);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^vfs: .+\n\nUsage: vfs/);
    }
  });

  it('exits 2 for refused paths: traversal, NUL byte, symlink escape, bad root', async () => {
    for (const argv of [
      ['read', '../secret.txt'],
      ['read', '/a\u0000b'],
      ['read', '/leak.txt'],
      ['list', '--root', 'no-such-dir'],
    ]) {
      const result = await run(argv);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).not.toContain('secret\n');
    }
  });

  it('runs over a provided VFS, falling back to list for stat', async () => {
    const memory = createMemoryVfs({ '/a/b.txt': 'hello' });
    const { stat: _stat, ...withoutStat } = memory;
    expect((await run(['stat', '/a/b.txt'], { vfs: withoutStat })).stdout).toBe('path: /a/b.txt\ntype: file\nsize: 5\n');
    expect((await run(['stat', '/'], { vfs: withoutStat })).stdout).toBe('path: /\ntype: dir\n');
    expect((await run(['stat', '/a/zzz'], { vfs: withoutStat })).code).toBe(1);
    expect((await run(['list', '--root', 'x'], { vfs: memory })).code).toBe(2);
  });

  it('exits 1 when a provider throws a plain error', async () => {
    const failing: VfsProvider = {
      list: async () => {
        throw new Error('backend down');
      },
      read: async () => null,
      search: async () => [],
    };
    expect(await run(['list'], { vfs: failing })).toEqual({ code: 1, stdout: '', stderr: 'vfs: backend down\n' });
  });
});
