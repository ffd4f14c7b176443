// A credentialed proxy in the parent's environment must not reach a child CLI through the default
// allow-list: the real child process sees the proxy without its user:password@ part.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  cleanupTempDirs,
  executionRequest,
  fixture,
  fixtureExecutable,
  loggedCalls,
  PLAIN_CAPABILITIES,
  tempDir,
} from './__fixtures__/test-helpers.js';
import { createClaudeCodeAdapter } from './claude-code-adapter.js';
import { LocalCommandExecutionAdapter } from './local-command-adapter.js';
import type { LocalCommandAdapterConfig } from './local-command-options.js';

const SECRET = 'pr0xy-s3cret';
const PROXIES = {
  HTTPS_PROXY: `http://alice:${SECRET}@proxy.corp.test:3128`,
  HTTP_PROXY: `http://alice:${SECRET}@proxy.corp.test:3128`,
  https_proxy: `http://alice:${SECRET}@proxy.corp.test:3128/`,
  http_proxy: `alice:${SECRET}@proxy.corp.test:3128`,
  ALL_PROXY: `socks5h://alice:${SECRET}@proxy.corp.test:1080`,
};
const saved = new Map<string, string | undefined>();

beforeEach(() => {
  for (const [name, value] of Object.entries(PROXIES)) {
    saved.set(name, process.env[name]);
    process.env[name] = value;
  }
});

afterEach(() => {
  for (const [name, value] of saved) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  saved.clear();
  cleanupTempDirs();
});

/** Runs the echo fixture and returns the environment the child process saw. */
async function childEnvironment(extra: Partial<LocalCommandAdapterConfig> = {}): Promise<Record<string, string>> {
  let env: Record<string, string> = {};
  const adapter = new LocalCommandExecutionAdapter({
    backendId: 'fixture',
    command: process.execPath,
    capabilities: PLAIN_CAPABILITIES,
    buildArgs: () => [fixture('misbehave.mjs'), 'echo'],
    parseOutput: (stdout) => {
      env = (JSON.parse(stdout) as { env: Record<string, string> }).env;
      return { text: 'ok' };
    },
    ...extra,
  });
  const result = await adapter.execute(executionRequest('hi'));
  expect(result.status).toBe('completed');
  return env;
}

describe('LocalCommand — proxy credentials', () => {
  it('passes the default-listed proxies without their credentials', async () => {
    const env = await childEnvironment();
    expect(env['HTTPS_PROXY']).toBe('http://proxy.corp.test:3128');
    expect(env['HTTP_PROXY']).toBe('http://proxy.corp.test:3128');
    expect(env['https_proxy']).toBe('http://proxy.corp.test:3128/');
    expect(env['http_proxy']).toBe('proxy.corp.test:3128');
    // ALL_PROXY is not in the default list at all.
    expect(env['ALL_PROXY']).toBeUndefined();
    expect(JSON.stringify(env)).not.toContain(SECRET);
  });

  it('strips them from a proxy the caller allow-lists, too', async () => {
    const env = await childEnvironment({ inheritEnv: ['PATH', 'ALL_PROXY'] });
    expect(env['ALL_PROXY']).toBe('socks5h://proxy.corp.test:1080');
    expect(JSON.stringify(env)).not.toContain(SECRET);
  });

  it('keeps a credentialed proxy passed explicitly in `env`', async () => {
    const env = await childEnvironment({ env: { HTTPS_PROXY: PROXIES.HTTPS_PROXY } });
    expect(env['HTTPS_PROXY']).toBe(PROXIES.HTTPS_PROXY);
  });

  it('strips them for the CLI presets as well (a real fake claude)', async () => {
    const home = tempDir();
    const log = join(home, 'calls.jsonl');
    const claude = fixtureExecutable(home, 'claude', 'fake-claude.mjs');
    const result = await createClaudeCodeAdapter({ command: claude, env: { HOME: home, FAKE_CLI_LOG: log } }).execute(executionRequest('hi'));
    expect(result.status).toBe('completed');
    const [call] = loggedCalls(log);
    expect(call?.env['HTTPS_PROXY']).toBe('http://proxy.corp.test:3128');
    expect(JSON.stringify(call)).not.toContain(SECRET);
  });
});
