// The exact interleaving of the race, made deterministic: the path is resolved and checked, then a
// directory component is swapped for a symlink to the outside, then the file is opened.
import { mkdir, mkdtemp, realpath, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VfsPathEscapeError } from '../../errors/index.js';
import { hasProcFds, openInsideRoot, type VerifiedNode } from './open-inside-root.js';
import { readFileHead } from './read-file-head.js';
import { resolveInsideRoot } from './resolve-inside-root.js';

let base: string;
let root: string;
let outside: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'vfs-open-')));
  root = join(base, 'root');
  outside = join(base, 'outside');
  await mkdir(join(root, 'sub'), { recursive: true });
  await mkdir(outside);
  await writeFile(join(root, 'sub', 'file.txt'), 'inside');
  await writeFile(join(outside, 'file.txt'), 'SECRET');
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function swapSubForLink(): Promise<void> {
  await rename(join(root, 'sub'), join(root, 'sub.parked'));
  await symlink(outside, join(root, 'sub'));
}

async function text(node: VerifiedNode | undefined): Promise<string | undefined> {
  if (node === undefined) return undefined;
  try {
    return new TextDecoder().decode((await readFileHead(node, 100)).bytes);
  } finally {
    await node.close();
  }
}

const modes = [
  { name: 'through /proc/self/fd', procFds: true },
  { name: 'portable (path re-check and device/inode)', procFds: false },
];

describe('openInsideRoot', () => {
  it('uses /proc/self/fd on Linux', async () => {
    expect(await hasProcFds()).toBe(process.platform === 'linux');
  });

  describe.skipIf(process.platform !== 'linux')('following links, through /proc/self/fd', () => {
    const follow = { procFds: true, followLinks: true };

    it('opens through a symlink that stays inside, and checks where it landed', async () => {
      await symlink(join(root, 'sub'), join(root, 'inside-link'));
      expect(await text(await openInsideRoot(root, join(root, 'inside-link', 'file.txt'), '/inside-link/file.txt', follow))).toBe('inside');
    });

    it('refuses a directory swapped for a symlink to the outside before the open', async () => {
      await swapSubForLink();
      const opening = openInsideRoot(root, join(root, 'sub', 'file.txt'), '/sub/file.txt', follow);
      await expect(opening).rejects.toBeInstanceOf(VfsPathEscapeError);
      await expect(opening).rejects.toThrow('/sub/file.txt leads outside the VFS root through a symbolic link.');
    });
  });

  describe.each(modes)('$name', ({ procFds }) => {
    it.skipIf(procFds && process.platform !== 'linux')('opens and reads a file inside the root', async () => {
      const { realPath } = await resolveInsideRoot(root, '/sub/file.txt');
      const node = await openInsideRoot(root, realPath!, '/sub/file.txt', { procFds });
      expect(node?.stats.isFile()).toBe(true);
      expect(await text(node)).toBe('inside');
    });

    it.skipIf(procFds && process.platform !== 'linux')('refuses a directory component swapped for a symlink after the check', async () => {
      const { realPath } = await resolveInsideRoot(root, '/sub/file.txt');
      expect(realPath).toBe(join(root, 'sub', 'file.txt'));
      await swapSubForLink();
      await expect(openInsideRoot(root, realPath!, '/sub/file.txt', { procFds })).rejects.toBeInstanceOf(VfsPathEscapeError);
    });

    it.skipIf(procFds && process.platform !== 'linux')('never reads the outside when the swap lands after opening', async () => {
      const { realPath } = await resolveInsideRoot(root, '/sub/file.txt');
      const node = await openInsideRoot(root, realPath!, '/sub/file.txt', { procFds });
      await swapSubForLink();
      // Through /proc the verified file itself is reopened; portably the reopened path now names
      // another file (device/inode differ), which is refused. Never the outside content.
      if (procFds) expect(await text(node)).toBe('inside');
      else await expect(text(node)).rejects.toBeInstanceOf(VfsPathEscapeError);
    });

    it.skipIf(procFds && process.platform !== 'linux')('treats a vanished path as missing', async () => {
      const { realPath } = await resolveInsideRoot(root, '/sub/file.txt');
      await rm(join(root, 'sub'), { recursive: true });
      expect(await openInsideRoot(root, realPath!, '/sub/file.txt', { procFds })).toBeUndefined();
    });
  });
});
