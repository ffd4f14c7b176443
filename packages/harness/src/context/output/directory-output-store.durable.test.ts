// An artifact is on disk before it is renamed into place: both files and their folder are
// flushed (fsync) first, the store's folder after the rename. Node's own fs in a temp folder.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { watchFileSyncs } from '../../__fixtures__/watch-file-syncs.js';
import { createDirectoryOutputStore } from './directory-output-store.js';

const ID = 'a'.repeat(64);
let folder = '';
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'output-store-durable-'));
});
afterEach(() => rm(folder, { recursive: true, force: true }));

describe('createDirectoryOutputStore writes durably', () => {
  it('syncs stdout, stderr and their folder before the rename, the store folder after it', async () => {
    const directory = join(folder, 'outputs');
    const store = createDirectoryOutputStore({ directory });
    const target = join(directory, ID);
    const seen: boolean[] = [];
    const stop = await watchFileSyncs(folder, () => seen.push(existsSync(target)));
    try {
      await store.put(ID, { stdout: new TextEncoder().encode('out'), stderr: new TextEncoder().encode('err') });
    } finally {
      stop();
    }
    expect(seen).toEqual(process.platform === 'win32' ? [false, false] : [false, false, false, true]);
    expect(await store.get(ID)).toEqual({ stdout: new TextEncoder().encode('out'), stderr: new TextEncoder().encode('err') });
  });
});
