import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const dist = (file: string) => fileURLToPath(new URL(`../dist/${file}`, import.meta.url));

async function staticNodeImports(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'neutral',
    external: ['node:*', 'eventsource-parser', '@agent-assistant/vfs', 'undici'],
    logLevel: 'silent',
  });
  return Object.values(result.metafile.inputs).flatMap((input) =>
    input.imports.filter((item) => item.path.startsWith('node:') && item.kind !== 'dynamic-import').map((item) => item.path),
  );
}

describe('Worker safety of the built entries', () => {
  // The main entry, the testing kit, and the plumbing subpaths of folders the main entry holds.
  it.each(['index.js', 'testing.js', 'providers.js', 'tools.js', 'local.js', 'sessions.js'])('%s has no static node: imports', async (file) => {
    expect(existsSync(dist(file)), 'build the package first (npm test does)').toBe(true);
    expect(await staticNodeImports(dist(file))).toEqual([]);
  });
});
