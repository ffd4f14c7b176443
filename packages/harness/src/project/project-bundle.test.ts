// The YAML parser loads lazily: a Worker bundle that never loads a project carries none of it.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const distIndex = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

/** Bytes of the `yaml` package in a Worker bundle of `source`. */
async function yamlBytesInBundle(source: string): Promise<number> {
  const result = await build({
    stdin: { contents: source, resolveDir: fileURLToPath(new URL('.', import.meta.url)), loader: 'js' },
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['worker', 'browser'],
    external: ['node:*'],
    logLevel: 'silent',
  });
  const [output] = Object.values(result.metafile.outputs);
  return Object.entries(output!.inputs)
    .filter(([path]) => path.includes('node_modules/yaml/'))
    .reduce((total, [, input]) => total + input.bytesInOutput, 0);
}

describe('the yaml dependency in users’ bundles', () => {
  it('is absent from a bundle that does not load projects, present in one that does', async () => {
    expect(existsSync(distIndex), 'build the package first (npm test does)').toBe(true);
    expect(await yamlBytesInBundle(`import { createHarness } from ${JSON.stringify(distIndex)}; export { createHarness };`)).toBe(0);
    expect(await yamlBytesInBundle(`import { loadAgentProject } from ${JSON.stringify(distIndex)}; export { loadAgentProject };`)).toBeGreaterThan(50_000);
  });
});
