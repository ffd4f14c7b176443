// A memory file that is not a file (issue 22, class 11): a FIFO with an endless writer, a link to
// /dev/zero, a directory. The store refuses each after reading nothing, and never replaces it.
import { spawn, spawnSync } from 'node:child_process';
import { constants } from 'node:fs';
import { lstat, mkdir, mkdtemp, open, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileMemoryStore, createHarness, createMemoryToolRegistry } from '../../index.js';
import { createScriptedModel, createTurnInput } from '../../testing/index.js';

const posix = process.platform !== 'win32';

let folder = '';
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'memory-hostile-'));
});
afterEach(() => rm(folder, { recursive: true, force: true }));

/**
 * A child that opens the FIFO for writing, says `open`, then writes 64 KiB blocks until 64 MiB
 * are written or the last reader goes away, and prints how many bytes it wrote.
 */
const WRITER = `
const fs = require('node:fs');
const fd = fs.openSync(process.argv[1], 'w');
process.stdout.write('open\\n');
const block = Buffer.alloc(65536, 0x20);
let written = 0;
try {
  while (written < 64 * 1024 * 1024) written += fs.writeSync(fd, block);
} catch {}
process.stdout.write(String(written) + '\\n');
`;

describe.runIf(posix)('the file memory store refuses what is not a regular file (issue 22, class 11)', () => {
  it('refuses a FIFO with an endless writer after reading nothing of it', async () => {
    const fifo = join(folder, 'memory.json');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    // Held open for reading, so the writer's open returns at once; never read.
    const holder = await open(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const writer = spawn(process.execPath, ['-e', WRITER, fifo], { stdio: ['ignore', 'pipe', 'inherit'] });
    const lines = createInterface({ input: writer.stdout })[Symbol.asyncIterator]();
    try {
      expect((await lines.next()).value).toBe('open');
      const store = createFileMemoryStore({ path: fifo, maxFileBytes: 1024 });
      await expect(store.get('k')).rejects.toMatchObject({ reason: 'memory_unavailable', retryable: false, message: expect.stringContaining('not a regular file (it is a FIFO)') });
      await expect(store.put('k', 'v')).rejects.toMatchObject({ reason: 'memory_unavailable' });
    } finally {
      await holder.close();
    }
    // Every reader is gone: the writer stops and reports. What it wrote fits in the pipe's buffer, unread.
    const written = Number((await lines.next()).value);
    expect(written).toBeLessThanOrEqual(1024 * 1024);
    expect((await lstat(fifo)).isFIFO()).toBe(true);
  });

  it('refuses a FIFO nobody writes to without waiting for a writer', async () => {
    const fifo = join(folder, 'quiet.json');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    await expect(createFileMemoryStore({ path: fifo }).search({ text: '', limit: 5 })).rejects.toMatchObject({ reason: 'memory_unavailable' });
  });

  it('refuses a link to /dev/zero, a directory and a link to a directory, and replaces none of them', async () => {
    const zero = join(folder, 'zero.json');
    await symlink('/dev/zero', zero);
    const directory = join(folder, 'dir.json');
    await mkdir(directory);
    const linkToDirectory = join(folder, 'dir-link.json');
    await symlink(directory, linkToDirectory);
    for (const [path, kind] of [
      [zero, 'a character device'],
      [directory, 'a directory'],
      [linkToDirectory, 'a directory'],
    ] as const) {
      const store = createFileMemoryStore({ path });
      await expect(store.put('k', 'v')).rejects.toMatchObject({ reason: 'memory_unavailable', message: expect.stringContaining(`(it is ${kind})`) });
    }
    expect((await lstat(zero)).isSymbolicLink()).toBe(true);
    expect((await lstat(directory)).isDirectory()).toBe(true);
  });

  it('ends the turn failed with memory_unavailable through the memory tools', async () => {
    const zero = join(folder, 'memory.json');
    await symlink('/dev/zero', zero);
    const harness = createHarness({
      model: createScriptedModel([{ type: 'tool_request', calls: [{ id: 'c1', name: 'recall', input: {} }] }, { type: 'final_answer', text: 'done' }]),
      tools: createMemoryToolRegistry({ store: createFileMemoryStore({ path: zero }) }),
    });
    const result = await harness.runTurn(createTurnInput({ text: 'recall' }));
    expect(result.outcome).toBe('failed');
    const [recalled] = result.transcript.flatMap((item) => (item.type === 'tool_result' ? [item.result] : []));
    expect(recalled?.error).toMatchObject({ code: 'memory_unavailable', retryable: false });
  });
});

describe('the file memory store reads at most maxFileBytes + 1 bytes', () => {
  it('reads a regular file up to the limit, refuses one byte more, and follows a link to a regular file', async () => {
    const path = join(folder, 'memory.json');
    const text = JSON.stringify({ version: 1, entries: [{ key: 'a', value: 'x', updatedAt: 1 }] });
    await writeFile(path, text);
    expect(await createFileMemoryStore({ path, maxFileBytes: text.length }).get('a')).toMatchObject({ value: 'x' });
    await expect(createFileMemoryStore({ path, maxFileBytes: text.length - 1 }).get('a')).rejects.toMatchObject({ reason: 'memory_unavailable' });
    if (posix) {
      const link = join(folder, 'link.json');
      await symlink(path, link);
      await createFileMemoryStore({ path: link }).put('b', 'y');
      expect(JSON.parse(await readFile(link, 'utf8'))).toMatchObject({ entries: [{ key: 'a' }, { key: 'b' }] });
      expect((await lstat(link)).isFile()).toBe(true);
    }
  });
});
