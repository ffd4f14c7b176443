import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../local/__fixtures__/test-helpers.js';
import { findExecutable } from './find-executable.js';
import { loadNodeModules } from './load-node-modules.js';

afterEach(cleanupTempDirs);

describe('findExecutable', () => {
  it('searches PATH in order, skipping non-executable files, and checks paths relative to cwd', async () => {
    const node = await loadNodeModules();
    const [first, second] = [tempDir(), tempDir()];
    writeFileSync(join(first, 'tool'), 'not executable');
    writeFileSync(join(second, 'tool'), '#!/bin/sh\n');
    chmodSync(join(second, 'tool'), 0o755);
    const env = { PATH: `${first}:${second}` };
    expect(await findExecutable(node, 'tool', env, '/')).toEqual({ found: true, path: join(second, 'tool') });
    expect(await findExecutable(node, './tool', {}, second)).toEqual({ found: true, path: join(second, 'tool') });
    expect(await findExecutable(node, 'tool', { PATH: first }, '/')).toEqual({ found: false, reason: 'not_executable', path: join(first, 'tool') });
    expect(await findExecutable(node, 'nothing-here', env, '/')).toEqual({ found: false, reason: 'not_found' });
  });
});
