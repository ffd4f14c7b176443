import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startBrokerRig, type BrokerRig } from '../__fixtures__/broker-rig.js';
import { RelayAdapter } from '../broker-client/relay-adapter.js';
import { startResponder, type Responder } from '../__fixtures__/start-responder.js';

// The documented snippet, verbatim, run as its own Node process from the broker's project
// directory (its `cwd: process.cwd()` discovers the broker), against the built package.

const root = fileURLToPath(new URL('../../../../../', import.meta.url));
const snippetPath = `${root}examples/agent-relay/readme-snippet.ts`;

let rig: BrokerRig;
let workerRelay: RelayAdapter;
let responder: Responder | undefined;
const cache = `${root}node_modules/.cache/agent-assistant-tests`;
const compiled = `${cache}/agent-relay-readme-snippet-${process.pid}.mjs`;

beforeEach(async () => {
  rig = await startBrokerRig();
  workerRelay = new RelayAdapter({ cwd: rig.cwd });
  await workerRelay.start();
});

afterEach(async () => {
  responder?.stop();
  await workerRelay.shutdown();
  await rig.stop();
  await rm(compiled, { force: true });
});

describe('docs/agent-relay.md snippet', () => {
  it('is the type-checked example file, verbatim', () => {
    expect(readFileSync(`${root}docs/agent-relay.md`, 'utf8')).toContain(readFileSync(snippetPath, 'utf8'));
  });

  it('runs as written against a real broker and worker', async () => {
    expect(existsSync(`${root}packages/harness/dist/index.js`), 'build the package first (npm test does)').toBe(true);
    responder = startResponder(workerRelay, 'nightcto-local-harness', (message) => ({
      result: { backendId: 'snippet-worker', status: 'completed', output: { text: `3 open: ${message.request.message.text.length} chars asked` } },
    }));
    // Strip the types only; the import of '@agent-assistant/harness' resolves from the repository's node_modules.
    await mkdir(cache, { recursive: true });
    await build({ entryPoints: [snippetPath], outfile: compiled, format: 'esm', platform: 'node', logLevel: 'silent' });
    const { stdout } = await promisify(execFile)(process.execPath, [compiled], { cwd: rig.cwd, env: rig.childEnv, timeout: 60_000 });
    expect(stdout.trim()).toBe('completed 3 open: 33 chars asked');
    expect(responder.requests[0]).toMatchObject({ replyTo: { agentId: 'nightcto-local-chat', channelId: 'nightcto-local-byoh' } });
  });
});
