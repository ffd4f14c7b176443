// `agent-assistant secret init` and the key file it writes, in process through `runCliMain`, on
// the real file system of a temporary HOME: where it goes, its modes, never printing the key,
// no overwrite without --force, and the refusal of a key file others may read.
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../local/__fixtures__/test-helpers.js';
import { cliEnv, runCliInProcess } from './__fixtures__/cli-process.js';
import { readContinuationSecret } from './internal/continuation-secret.js';
import { secretKeyPath } from './internal/secret-key-file.js';

afterEach(cleanupTempDirs);

const posix = process.platform !== 'win32';
const KEY_LINE = /^[A-Za-z0-9_-]{43}\n$/;

function user() {
  const home = tempDir('agent-assistant-secret-');
  return { home, env: cliEnv(home), keyFile: join(home, '.config', 'agent-assistant', 'continuation-secret') };
}

describe('agent-assistant secret init', () => {
  it('writes 32 random bytes (base64url) to ~/.config/agent-assistant, 0600 in a 0700 folder, and prints the path, never the key', async () => {
    const { home, env, keyFile } = user();
    const result = await runCliInProcess(['secret', 'init'], { cwd: home, env });
    expect(result.code, result.stderr).toBe(0);
    const key = readFileSync(keyFile, 'utf8');
    expect(key).toMatch(KEY_LINE);
    expect(Buffer.from(key.trim(), 'base64url')).toHaveLength(32);
    expect(result.stdout).toContain(`Wrote a new continuation key to ${keyFile} (mode 0600).`);
    expect(result.stdout + result.stderr).not.toContain(key.trim());
    if (posix) {
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      expect(statSync(join(home, '.config', 'agent-assistant')).mode & 0o777).toBe(0o700);
    }
    expect(await readContinuationSecret(env, true)).toBe(key.trim());
  });

  it('refuses to replace an existing key without --force (exit 2); --force writes a new one', async () => {
    const { home, env, keyFile } = user();
    expect((await runCliInProcess(['secret', 'init'], { cwd: home, env })).code).toBe(0);
    const first = readFileSync(keyFile, 'utf8');
    const again = await runCliInProcess(['secret', 'init'], { cwd: home, env });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`${JSON.stringify(keyFile)} already exists. Pass --force to replace it`);
    expect(readFileSync(keyFile, 'utf8')).toBe(first);
    const forced = await runCliInProcess(['secret', 'init', '--force'], { cwd: home, env });
    expect(forced.code, forced.stderr).toBe(0);
    const second = readFileSync(keyFile, 'utf8');
    expect(second).toMatch(KEY_LINE);
    expect(second).not.toBe(first);
    if (posix) expect(statSync(keyFile).mode & 0o777).toBe(0o600);
  });

  it('usage: no subcommand exits 2, an unknown one or flag is a usage error', async () => {
    const { home, env } = user();
    expect((await runCliInProcess(['secret'], { cwd: home, env })).code).toBe(2);
    expect((await runCliInProcess(['secret', 'show'], { cwd: home, env })).stderr).toContain('the one secret command is `secret init`');
    const typo = await runCliInProcess(['secret', 'init', '--forse'], { cwd: home, env });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('Did you mean --force?');
  });
});

describe('the continuation key file', () => {
  it('is $XDG_CONFIG_HOME/agent-assistant when that is absolute, %APPDATA%\\agent-assistant on Windows', () => {
    expect(secretKeyPath({ HOME: '/home/a', XDG_CONFIG_HOME: '/xdg' }, 'linux')).toBe('/xdg/agent-assistant/continuation-secret');
    expect(secretKeyPath({ HOME: '/home/a', XDG_CONFIG_HOME: 'relative' }, 'linux')).toBe('/home/a/.config/agent-assistant/continuation-secret');
    expect(secretKeyPath({ HOME: '/home/a' }, 'darwin')).toBe('/home/a/.config/agent-assistant/continuation-secret');
    expect(secretKeyPath({ APPDATA: 'C:\\Users\\a\\AppData\\Roaming' }, 'win32')).toBe('C:\\Users\\a\\AppData\\Roaming\\agent-assistant\\continuation-secret');
  });

  it('the variable wins over the file; the file is read only when a secret is needed', async () => {
    const { home, env } = user();
    await runCliInProcess(['secret', 'init'], { cwd: home, env });
    const variable = 'from-the-environment-0123456789';
    expect(await readContinuationSecret({ ...env, AGENT_ASSISTANT_CONTINUATION_SECRET: variable }, true)).toBe(variable);
    expect(await readContinuationSecret(env, false)).toBeUndefined();
  });

  it.runIf(posix)('is refused when group or others may read or write it (like ssh), naming chmod 600', async () => {
    const { home, env, keyFile } = user();
    await runCliInProcess(['secret', 'init'], { cwd: home, env });
    for (const mode of [0o640, 0o604, 0o620]) {
      chmodSync(keyFile, mode);
      const result = await runCliInProcess(['resume', '--continuation', join(home, 'none.json'), '--approve', 'x'], { cwd: home, env });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`may be read or changed by other users (mode 0${mode.toString(8)}), so it is not used. Run \`chmod 600 ${JSON.stringify(keyFile)}\``);
    }
  });

  it.each([
    ['a short key', 'short\n', /holds no key of at least 16 characters/],
    ['a folder', undefined, /is not a regular file \(it is a directory\)/],
    ['a large file', 'k'.repeat(5000), /is not a key \(over 1024 bytes\)/],
  ])('refuses %s, saying how to write a new one', async (_, content, message) => {
    const { home, env, keyFile } = user();
    mkdirSync(join(home, '.config', 'agent-assistant'), { recursive: true, mode: 0o700 });
    if (content === undefined) mkdirSync(keyFile);
    else writeFileSync(keyFile, content, { mode: 0o600 });
    await expect(readContinuationSecret(env, true)).rejects.toThrow(message);
    await expect(readContinuationSecret(env, true)).rejects.toThrow('agent-assistant secret init --force');
  });
});
