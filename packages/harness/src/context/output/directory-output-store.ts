import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { checkArtifactId, MAX_OUTPUT_ARTIFACT_BYTES, type OutputArtifactStore, type OutputStreams } from './output-artifact.js';
import { OutputArtifactError } from './output-artifact-error.js';
import { errorCode, loadOutputFs, type OutputFs } from './load-output-fs.js';
import { syncDirectory, writeNewFileSynced } from '../../shared/write-file-atomic.js';

/** Options of {@link createDirectoryOutputStore}. */
export interface DirectoryOutputStoreOptions {
  /** The private directory of the artifacts: created with mode 0700 when missing; an existing one must be a real directory of this user that group and others cannot use. */
  directory: string;
}

/** An output store in a directory; `location` is the directory. */
export interface DirectoryOutputStore extends OutputArtifactStore {
  readonly location: string;
}

/**
 * Keeps output artifacts in a private directory on this machine (Node.js only: `node:fs` loads
 * on first use, so importing it is Worker-safe). Each artifact is a folder `<directory>/<id>/`
 * with the files `stdout` and `stderr` (mode 0600), written under a temporary name, flushed to
 * disk (`fsync`, the files and the folder) and renamed into place, so neither a reader nor a
 * crash leaves half an artifact; an id already there is kept. Reads
 * follow no symbolic link, refuse anything but a regular file and stop past 8 MiB. On POSIX
 * systems the directory is checked before first use: a symbolic link, another user's directory
 * or one that group or others can use is refused (`unsafe_directory`).
 * @throws HarnessConfigError when `directory` is not a non-empty path.
 * @example
 * ```ts
 * const store = createDirectoryOutputStore({ directory: '/var/lib/my-app/command-output' });
 * const reduced = await reduceOutput(output, { budget: 16_384, store });
 * ```
 */
export function createDirectoryOutputStore(options: DirectoryOutputStoreOptions): DirectoryOutputStore {
  const given: unknown = (options as Partial<DirectoryOutputStoreOptions> | undefined)?.directory;
  if (typeof given !== 'string' || given.trim() === '' || given.includes('\u0000')) {
    throw new HarnessConfigError('createDirectoryOutputStore needs a directory (a non-empty path).', { field: 'directory' });
  }
  const directory = given.replace(/[\\/]+$/, '') || given;
  let ready: Promise<OutputFs> | undefined;
  const open = () => {
    ready ??= loadOutputFs().then(async (fs) => {
      await fs.mkdir(directory, { recursive: true, mode: 0o700 }).catch((error: unknown) => {
        // A file in the way: checkPrivate names the problem.
        if (errorCode(error) !== 'EEXIST' && errorCode(error) !== 'ENOTDIR') throw error;
      });
      await checkPrivate(fs, directory);
      return fs;
    });
    ready.catch(() => {
      ready = undefined;
    });
    return ready;
  };
  return {
    location: directory,
    async put(id, streams) {
      const checked = checkArtifactId(id);
      const fs = await open();
      const target = `${directory}/${checked}`;
      if (await exists(fs, target)) return;
      const temporary = `${directory}/.tmp-${crypto.randomUUID()}`;
      try {
        await fs.mkdir(temporary, { mode: 0o700 });
        await writeNewFileSynced(fs.durable, `${temporary}/stdout`, streams.stdout, 0o600);
        await writeNewFileSynced(fs.durable, `${temporary}/stderr`, streams.stderr, 0o600);
        await syncDirectory(fs.durable, temporary);
        await fs.rename(temporary, target);
      } catch (error) {
        await fs.rm(temporary, { recursive: true, force: true }).catch(() => undefined);
        // Another writer stored the same id (the same bytes) first.
        if ((errorCode(error) === 'EEXIST' || errorCode(error) === 'ENOTEMPTY') && (await exists(fs, target))) return;
        throw error;
      }
      await syncDirectory(fs.durable, directory);
    },
    async get(id): Promise<OutputStreams | undefined> {
      const checked = checkArtifactId(id);
      const fs = await open();
      const [stdout, stderr] = await Promise.all([readBounded(fs, `${directory}/${checked}/stdout`), readBounded(fs, `${directory}/${checked}/stderr`)]);
      if (stdout === undefined && stderr === undefined) return undefined;
      if (stdout === undefined || stderr === undefined) throw new OutputArtifactError('tampered', `Output artifact ${checked} lacks one of its streams.`);
      return { stdout, stderr };
    },
  };
}

/** Refuses a directory that is a link, not a directory, another user's, or open to group or others (POSIX only). */
async function checkPrivate(fs: OutputFs, directory: string): Promise<void> {
  const stats = await fs.lstat(directory);
  if (stats.isSymbolicLink() || !stats.isDirectory()) {
    throw new OutputArtifactError('unsafe_directory', `The output store's directory ${directory} is not a directory (a symbolic link is refused too).`);
  }
  if (fs.platform === 'win32') return;
  if ((stats.mode & 0o077) !== 0 || (fs.uid !== undefined && stats.uid !== fs.uid)) {
    throw new OutputArtifactError(
      'unsafe_directory',
      `The output store's directory ${directory} must be private: owned by this user, mode 0700 (it is ${(stats.mode & 0o777).toString(8)}).`,
    );
  }
}

async function exists(fs: OutputFs, path: string): Promise<boolean> {
  try {
    await fs.lstat(path);
    return true;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return false;
    throw error;
  }
}

/** A regular file's bytes, at most 8 MiB; `undefined` when missing. A link, a special file or a larger file is `tampered`. */
async function readBounded(fs: OutputFs, path: string): Promise<Uint8Array | undefined> {
  let handle;
  try {
    handle = await fs.open(path, fs.readFlags);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    if (errorCode(error) === 'ELOOP') throw new OutputArtifactError('tampered', `${path} is a symbolic link.`);
    throw error;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile() || stats.size > MAX_OUTPUT_ARTIFACT_BYTES) throw new OutputArtifactError('tampered', `${path} is not an artifact's file.`);
    const buffer = new Uint8Array(stats.size + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.byteLength - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length === buffer.byteLength) throw new OutputArtifactError('tampered', `${path} grew while it was read.`);
    }
    return buffer.subarray(0, length);
  } finally {
    await handle.close();
  }
}
