import { execFile } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';

// examples/provider-profiles run as its own Node process, offline: every key variable removed, so
// each profile of the file runs against its protocol's loopback fake. Bundled from the sources.
const root = fileURLToPath(new URL('../../../../../', import.meta.url));
const src = `${root}packages/harness/src`;
const cache = `${root}node_modules/.cache/agent-assistant-tests`;
const compiled = `${cache}/provider-profiles-example-${process.pid}.mjs`;

afterAll(async () => {
  await rm(compiled, { force: true });
});

describe('examples/provider-profiles', () => {
  it('runs every profile of the file offline through a streamed tool turn', async () => {
    await mkdir(cache, { recursive: true });
    await build({
      entryPoints: [`${root}examples/provider-profiles/index.mjs`],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: compiled,
      logLevel: 'silent',
      alias: {
        '@agent-assistant/harness/testing/node': `${src}/testing/node/index.ts`,
        '@agent-assistant/harness': `${src}/index.ts`,
      },
      banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    });
    const env = {
      ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/_API_KEY$/.test(name))),
      PROFILES_FILE: `${root}examples/provider-profiles/profiles.json`,
    };
    const { stdout } = await promisify(execFile)(process.execPath, [compiled], { cwd: `${root}examples/provider-profiles`, env, timeout: 60_000 });
    expect(stdout).toMatch(/router\s+openai-chat\s+openai\/gpt-5-mini\s+openrouter\.ai\s+OPENROUTER_API_KEY not set → no/);
    for (const id of ['local-model', 'router', 'openai', 'claude', 'gemini']) expect(stdout).toContain(`[${id}] offline: fake server`);
    expect(stdout.match(/→ completed \/ answer_finalized/g)).toHaveLength(5);
    expect(stdout.match(/receipt: /g)).toHaveLength(10);
    expect(stdout).not.toContain('fake-key-for-the-local-server');
  });
});
