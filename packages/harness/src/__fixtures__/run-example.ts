import { execFile } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const src = `${root}packages/harness/src`;
const cache = `${root}node_modules/.cache/agent-assistant-tests`;

/** The repository's root folder, ending in `/`. */
export const REPOSITORY_ROOT = root;

/**
 * Runs `examples/<name>/index.mjs` as its own Node process, bundled from the sources (the package
 * and its testing entries aliased to `src`), in the example's folder. Returns its stdout.
 * `external` packages are left out of the bundle and load from the repository's node_modules
 * (those that find their own files next to their code, such as PGlite's WebAssembly).
 */
export async function runExample(name: string, options: { env?: NodeJS.ProcessEnv; external?: string[] } = {}): Promise<string> {
  await mkdir(cache, { recursive: true });
  const compiled = `${cache}/${name}-example-${process.pid}.mjs`;
  try {
    await build({
      entryPoints: [`${root}examples/${name}/index.mjs`],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: compiled,
      logLevel: 'silent',
      external: options.external ?? [],
      alias: {
        '@agent-assistant/harness/testing/node': `${src}/testing/node/index.ts`,
        '@agent-assistant/harness/testing': `${src}/testing/index.ts`,
        '@agent-assistant/harness/worker-bridge': `${src}/worker-bridge/index.ts`,
        '@agent-assistant/harness': `${src}/index.ts`,
      },
      banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    });
    const { stdout } = await promisify(execFile)(process.execPath, [compiled], {
      cwd: `${root}examples/${name}`,
      timeout: 60_000,
      ...(options.env === undefined ? {} : { env: options.env }),
    });
    return stdout;
  } finally {
    await rm(compiled, { force: true });
  }
}
