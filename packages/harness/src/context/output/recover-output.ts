import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { errorCode, loadOutputFs } from './load-output-fs.js';
import { type OutputArtifactStore, readOutputArtifact } from './output-artifact.js';
import { OutputArtifactError } from './output-artifact-error.js';

/** Options of {@link recoverOutput}. */
export interface RecoverOutputOptions {
  /** The store the artifact was kept in. */
  store: OutputArtifactStore;
  /** A directory that does not exist yet (its parent must): it is created with mode 0700. */
  into: string;
}

/** One recovered stream. */
export interface RecoveredStream {
  /** The file written. */
  path: string;
  bytes: number;
  sha256: string;
}

/** What {@link recoverOutput} wrote. */
export interface RecoveredOutput {
  /** The artifact id. */
  id: string;
  /** The directory created. */
  directory: string;
  stdout: RecoveredStream;
  stderr: RecoveredStream;
}

/**
 * Writes the raw output behind a reduced result, byte for byte, to a new directory: `into/stdout`
 * and `into/stderr` (mode 0600). The bytes are checked against the artifact id first; `into` is
 * created without `recursive`, so an existing path (a directory, a file, a link) is refused and
 * nothing is overwritten. Node.js only (`node:fs` loads on first use; importing is Worker-safe);
 * in any runtime, `readOutputArtifact` gives the checked bytes.
 * @throws OutputArtifactError `invalid_artifact_id`, `not_found`, `tampered`, `store_failed`,
 *   `target_exists` or `write_failed`.
 * @throws HarnessConfigError when `into` is not a path or `store` is not a store.
 * @example
 * ```ts
 * const recovered = await recoverOutput(reduced.artifact.id, { store, into: './npm-test-output' });
 * console.log(recovered.stdout.path); // ./npm-test-output/stdout
 * ```
 */
export async function recoverOutput(artifactId: string, options: RecoverOutputOptions): Promise<RecoveredOutput> {
  const into: unknown = (options as Partial<RecoverOutputOptions> | undefined)?.into;
  if (typeof into !== 'string' || into.trim() === '' || into.includes('\u0000')) {
    throw new HarnessConfigError('recoverOutput needs into, the path of a new directory.', { field: 'into' });
  }
  const artifact = await readOutputArtifact(artifactId, { store: options.store });
  const fs = await loadOutputFs();
  try {
    await fs.mkdir(into, { mode: 0o700 });
  } catch (error) {
    if (errorCode(error) === 'EEXIST') throw new OutputArtifactError('target_exists', `${into} already exists; recovery writes only to a new directory.`);
    throw new OutputArtifactError('write_failed', `Could not create ${into}.`, { cause: error });
  }
  const directory = into.replace(/[\\/]+$/, '') || into;
  const write = async (name: 'stdout' | 'stderr', bytes: Uint8Array, sha256: string): Promise<RecoveredStream> => {
    const path = `${directory}/${name}`;
    try {
      await fs.writeFile(path, bytes, { flag: 'wx', mode: 0o600 });
    } catch (error) {
      throw new OutputArtifactError('write_failed', `Could not write ${path}.`, { cause: error });
    }
    return { path, bytes: bytes.byteLength, sha256 };
  };
  return {
    id: artifact.id,
    directory: into,
    stdout: await write('stdout', artifact.stdout, artifact.stdoutSha256),
    stderr: await write('stderr', artifact.stderr, artifact.stderrSha256),
  };
}
