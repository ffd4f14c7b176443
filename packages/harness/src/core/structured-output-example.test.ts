import { execFile } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';

// examples/structured-output run as its own Node process, offline, bundled from the sources.
const root = fileURLToPath(new URL('../../../../', import.meta.url));
const src = `${root}packages/harness/src`;
const cache = `${root}node_modules/.cache/agent-assistant-tests`;
const compiled = `${cache}/structured-output-example-${process.pid}.mjs`;

afterAll(async () => {
  await rm(compiled, { force: true });
});

describe('examples/structured-output', () => {
  it('runs offline: a corrected answer, then a streamed per-turn schema through the provider', async () => {
    await mkdir(cache, { recursive: true });
    await build({
      entryPoints: [`${root}examples/structured-output/index.mjs`],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: compiled,
      logLevel: 'silent',
      alias: {
        '@agent-assistant/harness/testing/node': `${src}/testing/node/index.ts`,
        '@agent-assistant/harness/testing': `${src}/testing/index.ts`,
        '@agent-assistant/harness': `${src}/index.ts`,
      },
      banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    });
    const { stdout } = await promisify(execFile)(process.execPath, [compiled], { cwd: `${root}examples/structured-output`, timeout: 60_000 });
    expect(stdout).toContain('The model is asked for "structured_output" with this JSON Schema:');
    expect(stdout).toMatch(/The model is told: The answer does not match the output schema: days: /);
    expect(stdout).toContain('turn 1: completed / answer_finalized after 2 model calls');
    expect(stdout).toContain('Oslo for 3 days: Opera house, Vigeland park');
    expect(stdout).toContain('turn 2: output event: 1 × rain jacket, 3 × wool socks');
    expect(stdout).toContain('turn 2: completed / answer_finalized');
  });
});
