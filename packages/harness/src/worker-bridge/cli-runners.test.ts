// Each CLI runner runs its fake CLI (the local backends' fixtures) through the local process
// layer, with a caller's spawnFn, and resumes the session it reported.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildLocalPrompt } from '../local/build-local-prompt.js';
import { cleanupTempDirs, fixtureExecutable, loggedCalls, tempDir } from '../local/__fixtures__/test-helpers.js';
import { createBashCliRunner } from './bash-cli-runner.js';
import type { CliRunner } from './cli-runner.js';
import { createClaudeCliRunner, createCodexCliRunner, createGeminiCliRunner, createOpenCodeCliRunner } from './cli-runners.js';
import { fullRequest, watchedSpawn } from './__fixtures__/bridge-test-helpers.js';

afterEach(() => cleanupTempDirs());

const run = (runner: CliRunner, request = fullRequest('ping')) =>
  runner.run({ request, prompt: buildLocalPrompt(request), timeoutMs: 20_000, signal: new AbortController().signal });

const presets = [
  { id: 'claude', create: createClaudeCliRunner, fixture: 'fake-claude.mjs', backendId: 'claude-code' },
  { id: 'codex', create: createCodexCliRunner, fixture: 'fake-codex.mjs', backendId: 'codex' },
  { id: 'opencode', create: createOpenCodeCliRunner, fixture: 'fake-opencode.mjs', backendId: 'opencode' },
  { id: 'gemini', create: createGeminiCliRunner, fixture: 'fake-gemini.mjs', backendId: 'gemini-cli' },
] as const;

describe('CLI runners', () => {
  for (const preset of presets) {
    it(`${preset.id}: runs the CLI through spawnFn, reports usage and the session, and resumes it`, async () => {
      const home = tempDir();
      const log = `${home}/calls.jsonl`;
      const watch = watchedSpawn();
      const runner = preset.create({
        command: fixtureExecutable(home, preset.id, preset.fixture),
        env: { HOME: home, FAKE_CLI_LOG: log },
        inheritEnv: ['PATH'],
        spawnFn: watch.spawnFn,
      });
      expect(runner.id).toBe(preset.id);
      const first = await run(runner);
      expect(first).toMatchObject({ backendId: preset.backendId, status: 'completed', output: { text: 'PONG from fake (message 1)' } });
      expect(first.usage?.inputTokens).toBeGreaterThan(0);
      expect(first.continuation?.continuationId).toEqual(expect.any(String));
      const second = await run(runner, fullRequest('again', { continuation: first.continuation! }));
      expect(second).toMatchObject({ status: 'completed', output: { text: 'PONG from fake (message 2)' } });
      expect(watch.pids).toHaveLength(2);
      const [call] = loggedCalls(log);
      // The developer prompt reaches every CLI (as its system prompt for Claude Code, on stdin otherwise).
      expect(JSON.stringify(call)).toContain('DEVELOPER: answer in English.');
    });
  }

  it('passes the model to the CLI', async () => {
    const home = tempDir();
    const log = `${home}/calls.jsonl`;
    const runner = createClaudeCliRunner({ command: fixtureExecutable(home, 'claude', 'fake-claude.mjs'), env: { HOME: home, FAKE_CLI_LOG: log }, model: 'sonnet' });
    await run(runner);
    expect(loggedCalls(log)[0]?.argv).toContain('--model=sonnet');
  });

  it('bash: echoes the prompt by default, runs a script, and keeps the environment to the allow-list', async () => {
    process.env['R2_SECRET_FOR_TEST'] = 'should-not-leak';
    try {
      const echo = await run(createBashCliRunner(), fullRequest('MESSAGE'));
      expect(echo.output?.text).toBe(buildLocalPrompt(fullRequest('MESSAGE')));
      const env = await run(createBashCliRunner({ script: 'echo "${R2_SECRET_FOR_TEST:-unset} $GREETING"', env: { GREETING: 'hi' } }));
      expect(env).toMatchObject({ backendId: 'bash', status: 'completed', output: { text: 'unset hi' } });
    } finally {
      delete process.env['R2_SECRET_FOR_TEST'];
    }
  });

  it('bash: under the default orphan guard, exit codes and signals of the script come through', async () => {
    expect((await run(createBashCliRunner({ script: 'exit 7' }))).metadata).toMatchObject({ exitCode: 7 });
    const killed = await run(createBashCliRunner({ script: 'kill -SEGV $$' }));
    expect(killed).toMatchObject({ status: 'failed', error: { retryable: true } });
    expect(killed.error?.message).toContain('was killed by SIGSEGV');
    const usr1 = await run(createBashCliRunner({ script: 'kill -USR1 $$' }));
    expect(usr1).toMatchObject({ status: 'failed', metadata: { exitCode: 138 } });
  });

  it('bash: does not read the user\'s ~/.bashrc (bash would, with a socket on stdin)', async () => {
    const home = tempDir();
    writeFileSync(join(home, '.bashrc'), 'echo FROM_BASHRC\n');
    const result = await run(createBashCliRunner({ script: 'echo ok', env: { HOME: home } }));
    expect(result.output?.text).toBe('ok');
  });

  it('bash: a missing shell is a failed result naming the command', async () => {
    const result = await run(createBashCliRunner({ command: '/nonexistent/bash' }));
    expect(result).toMatchObject({ status: 'failed', error: { code: 'backend_execution_error', retryable: false } });
    expect(result.error?.message).toContain('/nonexistent/bash');
  });
});
