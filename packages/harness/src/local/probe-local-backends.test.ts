// probeLocalBackends / requireLocalBackend against fake CLIs on a private PATH.
import { readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HarnessConfigError } from '../core/errors/harness-config-error.js';
import { cleanupTempDirs, crushInstalledWithoutScripts, fixtureExecutable, tempDir } from './__fixtures__/test-helpers.js';
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
  fixtureExecutable(bin, 'crush', 'fake-crush.mjs');
  fixtureExecutable(bin, 'goose', 'fake-goose.mjs');
  fixtureExecutable(bin, 'cursor-agent', 'fake-cursor.mjs');
  return { bin, env: { PATH: `${bin}:${dirname(process.execPath)}` } };
}


describe('probeLocalBackends', () => {
  it('finds every CLI on PATH and reads its version', async () => {
    const { bin, env } = fakeBin();
    const probes = await probeLocalBackends(undefined, { env });
    expect(probes).toEqual([
      { id: 'claude-code', probe: 'command', available: true, command: 'claude', resolvedPath: join(bin, 'claude'), version: '2.1.332' },
      { id: 'codex', probe: 'command', available: true, command: 'codex', resolvedPath: join(bin, 'codex'), version: '0.171.0' },
      { id: 'gemini-cli', probe: 'command', available: true, command: 'gemini', resolvedPath: join(bin, 'gemini'), version: '0.61.0' },
      { id: 'opencode', probe: 'command', available: true, command: 'opencode', resolvedPath: join(bin, 'opencode'), version: '1.18.33' },
      // pi prints its version on stderr; Copilot ends it with a period.
      { id: 'pi', probe: 'command', available: true, command: 'pi', resolvedPath: join(bin, 'pi'), version: '0.73.1' },
      { id: 'copilot', probe: 'command', available: true, command: 'copilot', resolvedPath: join(bin, 'copilot'), version: '1.0.102' },
      { id: 'crush', probe: 'command', available: true, command: 'crush', resolvedPath: join(bin, 'crush'), version: '0.96.1' },
      { id: 'goose', probe: 'command', available: true, command: 'goose', resolvedPath: join(bin, 'goose'), version: '1.50.0' },
      { id: 'cursor', probe: 'command', available: true, command: 'cursor-agent', resolvedPath: join(bin, 'cursor-agent'), version: '2026.08.11-e8db854' },
    ]);
  });

  it('reports a missing CLI with the install command and the override option', async () => {
    const [probe] = await probeLocalBackends(['codex'], { env: { PATH: tempDir() } });
    expect(probe).toEqual({
      id: 'codex',
      probe: 'command',
      available: false,
      command: 'codex',
      error:
        "Codex CLI is not available: `codex` was not found on PATH. Install it with `npm install -g @openai/codex`, or pass its path in `commands['codex']` (or the adapter's `command` option).",
    });
  });

  it('names the command tried and how to override it for each engine that is not installed (backend_unavailable)', async () => {
    const probes = await probeLocalBackends(['crush', 'goose', 'cursor'], { env: { PATH: tempDir() } });
    expect(probes.map((probe) => probe.error)).toEqual([
      "crush is not available: `crush` was not found on PATH. Install it with `npm install -g @charmland/crush`, or pass its path in `commands['crush']` (or the adapter's `command` option).",
      "goose is not available: `goose` was not found on PATH. Install it with `curl -fsSL https://github.com/block/goose/releases/download/stable/download_cli.sh | bash`, or pass its path in `commands['goose']` (or the adapter's `command` option).",
      "Cursor CLI is not available: `cursor-agent` was not found on PATH. Install it with `curl https://cursor.com/install -fsS | bash`, or pass its path in `commands['cursor']` (or the adapter's `command` option).",
    ]);
    const error = await requireLocalBackend('cursor', { env: { PATH: tempDir() }, advice: 'cli' }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'HARNESS_ERR_BACKEND_UNAVAILABLE', backendId: 'cursor', command: 'cursor-agent' });
    expect((error as Error).message).toMatch(/`cursor-agent` was not found on PATH\. .*or pass its path with `--command cursor=PATH`\.$/);
  });

  it("detects crush's npm launcher whose binary is missing, names the binary, and never runs the launcher", async () => {
    const crush = crushInstalledWithoutScripts();
    const cwd = tempDir('crush-cwd-');
    const [probe] = await probeLocalBackends(['crush'], { env: { PATH: `${crush.bin}:${dirname(process.execPath)}` }, cwd });
    expect(probe).toEqual({
      id: 'crush',
      probe: 'command',
      available: false,
      command: 'crush',
      resolvedPath: join(crush.bin, 'crush'),
      launcher: join(crush.pkg, 'run-crush.js'),
      error:
        `crush is not available: \`crush\` is npm's launcher ${join(crush.pkg, 'run-crush.js')}, and the binary it runs, ${join(crush.pkg, 'bin', 'crush')}, is missing ` +
        "(the package's install script downloads it and failed or did not run). Put the binary there, or anywhere and pass its path in `commands['crush']` (or the adapter's `command` option).",
    });
    expect(readdirSync(cwd)).toEqual([]);
  });

  it("looks through crush's npm launcher to the binary when it is there, and reports that binary as the one to run", async () => {
    const crush = crushInstalledWithoutScripts();
    crush.addBinary();
    const [probe] = await probeLocalBackends(['crush'], { env: { PATH: `${crush.bin}:${dirname(process.execPath)}` } });
    expect(probe).toEqual({
      id: 'crush',
      probe: 'command',
      available: true,
      command: 'crush',
      resolvedPath: join(crush.pkg, 'bin', 'crush'),
      launcher: join(crush.pkg, 'run-crush.js'),
      version: '0.96.1',
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
    const error = await probeLocalBackends(['claude-code', 'aider']).catch((caught: unknown) => caught);
    expect(UnknownBackendError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'HARNESS_ERR_UNKNOWN_BACKEND',
      backendId: 'aider',
      message:
        'Unknown local backend "aider". Known backends: claude-code, codex, gemini-cli, opencode, pi, copilot, crush, goose, cursor.',
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
