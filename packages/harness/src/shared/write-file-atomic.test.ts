// Durable replacement of a file: the data is flushed before the rename, the folder after it. The
// file system is Node's own in a temp folder, seen through a recorder that passes every call on.
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import * as fsPromises from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { watchFileSyncs } from '../__fixtures__/watch-file-syncs.js';
import { createFileMemoryStore } from '../index.js';
import { writeFileAtomic, type AtomicWriteFs, type WritableFileHandleLike } from './write-file-atomic.js';

let folder = '';
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'atomic-write-'));
});
afterEach(() => rm(folder, { recursive: true, force: true }));

type Faults = Partial<Record<'openDirectory' | 'syncFile' | 'syncDirectory' | 'rename', NodeJS.ErrnoException>>;

/** Node's `fs/promises`, recording each call as `op name` (names relative to the folder); `faults` make one step fail. */
function recordingFs(log: string[], faults: Faults = {}): AtomicWriteFs {
  const name = (path: string) => (path === folder ? '.' : basename(path).replace(/\.[0-9a-f-]{36}\.tmp$/, '.<tmp>'));
  const handle = (real: fsPromises.FileHandle, path: string, isDirectory: boolean): WritableFileHandleLike => ({
    writeFile: async (data) => {
      log.push(`write ${name(path)}`);
      await real.writeFile(data);
    },
    sync: async () => {
      log.push(`sync ${name(path)}`);
      const fault = isDirectory ? faults.syncDirectory : faults.syncFile;
      if (fault !== undefined) throw fault;
      await real.sync();
    },
    close: async () => {
      log.push(`close ${name(path)}`);
      await real.close();
    },
  });
  return {
    open: async (path, flags, mode) => {
      log.push(`open ${name(path)} ${flags}`);
      if (flags === 'r' && faults.openDirectory !== undefined) throw faults.openDirectory;
      return handle(await fsPromises.open(path, flags, mode), path, flags === 'r');
    },
    rename: async (from, to) => {
      log.push(`rename ${name(from)} ${name(to)}`);
      if (faults.rename !== undefined) throw faults.rename;
      await fsPromises.rename(from, to);
    },
    rm: async (path, options) => {
      log.push(`rm ${name(path)}`);
      await fsPromises.rm(path, options);
    },
  };
}

const errno = (code: string): NodeJS.ErrnoException => Object.assign(new Error(code), { code });

describe('writeFileAtomic', () => {
  it('flushes the new file before renaming it over the old one, then flushes the folder', async () => {
    const target = join(folder, 'memory.json');
    await writeFile(target, 'old');
    const log: string[] = [];
    await writeFileAtomic(recordingFs(log), target, folder, 'new', 0o600);
    expect(log).toEqual([
      'open memory.json.<tmp> wx',
      'write memory.json.<tmp>',
      'sync memory.json.<tmp>',
      'close memory.json.<tmp>',
      'rename memory.json.<tmp> memory.json',
      'open . r',
      'sync .',
      'close .',
    ]);
    expect(await readFile(target, 'utf8')).toBe('new');
    if (process.platform !== 'win32') expect((await stat(target)).mode & 0o777).toBe(0o600);
    expect(await readdir(folder)).toEqual(['memory.json']);
  });

  it('where a folder cannot be opened or synced (Windows), the write still succeeds', async () => {
    const target = join(folder, 'a.json');
    await writeFileAtomic(recordingFs([], { openDirectory: errno('EISDIR') }), target, folder, 'one', 0o600);
    await writeFileAtomic(recordingFs([], { syncDirectory: errno('EINVAL') }), target, folder, 'two', 0o600);
    expect(await readFile(target, 'utf8')).toBe('two');
  });

  it('when flushing or renaming fails, the old file stays whole, the error is thrown and no temporary file is left', async () => {
    const target = join(folder, 'memory.json');
    await writeFile(target, 'old');
    for (const faults of [{ syncFile: errno('EIO') }, { rename: errno('EXDEV') }] satisfies Faults[]) {
      const log: string[] = [];
      await expect(writeFileAtomic(recordingFs(log, faults), target, folder, 'new', 0o600)).rejects.toThrow(/EIO|EXDEV/);
      expect(log.at(-1)).toBe('rm memory.json.<tmp>');
      expect(await readFile(target, 'utf8')).toBe('old');
      expect(await readdir(folder)).toEqual(['memory.json']);
    }
  });
});

describe('createFileMemoryStore writes durably', () => {
  it('syncs the file before the rename and the folder after it, through Node’s own fs', async () => {
    // The store loads node:fs/promises itself; watch the module object it gets (passing every call on).
    const fs = process.getBuiltinModule('node:fs/promises') as typeof fsPromises;
    const log: string[] = [];
    const stopWatching = await watchFileSyncs(folder, () => log.push('sync'));
    const originalRename = fs.rename;
    (fs as { rename: typeof fs.rename }).rename = async (from, to) => {
      log.push('rename');
      return originalRename(from, to);
    };
    try {
      await createFileMemoryStore({ path: join(folder, 'memory.json') }).put('city', 'Oslo');
    } finally {
      stopWatching();
      (fs as { rename: typeof fs.rename }).rename = originalRename;
    }
    expect(log).toEqual(process.platform === 'win32' ? ['sync', 'rename'] : ['sync', 'rename', 'sync']);
    expect(JSON.parse(await readFile(join(folder, 'memory.json'), 'utf8'))).toMatchObject({ entries: [{ key: 'city', value: 'Oslo' }] });
  });
});
