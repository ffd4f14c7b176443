// Bundles one Worker program of programs/ the way turn-bench.mjs measures it: esbuild, minified
// ESM, workerd/worker/browser conditions, Node built-ins external (a Worker with nodejs_compat
// provides them; only @openai/agents imports any). Returns the code and esbuild's metafile.
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = fileURLToPath(new URL('../../../', import.meta.url));

export async function bundleProgram(entry, plugins = []) {
  const result = await esbuild.build({
    entryPoints: [join(root, 'scripts', 'bench', 'peers', 'programs', entry)],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    external: ['node:*', 'cloudflare:*', ...builtinModules],
    write: false,
    metafile: true,
    nodePaths: [join(root, 'node_modules')],
    plugins,
    logLevel: 'error',
  });
  return { code: result.outputFiles[0].contents, metafile: result.metafile };
}
