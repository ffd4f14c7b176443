// `agent-assistant context packet`: in this process (runCliMain) and as the built bin.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../local/__fixtures__/test-helpers.js';
import { binPath, cliEnv, runBin, runCliInProcess } from './__fixtures__/cli-process.js';

let home: string;
let root: string;
let manifest: string;

const MANIFEST = {
  selections: [
    { id: 'rules', path: 'AGENTS.md', required: true },
    { id: 'source', path: 'src/example.ts', representation: 'body', startLine: 10, endLine: 30, dependsOn: ['rules'] },
  ],
};

function writeManifest(name: string, value: unknown): string {
  const path = join(home, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  return path;
}

const run = (args: string[], input?: string) =>
  runCliInProcess(['context', 'packet', ...args], { cwd: home, env: cliEnv(home), ...(input === undefined ? {} : { input }) });

beforeAll(() => {
  home = tempDir('context-cli-');
  root = join(home, 'project');
  mkdirSync(join(root, 'src'), { recursive: true });
  writeFileSync(join(root, 'AGENTS.md'), '# Rules\nBe brief.\n');
  writeFileSync(join(root, 'src', 'example.ts'), Array.from({ length: 20 }, (_, index) => `line ${index + 1}\n`).join(''));
  writeFileSync(join(home, 'secret.txt'), 'TOP SECRET\n');
  symlinkSync(join(home, 'secret.txt'), join(root, 'escape.txt'));
  manifest = writeManifest('manifest.json', MANIFEST);
});

afterAll(() => cleanupTempDirs());

describe('agent-assistant context packet', () => {
  it('prints the packet JSON on stdout, within the budget, final newline included', async () => {
    const { code, stdout, stderr } = await run(['--root', 'project', '--manifest', 'manifest.json', '--budget', '2048']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(Buffer.byteLength(stdout)).toBeLessThanOrEqual(2048);
    expect(stdout.endsWith('}\n')).toBe(true);
    const packet = JSON.parse(stdout) as { complete: boolean; sources: { id: string; sha256: string; startLine: number; endLine: number }[] };
    expect(packet.complete).toBe(true);
    expect(packet.sources.map((source) => [source.id, source.startLine, source.endLine])).toEqual([
      ['rules', 1, 2],
      ['source', 10, 20],
    ]);
    expect(packet.sources[0]?.sha256).toBe(createHash('sha256').update('# Rules\nBe brief.\n').digest('hex'));
  });

  it('reads the manifest from stdin with --manifest -', async () => {
    const { code, stdout } = await run(['--root', root, '--manifest', '-', '--budget', '2048'], JSON.stringify(MANIFEST));
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ complete: true });
  });

  it('exits 2 naming the reason when the required selections do not fit, printing no packet', async () => {
    const { code, stdout, stderr } = await run(['--root', root, '--manifest', manifest, '--budget', '100']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^agent-assistant context: over_budget: The required selections do not fit in 100 bytes: .* need \d+ bytes \(\d+ over\)/);
  });

  it('exits 2 for a required selection through a symlink out of the root, never showing its content', async () => {
    const path = writeManifest('escape.json', { selections: [{ id: 'escape', path: 'escape.txt', required: true }] });
    const { code, stdout, stderr } = await run(['--root', root, '--manifest', path, '--budget', '2048']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('required_unavailable: Required selection "escape" cannot be taken: /escape.txt is outside the root.');
    expect(stderr).not.toContain('TOP SECRET');
  });

  it.each([
    ['a cycle', { selections: [{ id: 'a', path: 'AGENTS.md', dependsOn: ['a'] }] }, 'dependency_cycle: dependsOn goes round in a cycle: "a" → "a".'],
    ['an invalid manifest', { selections: [{ id: 'a\u001b[31m', path: 'AGENTS.md' }] }, 'invalid_manifest: The manifest is invalid: selections.0.id: must not contain control characters'],
    ['text that is not JSON', '{"selections": [', 'is not valid JSON (line 1, column 17)'],
  ])('exits 2 for %s', async (_label, value, message) => {
    const path = writeManifest('bad.json', value);
    const { code, stderr } = await run(['--root', root, '--manifest', path, '--budget', '2048']);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });

  it.each([
    [['--manifest', 'manifest.json', '--budget', '10'], 'Pass --root DIR'],
    [['--root', 'project', '--budget', '10'], 'Pass --manifest FILE'],
    [['--root', 'project', '--manifest', 'manifest.json'], 'Pass --budget BYTES'],
    [['--root', 'project', '--manifest', 'manifest.json', '--budget', '0'], '--budget must be a whole number from 1 to 67108864'],
    [['--root', 'nowhere', '--manifest', 'manifest.json', '--budget', '10'], 'does not exist'],
    [['--root', 'project', '--manifest', 'missing.json', '--budget', '10'], 'Cannot read the manifest'],
    [['--root', 'project', '--manifest', 'manifest.json', '--budget', '10', '--cache-dir', '/proc/no-such-dir/cache'], 'cache_unavailable'],
  ])('exits 2 for a usage error: %j', async (args, message) => {
    const { code, stderr } = await run(args);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });

  it('refuses a manifest file over 1 MiB without reading it all', async () => {
    const path = writeManifest('huge.json', ' '.repeat(1024 * 1024 + 1));
    const { code, stderr } = await run(['--root', root, '--manifest', path, '--budget', '10']);
    expect(code).toBe(2);
    expect(stderr).toContain('is longer than 1 MiB');
  });

  it('prints its help', async () => {
    const { code, stdout } = await runCliInProcess(['context', '--help'], { cwd: home, env: cliEnv(home) });
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: agent-assistant context packet --root DIR --manifest FILE --budget BYTES');
  });

  it('runs as the built bin: the packet on stdout and exit 0, a typed error and exit 2', async () => {
    expect(existsSync(binPath), 'build the package first (npm test does)').toBe(true);
    const ok = await runBin(['context', 'packet', '--root', root, '--manifest', manifest, '--budget', '4096'], { cwd: home, env: cliEnv(home) });
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ complete: true, omitted: [] });
    const failed = await runBin(['context', 'packet', '--root', root, '--manifest', manifest, '--budget', '50'], { cwd: home, env: cliEnv(home) });
    expect(failed.code).toBe(2);
    expect(failed.stdout).toBe('');
    expect(failed.stderr).toContain('over_budget: ');
  });
});
