import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, win32 } from 'node:path';
import process from 'node:process';
import { readRegularFile } from '../../shared/read-regular-file.js';
import { syncDirectory, writeFileAtomic, writeNewFileSynced } from '../../shared/write-file-atomic.js';
import { usageError } from './cli-usage-error.js';

/** The environment variable holding the continuation secret. */
export const CONTINUATION_SECRET_ENV = 'AGENT_ASSISTANT_CONTINUATION_SECRET';

/** The shortest secret accepted, in characters. */
export const MIN_SECRET_CHARS = 16;

/** The key file is a line of base64url; anything longer than this is not one. */
const MAX_KEY_FILE_BYTES = 1024;

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Where `agent-assistant secret init` writes the continuation key, and where it is read from:
 * `%APPDATA%\agent-assistant\continuation-secret` on Windows;
 * `$XDG_CONFIG_HOME/agent-assistant/continuation-secret` elsewhere (an absolute
 * `XDG_CONFIG_HOME` only, as the XDG spec says), else `~/.config/agent-assistant/continuation-secret`.
 */
export function secretKeyPath(env: Env, platform: string = process.platform): string {
  const given = (name: string) => {
    const value = env[name];
    return value === undefined || value === '' ? undefined : value;
  };
  const home = given('HOME') ?? homedir();
  if (platform === 'win32') {
    return win32.join(given('APPDATA') ?? win32.join(given('USERPROFILE') ?? home, 'AppData', 'Roaming'), 'agent-assistant', 'continuation-secret');
  }
  const xdg = given('XDG_CONFIG_HOME');
  return join(xdg !== undefined && isAbsolute(xdg) ? xdg : join(home, '.config'), 'agent-assistant', 'continuation-secret');
}

const errorCode = (error: unknown): unknown => (error as { code?: unknown } | null)?.code;

/**
 * Writes a new random key (32 bytes, base64url) to `path`, mode 0600, creating its folder with
 * mode 0700; flushed to disk before it resolves. An existing file is replaced only with `force`.
 * @throws HarnessConfigError (usage) when the file exists and `force` is not set.
 */
export async function writeSecretKeyFile(path: string, force: boolean): Promise<void> {
  const key = `${randomBytes(32).toString('base64url')}\n`;
  const directory = dirname(path);
  await fs.mkdir(directory, { recursive: true, mode: 0o700 });
  if (force) {
    await writeFileAtomic(fs, path, directory, key, 0o600);
    return;
  }
  try {
    await writeNewFileSynced(fs, path, key, 0o600);
  } catch (error) {
    if (errorCode(error) === 'EEXIST') {
      throw usageError(
        `${JSON.stringify(path)} already exists. Pass --force to replace it with a new key: continuations signed with the old one can then no longer be resumed.`,
        'force',
      );
    }
    // Created by this call (exclusively), so it holds no one else's key.
    await fs.rm(path, { force: true }).catch(() => undefined);
    throw error;
  }
  await syncDirectory(fs, directory);
}

/**
 * The key in the file at `path`, or `undefined` when there is none. Like ssh with a private key,
 * a file that group or others may read or write is refused (POSIX only).
 * @throws HarnessConfigError (usage) for a file that is open to others, not a regular file, or not a key.
 */
export async function readSecretKeyFile(path: string, platform: string = process.platform): Promise<string | undefined> {
  const named = `The continuation key file ${JSON.stringify(path)}`;
  const renew = 'Run `agent-assistant secret init --force` to write a new one.';
  const read = await readRegularFile(fs, path, MAX_KEY_FILE_BYTES).catch((error: unknown) => {
    throw usageError(`${named} cannot be read (${String(errorCode(error) ?? 'error')}). ${renew}`, 'continuationSecret');
  });
  switch (read.type) {
    case 'missing':
      return undefined;
    case 'not_regular':
      throw usageError(`${named} is not a regular file (it is ${read.kind}). ${renew}`, 'continuationSecret');
    case 'too_large':
      throw usageError(`${named} is not a key (over ${MAX_KEY_FILE_BYTES} bytes). ${renew}`, 'continuationSecret');
    case 'read':
      break;
  }
  if (platform !== 'win32' && read.mode !== undefined && (read.mode & 0o077) !== 0) {
    throw usageError(
      `${named} may be read or changed by other users (mode ${(read.mode & 0o777).toString(8).padStart(4, '0')}), so it is not used. Run \`chmod 600 ${JSON.stringify(path)}\`, or \`agent-assistant secret init --force\` for a new key.`,
      'continuationSecret',
    );
  }
  const key = new TextDecoder().decode(read.bytes).trim();
  if (key.length < MIN_SECRET_CHARS) throw usageError(`${named} holds no key of at least ${MIN_SECRET_CHARS} characters. ${renew}`, 'continuationSecret');
  return key;
}
