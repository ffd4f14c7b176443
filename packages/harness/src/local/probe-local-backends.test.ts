// probeLocalBackends / requireLocalBackend against fake CLIs on a private PATH.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HarnessConfigError } from '../core/errors/harness-config-error.js';
import { cleanupTempDirs, fixtureExecutable, tempDir } from './__fixtures__/test-helpers.js';
import { BackendUnavailableError } from './errors/backend-unavailable-error.js';
import { UnknownBackendError } from './errors/unknown-backend-error.js';
import { probeLocalBackends, requireLocalBackend } from './probe-local-backends.js';

afterEach(cleanupTempDirs);

/** A bin dir holding the fake CLIs, and an env whose PATH is that dir plus node's. */
function fakeBin() {
  const bin = tempDir('bin-');
  fixtureExecutable(bin, 'claude', 'fake-claude.mjs');
  fixtureExecutable(bin, 'codex', 'fake-codex.mjs');
  fixtureExecutable(bin, 'gemini', 'fake-gemini.mjs');
  fixtureExecutable(bin, 'opencode', 'fake-opencode.mjs');
  fixtureExecutable(bin, 'pi', 'fake-pi.mjs');
  fixtureExecutable(bin, 'copilot', 'fake-copilot.mjs');
  return { bin, env: { PATH: `${bin}:${dirname(process.execPath)}` } };
}

describe('probeLocalBackends', () => {
  it('finds every CLI on PATH and reads its version', async () => {
    const { bin, env } = fakeBin();
    const probes = await probeLocalBackends(undefined, { env });
    expect(probes).toEqual([
      { id: 'claude-code', available: true, command: 'claude', resolvedPath: join(bin, 'claude'), version: '2.1.332' },
      { id: 'codex', available: true, command: 'codex', resolvedPath: join(bin, 'codex'), version: '0.171.0' },
      { id: 'gemini-cli', available: true, command: 'gemini', resolvedPath: join(bin, 'gemini'), version: '0.61.0' },
      { id: 'opencode', available: true, command: 'opencode', resolvedPath: join(bin, 'opencode'), version: '1.18.33' },
      // pi prints its version on stderr; Copilot ends it with a period.
      { id: 'pi', available: true, command: 'pi', resolvedPath: join(bin, 'pi'), version: '0.73.1' },
      { id: 'copilot', available: true, command: 'copilot', resolvedPath: join(bin, 'copilot'), version: '1.0.102' },
    ]);
  });

  it('reports a missing CLI with the install command and the override option', async () => {
    const [probe] = await probeLocalBackends(['codex'], { env: { PATH: tempDir() } });
    expect(probe).toEqual({
      id: 'codex',
      available: false,
      command: 'codex',
      error:
        "Codex CLI is not available: `codex` was not found on PATH. Install it with `npm install -g @openai/codex`, or pass its path in `commands['codex']` (or the adapter's `command` option).",
    });
  });

  it('honours a per-backend command path, relative to cwd', async () => {
    const { bin } = fakeBin();
    const [probe] = await probeLocalBackends(['claude-code'], { commands: { 'claude-code': './claude' }, cwd: bin, env: { PATH: dirname(process.execPath) } });
    expect(probe).toMatchObject({ available: true, command: './claude', resolvedPath: join(bin, 'claude'), version: '2.1.332' });
  });

  it('reports a file that is not executable', async () => {
    const bin = tempDir();
    writeFileSync(join(bin, 'gemini'), 'not a program');
    const [probe] = await probeLocalBackends(['gemini-cli'], { env: { PATH: bin } });
    expect(probe?.available).toBe(false);
    expect(probe?.error).toMatch(/is not executable\. Fix its permissions \(chmod \+x\)/);
  });

  it('reports a CLI whose --version fails or hangs', async () => {
    const bin = tempDir();
    fixtureExecutable(bin, 'opencode', 'misbehave.mjs', ['exit', '3']);
    fixtureExecutable(bin, 'claude', 'misbehave.mjs', ['hang']);
    const env = { PATH: `${bin}:${dirname(process.execPath)}` };
    const [opencode, claude] = await probeLocalBackends(['opencode', 'claude-code'], { env, timeoutMs: 500 });
    expect(opencode).toMatchObject({ available: false, resolvedPath: join(bin, 'opencode') });
    expect(opencode?.error).toMatch(/failed `--version`: it exited with code 3: exiting with 3\. Reinstall it with `npm install -g opencode-ai`/);
    expect(claude?.error).toMatch(/did not answer within 500 ms/);
  });

  it('throws UnknownBackendError for an unknown id, before probing anything', async () => {
    const error = await probeLocalBackends(['claude-code', 'cursor']).catch((caught: unknown) => caught);
    expect(UnknownBackendError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'HARNESS_ERR_UNKNOWN_BACKEND',
      backendId: 'cursor',
      message: 'Unknown local backend "cursor". Known backends: claude-code, codex, gemini-cli, opencode, pi, copilot.',
    });
  });

  it('rejects bad options', async () => {
    await expect(probeLocalBackends(['codex'], { timeoutMs: 0 })).rejects.toBeInstanceOf(HarnessConfigError);
    await expect(probeLocalBackends('codex' as unknown as string[])).rejects.toBeInstanceOf(HarnessConfigError);
  });
});

describe('requireLocalBackend', () => {
  it('returns the probe of an available CLI', async () => {
    const { env } = fakeBin();
    expect(await requireLocalBackend('codex', { env })).toMatchObject({ id: 'codex', available: true, version: '0.171.0' });
  });

  it('throws BackendUnavailableError with an actionable message', async () => {
    const error = await requireLocalBackend('claude-code', { env: { PATH: tempDir() } }).catch((caught: unknown) => caught);
    expect(BackendUnavailableError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'HARNESS_ERR_BACKEND_UNAVAILABLE', backendId: 'claude-code', command: 'claude' });
    expect((error as Error).message).toMatch(/npm install -g @anthropic-ai\/claude-code/);
  });

  it('throws UnknownBackendError for an unknown id', async () => {
    await expect(requireLocalBackend('nope')).rejects.toMatchObject({ code: 'HARNESS_ERR_UNKNOWN_BACKEND' });
  });
});
