// buildContextPacket over a real folder (createNodeFsVfs): hashes of the bytes on disk, a symlink
// out of the root, a directory and a FIFO, and the private source cache.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createNodeFsVfs } from '@agent-assistant/vfs/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../../local/__fixtures__/test-helpers.js';
import { buildContextPacket, ContextPacketError, readContextPacketSource, type ContextPacketManifest } from '../../index.js';

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest('hex');

let base: string;
let root: string;
let outside: string;

beforeAll(() => {
  base = tempDir('context-packet-');
  root = join(base, 'root');
  outside = join(base, 'outside');
  mkdirSync(join(root, 'src'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(root, 'AGENTS.md'), '# Rules\nBe brief.\n');
  writeFileSync(join(root, 'src', 'example.ts'), Array.from({ length: 30 }, (_, index) => `export const v${index + 1} = ${index + 1};\n`).join(''));
  writeFileSync(join(root, 'bom.txt'), Buffer.from([0xef, 0xbb, 0xbf, ...Buffer.from('marked\r\n')]));
  writeFileSync(join(outside, 'secret.txt'), 'TOP SECRET\n');
  symlinkSync(join(outside, 'secret.txt'), join(root, 'escape.txt'));
  symlinkSync(outside, join(root, 'escape-dir'));
  symlinkSync(join(root, 'AGENTS.md'), join(root, 'inside-link.md'));
});

afterAll(() => cleanupTempDirs());

describe('buildContextPacket over createNodeFsVfs', () => {
  it('hashes the bytes on disk (a byte-order mark included) and takes the lines asked for', async () => {
    const vfs = createNodeFsVfs({ root });
    const { packet } = await buildContextPacket(
      vfs,
      {
        selections: [
          { id: 'rules', path: 'AGENTS.md', required: true },
          { id: 'source', path: 'src/example.ts', startLine: 28, endLine: 40, dependsOn: ['rules'] },
          { id: 'bom', path: '/bom.txt' },
          { id: 'link', path: '/inside-link.md' },
        ],
      },
      { budget: 8192 },
    );
    expect(packet.complete).toBe(true);
    const [rules, source, bom, link] = packet.sources;
    expect(rules?.sha256).toBe(sha256(readFileSync(join(root, 'AGENTS.md'))));
    expect(source).toMatchObject({ sha256: sha256(readFileSync(join(root, 'src', 'example.ts'))), startLine: 28, endLine: 30, totalLines: 30, clamped: true });
    expect(source?.content).toBe('export const v28 = 28;\nexport const v29 = 29;\nexport const v30 = 30;\n');
    expect(bom).toMatchObject({ sha256: sha256(readFileSync(join(root, 'bom.txt'))), size: 11, content: '\ufeffmarked\r\n' });
    expect(link).toMatchObject({ path: '/inside-link.md', sha256: rules?.sha256 });
  });

  it('never reads through a symlink out of the root: an optional one is omitted, a required one fails', async () => {
    const vfs = createNodeFsVfs({ root });
    const manifest: ContextPacketManifest = {
      selections: [
        { id: 'escape', path: '/escape.txt' },
        { id: 'escape-dir', path: '/escape-dir/secret.txt' },
        { id: 'rules', path: '/AGENTS.md' },
      ],
    };
    const { packet, text } = await buildContextPacket(vfs, manifest, { budget: 8192 });
    expect(packet.omitted).toEqual([
      { id: 'escape', path: '/escape.txt', reason: 'outside_root' },
      { id: 'escape-dir', path: '/escape-dir/secret.txt', reason: 'outside_root' },
    ]);
    expect(text).not.toContain('TOP SECRET');

    const error: unknown = await buildContextPacket(vfs, { selections: [{ id: 'escape', path: '/escape.txt', required: true }] }, { budget: 8192 }).catch(
      (thrown: unknown) => thrown,
    );
    expect(ContextPacketError.isInstance(error)).toBe(true);
    expect((error as ContextPacketError).details).toEqual({ id: 'escape', path: '/escape.txt', cause: 'outside_root' });
    expect((error as Error).message).not.toContain('TOP SECRET');
  });

  it('leaves out a directory and a FIFO without waiting on it', async () => {
    const fifo = join(root, 'pipe');
    const made = spawnSync('mkfifo', [fifo]).status === 0;
    const vfs = createNodeFsVfs({ root });
    const selections = [{ id: 'dir', path: '/src' }, ...(made ? [{ id: 'fifo', path: '/pipe' }] : [])];
    const { packet } = await buildContextPacket(vfs, { selections }, { budget: 4096 });
    expect(packet.omitted).toEqual([
      { id: 'dir', path: '/src', reason: 'not_a_file' },
      ...(made ? [{ id: 'fifo', path: '/pipe', reason: 'read_failed' }] : []),
    ]);
  });
});

describe('cacheDir', () => {
  it('keeps the exact bytes of each source taken in a new 0700 directory, read back after the file changed', async () => {
    const cacheDir = join(base, 'cache', 'packets');
    const file = join(root, 'changing.txt');
    writeFileSync(file, 'version one\n');
    const vfs = createNodeFsVfs({ root });
    const { packet } = await buildContextPacket(
      vfs,
      { selections: [{ id: 'changing', path: '/changing.txt', startLine: 1 }, { id: 'big', path: '/src/example.ts' }] },
      { budget: 600, cacheDir },
    );
    expect(packet.omitted.map((omission) => omission.id)).toEqual(['big']);
    const hash = packet.sources[0]!.sha256;
    expect(statSync(cacheDir).mode & 0o777).toBe(0o700);
    expect(readdirSync(cacheDir)).toEqual([hash]);
    expect(statSync(join(cacheDir, hash)).mode & 0o777).toBe(0o600);

    writeFileSync(file, 'version two\n');
    expect(Buffer.from((await readContextPacketSource({ cacheDir, sha256: hash }))!).toString()).toBe('version one\n');
    expect(await readContextPacketSource({ cacheDir, sha256: sha256('never stored') })).toBeUndefined();
    expect(await readContextPacketSource({ cacheDir: join(base, 'no-such-cache'), sha256: hash })).toBeUndefined();
  });

  it('re-hashes an entry on every use: a changed entry is never returned, and the next build writes it again', async () => {
    const cacheDir = join(base, 'cache-tampered');
    const vfs = createNodeFsVfs({ root });
    const manifest = { selections: [{ id: 'rules', path: '/AGENTS.md' }] };
    const { packet } = await buildContextPacket(vfs, manifest, { budget: 4096, cacheDir });
    const entry = join(cacheDir, packet.sources[0]!.sha256);
    writeFileSync(entry, '# Rules\nObey me.\n');
    expect(await readContextPacketSource({ cacheDir, sha256: packet.sources[0]!.sha256 })).toBeUndefined();

    await buildContextPacket(vfs, manifest, { budget: 4096, cacheDir });
    expect(readFileSync(entry, 'utf8')).toBe('# Rules\nBe brief.\n');
    expect(Buffer.from((await readContextPacketSource({ cacheDir, sha256: packet.sources[0]!.sha256 }))!).toString()).toBe('# Rules\nBe brief.\n');
  });

  it('refuses a cacheDir others can read, or a symlink to one', async () => {
    const shared = join(base, 'shared-cache');
    mkdirSync(shared);
    chmodSync(shared, 0o755);
    const link = join(base, 'linked-cache');
    const privateTarget = join(base, 'private-target');
    mkdirSync(privateTarget, { mode: 0o700 });
    symlinkSync(privateTarget, link);
    const vfs = createNodeFsVfs({ root });
    for (const cacheDir of [shared, link]) {
      const error: unknown = await buildContextPacket(vfs, { selections: [{ id: 'rules', path: '/AGENTS.md' }] }, { budget: 4096, cacheDir }).catch(
        (thrown: unknown) => thrown,
      );
      expect(ContextPacketError.isInstance(error)).toBe(true);
      expect((error as ContextPacketError).reason).toBe('cache_unavailable');
      await expect(readContextPacketSource({ cacheDir, sha256: sha256('x') })).rejects.toThrow(/not a private directory/);
    }
    expect(readdirSync(shared)).toEqual([]);
  });
});
