import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../local/__fixtures__/test-helpers.js';
import { prepareEngineHome } from './private-home.js';

afterEach(cleanupTempDirs);

describe('prepareEngineHome', () => {
  it('makes a private 0700 home with the files, and removes it with everything the engine wrote', async () => {
    const home = await prepareEngineHome('harness-test-', undefined, { '.tool/settings.json': '{"a":1}' });
    expect(home.private).toBe(true);
    expect(statSync(home.path).mode & 0o777).toBe(0o700);
    expect(readFileSync(join(home.path, '.tool', 'settings.json'), 'utf8')).toBe('{"a":1}');
    writeFileSync(join(home.path, 'session.db'), 'x');
    await home.remove();
    expect(existsSync(home.path)).toBe(false);
  });

  it("never overwrites a caller's file and never removes a caller's home", async () => {
    const given = tempDir('given-home-');
    mkdirSync(join(given, '.tool'));
    writeFileSync(join(given, '.tool', 'settings.json'), 'mine');
    const home = await prepareEngineHome('harness-test-', given, { '.tool/settings.json': 'preset', '.tool/other.json': 'new' });
    expect(home).toMatchObject({ path: given, private: false });
    expect(readFileSync(join(given, '.tool', 'settings.json'), 'utf8')).toBe('mine');
    expect(readFileSync(join(given, '.tool', 'other.json'), 'utf8')).toBe('new');
    await home.remove();
    expect(existsSync(given)).toBe(true);
  });

  it('refuses a file outside the home, and leaves no private directory behind', async () => {
    const outside = tempDir('outside-');
    const prefix = `harness-refused-${process.pid}-`;
    await expect(prepareEngineHome(prefix, undefined, { [`../${outside.split('/').pop()!}/x`]: 'y' })).rejects.toThrow(/outside the home/);
    expect(readdirSync(tmpdir()).filter((name) => name.startsWith(prefix))).toEqual([]);
    await expect(prepareEngineHome('harness-test-', outside, { '/etc/passwd': 'y' })).rejects.toThrow(/outside the home/);
    expect(existsSync(join(outside, 'x'))).toBe(false);
  });
});
