// Hostile engines against all three session adapters (ACP, codex app-server, Claude Code), each a
// real child process speaking its protocol (the fakes in */__fixtures__): an engine that prints a
// secret from its environment to stderr and dies (issue 22, class 6), and one that streams far
// more answer text than the cap (issue 22, class 7).
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, MAX_ANSWER_CHARS, type ExecutionAdapter, type HarnessStreamEvent } from '../index.js';
import { memoryTraceSink } from '../testing/index.js';
import { cleanupTempDirs, tempDir, turnInput } from '../local/__fixtures__/test-helpers.js';
import { createAcpAdapter } from './acp/acp-adapter.js';
import { createClaudeCodeSessionAdapter } from './claude-code-session/claude-code-session-execution-adapter.js';
import { createCodexAppServerAdapter } from './codex-app-server/codex-app-server-execution-adapter.js';

const fixture = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const ACP_AGENT = fixture('./acp/__fixtures__/fake-acp-agent.mjs');
const CODEX = fixture('./codex-app-server/__fixtures__/fake-codex-app-server.mjs');
const CLAUDE = fixture('./claude-code-session/__fixtures__/fake-claude-session.mjs');

/** A value the engines get as `FAKE_API_KEY`; it does not look like an `sk-` key, so only the environment rule can catch it. */
const SECRET = 'canary-S3cr3t-0a1b2c3d4e5f';

interface Engine {
  name: string;
  /** The adapter, with `env` added to the engine's environment; `log` is where the fixture logs. */
  create(dir: string, log: string, env: Record<string, string>): ExecutionAdapter & { dispose(): Promise<void> };
}

const engines: Engine[] = [
  {
    name: 'ACP',
    create: (dir, log, env) =>
      createAcpAdapter({ command: process.execPath, args: [ACP_AGENT], cwd: dir, env: { FAKE_ACP_LOG: log, ...env }, killGraceMs: 300 }),
  },
  {
    name: 'codex app-server',
    create: (dir, log, env) => createCodexAppServerAdapter({ command: CODEX, cwd: dir, env: { FIXTURE_LOG: log, ...env }, killGraceMs: 300 }),
  },
  {
    name: 'Claude Code session',
    create: (dir, log, env) => {
      const claude = join(dir, 'claude');
      writeFileSync(claude, `#!/bin/sh\nexec '${process.execPath}' '${CLAUDE}' "$@"\n`);
      chmodSync(claude, 0o755);
      return createClaudeCodeSessionAdapter({ command: claude, cwd: dir, env: { HOME: dir, FAKE_LOG: log, ...env }, inheritEnv: ['PATH'], killGraceMs: 300 });
    },
  },
];

const disposables: { dispose(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(disposables.splice(0).map((adapter) => adapter.dispose()));
  cleanupTempDirs();
});

function setup(engine: Engine, env: Record<string, string> = {}) {
  const dir = tempDir('harness-sessions-hostile-');
  const log = join(dir, 'log');
  const backend = engine.create(dir, log, env);
  disposables.push(backend);
  const trace = memoryTraceSink();
  const harness = createHarness({ backend, trace, limits: { maxElapsedMs: 30_000 } });
  const flooded = () =>
    existsSync(log)
      ? readFileSync(log, 'utf8')
          .split('\n')
          .flatMap((line) => (line.includes('"flooded"') ? [(JSON.parse(line) as { flooded: number }).flooded] : []))
      : [];
  return { harness, trace, flooded };
}

/** Every way the secret could show: whole, either half, or JSON-escaped — as text and inside JSON. */
function leaked(value: unknown): string[] {
  const text = JSON.stringify(value);
  const escaped = [...SECRET].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
  const forms = [SECRET, SECRET.slice(0, 13), SECRET.slice(13), escaped];
  return forms.filter((form) => text.includes(form) || text.includes(JSON.stringify(form).slice(1, -1)));
}

describe.each(engines)('$name: an engine that prints an environment secret to stderr and dies', (engine) => {
  const cases = (['startup', 'turn'] as const).flatMap((moment) => (['plain', 'escaped', 'split'] as const).map((form) => ({ moment, form })));

  it.each(cases)('at $moment, written $form: no error message, result, metadata or trace shows it', async ({ moment, form }) => {
    const { harness, trace } = setup(engine, { FAKE_API_KEY: SECRET, FAKE_STDERR_LEAK: moment, FAKE_LEAK_FORM: form });
    const result = await harness.runTurn(turnInput('hello', { sessionId: 'hostile' }));
    expect(result.outcome).toBe('failed');
    const message = String(result.metadata?.error?.message);
    // The stderr line is reported (so the redaction, not a missing tail, is what hides the key).
    expect(message).toMatch(/auth failed for key \[REDACTED\]/);
    expect(leaked(message)).toEqual([]);
    expect(leaked(result)).toEqual([]);
    expect(leaked(trace.events)).toEqual([]);
  });

  it('blanks a value configured in `env` under a name that does not look secret', async () => {
    const { harness, trace } = setup(engine, { SERVICE_LOGIN: SECRET, FAKE_LEAK_VAR: 'SERVICE_LOGIN', FAKE_STDERR_LEAK: 'turn' });
    const result = await harness.runTurn(turnInput('hello', { sessionId: 'hostile' }));
    expect(String(result.metadata?.error?.message)).toMatch(/auth failed for key \[REDACTED\]/);
    expect(leaked(result)).toEqual([]);
    expect(leaked(trace.events)).toEqual([]);
  });
});

describe.each(engines)('$name: an engine that streams far more answer text than the cap', (engine) => {
  it('ends the turn with the first MAX_ANSWER_CHARS characters, marked truncated, and streams no more than that', async () => {
    const { harness, flooded } = setup(engine);
    const chunks = 3 * (MAX_ANSWER_CHARS / 65_536) + 8; // 200 chunks of 64 Ki characters: ~3.1 × the cap
    const stream = harness.streamTurn(turnInput(`FLOOD[${chunks}]`, { sessionId: 'flood' }));
    let streamed = 0;
    for await (const event of stream as AsyncIterable<HarnessStreamEvent>) if (event.type === 'text_delta') streamed += event.text.length;
    const result = await stream.result;

    expect(flooded()).toEqual([chunks]); // the engine sent everything, and the turn still ended
    expect(result.outcome).toBe('completed');
    const text = result.assistantMessage?.text ?? '';
    expect(text.length).toBe(MAX_ANSWER_CHARS);
    expect(text).toBe(Array.from({ length: MAX_ANSWER_CHARS / 65_536 }, (_, index) => String(index % 10).repeat(65_536)).join(''));
    expect(streamed).toBe(MAX_ANSWER_CHARS);
    expect(result.metadata?.backendMetadata).toMatchObject({ answerTruncated: true });
  });
});
