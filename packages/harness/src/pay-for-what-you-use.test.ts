import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = fileURLToPath(new URL('.', import.meta.url));
const RUNNER = 'core/internal/run-backend-turn.ts';

/** The source files that put code into a minified Worker-style bundle of `program` (imports from `./index.js`). */
async function filesInBundle(program: string): Promise<Set<string>> {
  const result = await build({
    stdin: { contents: program, resolveDir: src, loader: 'ts', sourcefile: 'program.ts' },
    bundle: true,
    minify: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    external: ['node:*', 'eventsource-parser', '@agent-assistant/vfs', 'undici'],
    logLevel: 'silent',
  });
  const [output] = Object.values(result.metafile.outputs);
  const files = Object.entries(output?.inputs ?? {}).filter(([, input]) => input.bytesInOutput > 0);
  return new Set(files.map(([path]) => path.replace(/\\/g, '/').replace(/^.*?src\//, '')));
}

const TURN = `({ assistantId: 'a', turnId: 't', message: { id: 'm', text: 'hi', receivedAt: '2026-01-01T00:00:00Z' }, instructions: { systemPrompt: 's' } })`;

describe('a program pays only for what it uses (esbuild metafile of the program from src)', () => {
  it('a model-only program does not bundle the backend turn runner', async () => {
    const files = await filesInBundle(`
      import { createHarness } from './index.js';
      const harness = createHarness({ model: { nextStep: async () => ({ type: 'final_answer', text: 'ok' }) } });
      export default await harness.runTurn(${TURN});
    `);
    expect(files.has('core/create-harness.ts')).toBe(true);
    expect(files.has(RUNNER)).toBe(false);
  });

  it('a program with an OpenAI-compatible model does not bundle it either', async () => {
    const files = await filesInBundle(`
      import { createHarness, createOpenAICompatibleModel } from './index.js';
      const harness = createHarness({ model: createOpenAICompatibleModel({ baseUrl: 'https://example.test/v1', model: 'm', apiKey: 'k' }) });
      export default await harness.runTurn(${TURN});
    `);
    expect(files.has(RUNNER)).toBe(false);
  });

  it('a program that makes a backend bundles it, through defineExecutionAdapter or an adapter of the package', async () => {
    const handWritten = await filesInBundle(`
      import { createHarness, defineExecutionAdapter } from './index.js';
      const backend = defineExecutionAdapter({
        backendId: 'echo',
        describeCapabilities: () => ({}),
        negotiate: () => ({ supported: true, degraded: false, reasons: [], effectiveCapabilities: {} }),
        execute: async () => ({ backendId: 'echo', status: 'completed', output: { text: 'ok' } }),
      });
      export default await createHarness({ backend }).runTurn(${TURN});
    `);
    expect(handWritten.has(RUNNER)).toBe(true);
    const relay = await filesInBundle(`
      import { AgentRelayExecutionAdapter, createHarness } from './index.js';
      export default (transport) => createHarness({ backend: new AgentRelayExecutionAdapter({ transport, workerName: 'w' }) });
    `);
    expect(relay.has(RUNNER)).toBe(true);
  });
});
