// readBoundedFile on what a hostile CLI could leave where a report was expected, and the private
// directories of the presets.
import { execFileSync } from 'node:child_process';
import { existsSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../__fixtures__/test-helpers.js';
import { lazyPrivateDir, loadPresetFs, oncePerDir, readBoundedFile } from './preset-files.js';

afterEach(cleanupTempDirs);

describe('readBoundedFile', () => {
  it('reads at most maxBytes of a large file', async () => {
    const file = join(tempDir(), 'big.json');
    writeFileSync(file, 'x'.repeat(3 * 1024 * 1024));
    expect(await readBoundedFile(await loadPresetFs(), file, 1024)).toBe('x'.repeat(1024));
  });

  it('does not follow a link, does not block on a FIFO, and gives undefined for a missing file', async () => {
    const dir = tempDir();
    const fs = await loadPresetFs();
    writeFileSync(join(dir, 'secret'), 'not for the report');
    symlinkSync(join(dir, 'secret'), join(dir, 'link.json'));
    expect(await readBoundedFile(fs, join(dir, 'link.json'), 1024)).toBeUndefined();
    execFileSync('mkfifo', [join(dir, 'fifo.json')]);
    // No writer ever opens the FIFO: a blocking open or read would hang this test.
    expect(await readBoundedFile(fs, join(dir, 'fifo.json'), 1024)).toBeUndefined();
    expect(await readBoundedFile(fs, join(dir, 'missing.json'), 1024)).toBeUndefined();
  });
});

describe('lazyPrivateDir / oncePerDir', () => {
  it('makes one 0700 directory on first use, sets it up once, and after remove a new one', async () => {
    const root = lazyPrivateDir('harness-preset-files-test-');
    let setups = 0;
    const setup = oncePerDir(root, async (dir) => {
      setups += 1;
      return dir;
    });
    const [first, again] = await Promise.all([setup(), setup()]);
    expect(first).toBe(again);
    expect(setups).toBe(1);
    expect(statSync(first).mode & 0o777).toBe(0o700);
    await root.remove();
    expect(existsSync(first)).toBe(false);
    const second = await setup();
    expect(second).not.toBe(first);
    expect(setups).toBe(2);
    await root.remove();
    await root.remove();
  });
});
