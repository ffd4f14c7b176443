// The continuation file is on disk before it replaces the old one: the new file is flushed
// (fsync) before the rename, its folder after. Node's own fs in a temp folder.
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { watchFileSyncs } from '../../__fixtures__/watch-file-syncs.js';
import type { HarnessContinuation } from '../../core/types/continuation.js';
import { readContinuationFile, writeContinuationFile } from './continuation-file.js';
import type { RunSettings } from './run-settings.js';

const SECRET = 'durable-continuation-secret-0123';

let folder = '';
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'continuation-durable-'));
});
afterEach(() => rm(folder, { recursive: true, force: true }));

describe('writeContinuationFile writes durably', () => {
  it('syncs the new file before it replaces the old one, the folder after', async () => {
    const path = join(folder, 'turn.json');
    writeFileSync(path, 'old');
    const settings = { kind: 'profile', profilesFile: join(folder, 'p.json'), profile: 'local' } as unknown as RunSettings;
    const continuation = { type: 'approval', turnId: 't1' } as unknown as HarnessContinuation;
    const seen: string[] = [];
    const stop = await watchFileSyncs(folder, () => seen.push(readFileSync(path, 'utf8') === 'old' ? 'old' : 'new'));
    try {
      await writeContinuationFile(path, settings, continuation, SECRET);
    } finally {
      stop();
    }
    expect(seen).toEqual(process.platform === 'win32' ? ['old'] : ['old', 'new']);
    expect(await readdir(folder)).toEqual(['turn.json']);
    await expect(readContinuationFile(path, SECRET)).rejects.toThrow(/invalid settings/);
  });
});
