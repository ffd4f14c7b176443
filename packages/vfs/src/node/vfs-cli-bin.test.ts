import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The bin is TypeScript importing `.js` specifiers, which plain `node` cannot run from source.
// esbuild (already installed with tsup) bundles it into one temporary file, so this test runs the
// real executable in a real child process without the package build.
const BIN_SOURCE = join(dirname(fileURLToPath(import.meta.url)), 'vfs-cli-bin.ts');

let base: string;
let bin: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'vfs-bin-'));
  bin = join(base, 'vfs.mjs');
  await build({ entryPoints: [BIN_SOURCE], bundle: true, platform: 'node', format: 'esm', target: 'node20', outfile: bin, logLevel: 'silent' });
  await mkdir(join(base, 'ws', 'docs'), { recursive: true });
  await writeFile(join(base, 'ws', 'docs', 'a.md'), 'alpha\nbeta TODO\n');
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

function runBin(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd: base, timeout: 20_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}

describe('vfs executable', () => {
  it('starts with a node shebang', async () => {
    const { readFile } = await import('node:fs/promises');
    expect((await readFile(BIN_SOURCE, 'utf8')).startsWith('#!/usr/bin/env node\n')).toBe(true);
  });

  it('exits 0 with results', async () => {
    expect(await runBin(['search', 'todo', '--root', 'ws'])).toEqual({ code: 0, stdout: '/docs/a.md:2:6: beta TODO\n', stderr: '' });
  });

  it('exits 1 for a missing file', async () => {
    expect(await runBin(['read', '/nope.md', '--root', 'ws'])).toEqual({ code: 1, stdout: '', stderr: 'vfs: not found: /nope.md\n' });
  });

  it('exits 2 for a usage error and for traversal', async () => {
    const usage = await runBin(['list', '--depth', '5x', '--root', 'ws']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--depth must be a positive integer; got "5x"');
    expect((await runBin(['read', '../outside', '--root', 'ws'])).code).toBe(2);
  });
});
