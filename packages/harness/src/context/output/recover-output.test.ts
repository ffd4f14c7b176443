import { execFileSync } from 'node:child_process';
import { chmod, lstat, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDirectoryOutputStore,
  HarnessConfigError,
  OutputArtifactError,
  readOutputArtifact,
  recoverOutput,
  reduceOutput,
  type OutputArtifactErrorReason,
} from '../../index.js';
import { createMapOutputStore } from './__fixtures__/map-output-store.js';

const posix = process.platform !== 'win32';

let folder = '';
let count = 0;
/** A fresh path inside the test folder (not created). */
const fresh = (name: string) => join(folder, `${name}-${String((count += 1))}`);

async function reason(promise: Promise<unknown>): Promise<OutputArtifactErrorReason | 'no error' | 'other'> {
  try {
    await promise;
    return 'no error';
  } catch (error) {
    return OutputArtifactError.isInstance(error) ? error.reason : 'other';
  }
}

/** A reduction of `stdout`/`stderr` stored in a new directory store. */
async function stored(stdout: Uint8Array | string, stderr: Uint8Array | string = '') {
  const directory = fresh('store');
  const store = createDirectoryOutputStore({ directory });
  const result = await reduceOutput({ argv: ['x'], exitCode: 1, stdout, stderr, captureComplete: true }, { budget: 4096, store });
  return { store, directory, id: result.artifact.id, result };
}

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'recover-output-'));
});
afterAll(() => rm(folder, { recursive: true, force: true }));

describe('recoverOutput', () => {
  it('writes the exact bytes (binary, invalid UTF-8, a lone CR, NUL) to a new 0700 directory, files 0600', async () => {
    const binary = new Uint8Array(256 * 64).map((_, index) => (index * 131 + 7) % 256);
    const invalid = Uint8Array.of(0x66, 0x61, 0x69, 0x6c, 0xff, 0xfe, 0xc3, 0x28, 0x0a, 0xed, 0xa0, 0x80, 0x0d, 0x00, 0xe2, 0x82);
    const { store, id, result } = await stored(binary, invalid);
    const into = fresh('recovered');
    const recovered = await recoverOutput(id, { store, into });
    expect(new Uint8Array(await readFile(recovered.stdout.path))).toEqual(binary);
    expect(new Uint8Array(await readFile(recovered.stderr.path))).toEqual(invalid);
    expect(recovered).toMatchObject({ id, directory: into, stdout: { bytes: binary.byteLength, sha256: result.artifact.stdoutSha256 }, stderr: { bytes: 16, sha256: result.artifact.stderrSha256 } });
    expect(await readdir(into)).toEqual(['stderr', 'stdout']);
    if (posix) {
      expect((await stat(into)).mode & 0o777).toBe(0o700);
      expect((await stat(recovered.stdout.path)).mode & 0o777).toBe(0o600);
    }
  });

  it('refuses an existing target — a directory, a file, a link — and writes nothing', async () => {
    const { store, id } = await stored('Error: x\n');
    const directory = fresh('existing-dir');
    await mkdir(directory);
    const file = fresh('existing-file');
    await writeFile(file, 'keep');
    const link = fresh('existing-link');
    await symlink(fresh('nowhere'), link);
    for (const into of [directory, file, link]) expect(await reason(recoverOutput(id, { store, into }))).toBe('target_exists');
    expect(await readdir(directory)).toEqual([]);
    expect(await readFile(file, 'utf8')).toBe('keep');
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
  });

  it('refuses hostile artifact ids before asking the store', async () => {
    const store = createMapOutputStore();
    for (const id of ['..', '../etc/passwd', '/etc/passwd', '__proto__', 'constructor', `${'a'.repeat(63)}\u0000`, `${'a'.repeat(63)}\n`, 'A'.repeat(64), 'a'.repeat(65), '', 5]) {
      expect(await reason(recoverOutput(id as string, { store, into: fresh('never') }))).toBe('invalid_artifact_id');
      expect(await reason(readOutputArtifact(id as string, { store }))).toBe('invalid_artifact_id');
    }
    expect(store.calls).toEqual([]);
    expect(await reason(recoverOutput('a'.repeat(64), { store, into: fresh('never') }))).toBe('not_found');
  });

  it('detects a tampered artifact: changed, truncated, a stream missing, a link, a FIFO, or a store returning anything', async () => {
    const changed = await stored('Error: original\n', 'stderr\n');
    await writeFile(join(changed.directory, changed.id, 'stdout'), 'Error: changed!\n');
    expect(await reason(recoverOutput(changed.id, { store: changed.store, into: fresh('t1') }))).toBe('tampered');

    const truncated = await stored('Error: original\n');
    await writeFile(join(truncated.directory, truncated.id, 'stdout'), 'Error: orig');
    expect(await reason(readOutputArtifact(truncated.id, { store: truncated.store }))).toBe('tampered');

    const missing = await stored('Error: original\n');
    await unlink(join(missing.directory, missing.id, 'stderr'));
    expect(await reason(readOutputArtifact(missing.id, { store: missing.store }))).toBe('tampered');

    if (posix) {
      const linked = await stored('Error: original\n');
      const outside = fresh('outside');
      await writeFile(outside, 'Error: original\n');
      await unlink(join(linked.directory, linked.id, 'stdout'));
      await symlink(outside, join(linked.directory, linked.id, 'stdout'));
      expect(await reason(readOutputArtifact(linked.id, { store: linked.store }))).toBe('tampered');

      const fifo = await stored('Error: original\n');
      await unlink(join(fifo.directory, fifo.id, 'stdout'));
      execFileSync('mkfifo', [join(fifo.directory, fifo.id, 'stdout')]);
      expect(await reason(readOutputArtifact(fifo.id, { store: fifo.store }))).toBe('tampered');
    }

    const { id } = await stored('Error: original\n');
    for (const answer of [null, 5, 'text', { stdout: 'a', stderr: 'b' }, { stdout: new Uint8Array(1) }, { stdout: new Uint8Array(9 * 1024 * 1024), stderr: new Uint8Array(0) }]) {
      const store = { put: () => Promise.resolve(), get: () => Promise.resolve(answer as never) };
      expect(await reason(readOutputArtifact(id, { store }))).toBe('tampered');
    }
    const throwing = { put: () => Promise.resolve(), get: () => Promise.reject(new Error('network down')) };
    expect(await reason(readOutputArtifact(id, { store: throwing }))).toBe('store_failed');
  });

  it('checks its options', async () => {
    const { store, id } = await stored('x');
    for (const into of ['', ' ', 'a\u0000b', 5]) await expect(recoverOutput(id, { store, into: into as string })).rejects.toSatisfy(HarnessConfigError.isInstance);
    await expect(recoverOutput(id, { store: {} as never, into: fresh('x') })).rejects.toSatisfy(HarnessConfigError.isInstance);
    expect(await reason(recoverOutput(id, { store, into: join(fresh('no-parent'), 'child') }))).toBe('write_failed');
  });
});

