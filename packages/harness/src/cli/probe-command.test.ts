// `agent-assistant probe` in this process: its hints name the flags a user of the CLI can pass,
// never the options of the probe functions.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupTempDirs, fixtureExecutable, tempDir } from '../local/__fixtures__/test-helpers.js';
import { cliEnv, runCliInProcess } from './__fixtures__/cli-process.js';

afterEach(cleanupTempDirs);

const ODD = '../../sessions/__fixtures__/handshake-answers.mjs';

function probe(args: string[]) {
  const home = tempDir('agent-assistant-probe-');
  return runCliInProcess(['probe', ...args], { cwd: home, env: cliEnv(home) });
}

describe('agent-assistant probe hints', () => {
  it('names --command for a missing local CLI and a missing session engine', async () => {
    const result = await probe(['--backend', 'codex', '--backend', 'gemini-acp', '--command', 'codex=/nonexistent/codex', '--command', 'gemini-acp=/nonexistent/gemini']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('codex: Codex CLI is not available: `/nonexistent/codex` was not found. Install it with `npm install -g @openai/codex`, or pass its path with `--command codex=PATH`.');
    expect(result.stdout).toMatch(/gemini-acp: .* is not available: `\/nonexistent\/gemini` was not found\. Install it with `.*`, or pass its path with `--command gemini-acp=PATH`\./);
    expect(result.stdout).not.toMatch(/commands\[|the adapter's|timeoutMs/);
  });

  it('names --timeout-ms for a session engine that does not answer in time', async () => {
    const dir = tempDir('engine-bin-');
    const claude = fixtureExecutable(dir, 'claude', ODD, ['hang', join(dir, 'pid')]);
    const result = await probe(['--backend', 'claude-code-session', '--command', `claude-code-session=${claude}`, '--timeout-ms', '300']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/claude-code-session: .* did not answer .* within 300 ms\. .*, or raise `--timeout-ms`\.$/m);
    expect(result.stdout).not.toMatch(/commands\[|the adapter's|timeoutMs/);
  });
});
