// Whatever path a hostile caller builds — `..`, escaped separators, NUL bytes, drive letters,
// symlinks in and out of the root — the Node provider answers inside the root or with a typed
// VfsError: never the content, names or metadata of anything outside, never another error.
import fc from 'fast-check';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// One run-count rule for every property test of the repository (PROPERTY_RUNS=10000 in `npm run test:properties`).
import { propertyRuns } from '../../../harness/src/__fixtures__/property-runs.js';
import { VfsError } from '../errors/index.js';
import { createNodeFsVfs, type NodeFsVfs } from './create-node-fs-vfs.js';

const SECRET = 'OUTSIDE-SECRET-c0ffee';
let base: string;
let vfs: NodeFsVfs;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'vfs-property-')));
  const root = join(base, 'root');
  const outside = join(base, 'outside');
  await mkdir(join(root, 'sub', 'deep'), { recursive: true });
  await mkdir(outside);
  await writeFile(join(root, 'sub', 'file.txt'), 'inside\n');
  await writeFile(join(root, 'sub', 'deep', 'note.md'), 'deep inside\n');
  await writeFile(join(outside, 'file.txt'), `${SECRET}\n`);
  await writeFile(join(outside, 'secret-name.txt'), `${SECRET}\n`);
  await symlink(outside, join(root, 'out-dir'));
  await symlink(join(outside, 'file.txt'), join(root, 'out-file'));
  await symlink('../../outside/file.txt', join(root, 'sub', 'rel-out'));
  await symlink(join(root, 'sub'), join(root, 'in-dir'));
  await symlink('loop', join(root, 'loop'));
  vfs = createNodeFsVfs({ root });
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const segment = fc.oneof(
  fc.constantFrom('..', '.', '', 'sub', 'deep', 'file.txt', 'note.md', 'out-dir', 'out-file', 'rel-out', 'in-dir', 'loop'),
  fc.constantFrom('%2e%2e', '..\\..', 'C:', 'c:\\', '\\\\server', '\u0000', '~', 'outside', 'secret-name.txt', '...'),
  fc.string({ maxLength: 6 }),
);
const hostilePath = fc
  .tuple(fc.constantFrom('', '/', '//', './', '../', '\\'), fc.array(segment, { maxLength: 6 }), fc.constantFrom('/', '\\', '//'))
  .map(([lead, parts, separator]) => `${lead}${parts.join(separator)}`);

/** The outcome of one call: its value, or the error it threw. */
async function settle<T>(call: () => Promise<T>): Promise<{ value?: T; error?: unknown }> {
  try {
    return { value: await call() };
  } catch (error) {
    return { error };
  }
}

function expectNothingFromOutside(outcome: { value?: unknown; error?: unknown }): void {
  if ('error' in outcome && outcome.error !== undefined) {
    expect(VfsError.isInstance(outcome.error), String(outcome.error)).toBe(true);
    expect((outcome.error as Error).message).not.toContain(SECRET);
    expect((outcome.error as Error).message).not.toContain(base);
    return;
  }
  const text = JSON.stringify(outcome.value) ?? '';
  expect(text).not.toContain(SECRET);
  expect(text).not.toContain('secret-name');
  expect(text).not.toContain(base);
}

const method = fc.constantFrom('read', 'stat', 'list');

describe('createNodeFsVfs with hostile paths (property)', () => {
  it('read, stat and list answer inside the root or with a typed error', async () => {
    await fc.assert(
      fc.asyncProperty(method, hostilePath, async (name, path) => {
        const call = (): Promise<unknown> => (name === 'read' ? vfs.read(path) : name === 'stat' ? vfs.stat(path) : vfs.list(path, { depth: 2 }));
        expectNothingFromOutside(await settle(call));
      }),
      { numRuns: propertyRuns() },
    );
  }, 120_000);
});