describe('createDirectoryOutputStore', () => {
  it.runIf(posix)('creates its directory 0700 and refuses one open to others, a link, or a file', async () => {
    const { directory } = await stored('x');
    expect((await stat(directory)).mode & 0o777).toBe(0o700);

    const open = fresh('open');
    await mkdir(open, { mode: 0o755 });
    await chmod(open, 0o755);
    expect(await reason(createDirectoryOutputStore({ directory: open }).get('a'.repeat(64)))).toBe('unsafe_directory');

    const real = fresh('real');
    await mkdir(real, { mode: 0o700 });
    const link = fresh('link');
    await symlink(real, link);
    expect(await reason(createDirectoryOutputStore({ directory: link }).put('a'.repeat(64), { stdout: new Uint8Array(), stderr: new Uint8Array() }))).toBe('unsafe_directory');

    const file = fresh('file');
    await writeFile(file, '');
    expect(await reason(createDirectoryOutputStore({ directory: file }).get('a'.repeat(64)))).toBe('unsafe_directory');
  });

  it('keeps an artifact once (a second put of the same id is a no-op) and leaves no temporary folders', async () => {
    const directory = fresh('twice');
    const store = createDirectoryOutputStore({ directory });
    const output = { argv: ['x'], exitCode: 0, stdout: 'same\n', stderr: '', captureComplete: true };
    const [first, second] = await Promise.all([reduceOutput(output, { budget: 4096, store }), reduceOutput(output, { budget: 4096, store })]);
    expect(first.artifact.id).toBe(second.artifact.id);
    expect(await readdir(directory)).toEqual([first.artifact.id]);
    expect(await readdir(join(directory, first.artifact.id))).toEqual(['stderr', 'stdout']);
    expect(store.location).toBe(directory);
  });

  it('checks its options', () => {
    for (const directory of ['', ' ', 'a\u0000', 5, undefined]) {
      expect(() => createDirectoryOutputStore({ directory } as never)).toThrow(HarnessConfigError);
    }
  });
});
