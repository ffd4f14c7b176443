// probeEngineSessions against fixture engines (the session fixtures of the adapters, and odd
// handshake answers) on a private PATH.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HarnessConfigError } from '../core/errors/harness-config-error.js';
import { cleanupTempDirs, fixtureExecutable, tempDir } from '../local/__fixtures__/test-helpers.js';
import { UnknownBackendError } from '../local/errors/unknown-backend-error.js';
import { ENGINE_SESSION_IDS, probeEngineSessions } from './probe-engine-sessions.js';

afterEach(cleanupTempDirs);

const nodeDir = dirname(process.execPath);
const ACP_AGENT = '../../sessions/acp/__fixtures__/fake-acp-agent.mjs';
const CODEX_SERVER = '../../sessions/codex-app-server/__fixtures__/fake-codex-app-server.mjs';
const CLAUDE_SESSION = '../../sessions/claude-code-session/__fixtures__/fake-claude-session.mjs';
const ODD = '../../sessions/__fixtures__/handshake-answers.mjs';
const OMP = '../../sessions/omp-rpc/__fixtures__/fake-omp.mjs';
const HERMES = '../../sessions/acp/__fixtures__/fake-hermes.mjs';

/** A bin dir with one executable per engine name, each running `script` (with args). */
function bin(engines: Partial<Record<'gemini' | 'opencode' | 'qwen' | 'copilot' | 'hermes' | 'codex' | 'claude' | 'omp', [string, ...string[]]>>) {
  const dir = tempDir('engine-bin-');
  for (const [name, [script, ...args]] of Object.entries(engines)) fixtureExecutable(dir, name, script, args);
  return { dir, env: { PATH: `${dir}:${nodeDir}` } };
}

function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

describe('probeEngineSessions', () => {
  it('performs each protocol handshake and reports what the engines answered', async () => {
    const { dir, env } = bin({
      gemini: [ACP_AGENT],
      opencode: [ACP_AGENT],
      qwen: [ACP_AGENT],
      copilot: [ACP_AGENT],
      hermes: [HERMES],
      codex: [CODEX_SERVER],
      claude: [CLAUDE_SESSION],
      omp: [OMP],
    });
    const probes = await probeEngineSessions(
      ENGINE_SESSION_IDS.filter((id) => id !== 'claude-agent-sdk'),
      { env },
    );
    expect(probes.map((probe) => probe.probe)).toEqual(probes.map(() => 'command'));
    expect(probes.map(({ handshakeMs, probe: _kind, ...probe }) => (expect(handshakeMs).toBeGreaterThanOrEqual(0), probe))).toEqual([
      {
        id: 'gemini-acp',
        protocol: 'acp',
        available: true,
        command: 'gemini',
        resolvedPath: join(dir, 'gemini'),
        handshake: 'answered',
        engineName: 'fake-acp',
        version: '0.0.1',
        protocolVersion: 1,
        capabilities: ['loadSession'],
      },
      {
        id: 'opencode-acp',
        protocol: 'acp',
        available: true,
        command: 'opencode',
        resolvedPath: join(dir, 'opencode'),
        handshake: 'answered',
        engineName: 'fake-acp',
        version: '0.0.1',
        protocolVersion: 1,
        capabilities: ['loadSession'],
      },
      {
        id: 'qwen-acp',
        protocol: 'acp',
        available: true,
        command: 'qwen',
        resolvedPath: join(dir, 'qwen'),
        handshake: 'answered',
        engineName: 'fake-acp',
        version: '0.0.1',
        protocolVersion: 1,
        capabilities: ['loadSession'],
      },
      {
        id: 'copilot-acp',
        protocol: 'acp',
        available: true,
        command: 'copilot',
        resolvedPath: join(dir, 'copilot'),
        handshake: 'answered',
        engineName: 'fake-acp',
        version: '0.0.1',
        protocolVersion: 1,
        capabilities: ['loadSession'],
      },
      {
        id: 'hermes-acp',
        protocol: 'acp',
        available: true,
        command: 'hermes',
        resolvedPath: join(dir, 'hermes'),
        handshake: 'answered',
        engineName: 'hermes-agent',
        version: '0.19.0',
        protocolVersion: 1,
        capabilities: ['loadSession', 'promptCapabilities.image', 'sessionCapabilities.fork', 'sessionCapabilities.list', 'sessionCapabilities.resume'],
      },
      {
        id: 'codex-app-server',
        protocol: 'codex-app-server',
        available: true,
        command: 'codex',
        resolvedPath: join(dir, 'codex'),
        handshake: 'answered',
        version: '0.171.0',
        capabilities: [],
      },
      {
        id: 'claude-code-session',
        protocol: 'claude-stream-json',
        available: true,
        command: 'claude',
        resolvedPath: join(dir, 'claude'),
        handshake: 'answered',
        version: '2.1.332',
        capabilities: [],
      },
      {
        id: 'omp-rpc',
        protocol: 'omp-rpc',
        available: true,
        command: 'omp',
        resolvedPath: join(dir, 'omp'),
        handshake: 'answered',
        engineName: 'omp',
        capabilities: [],
      },
    ]);
  });

  it('probes the in-process engine by loading its package (not installed here), nothing spawned', async () => {
    const [probe] = await probeEngineSessions(['claude-agent-sdk']);
    expect(probe).toEqual({
      id: 'claude-agent-sdk',
      protocol: 'claude-stream-json',
      probe: 'in-process',
      available: false,
      command: '@anthropic-ai/claude-agent-sdk',
      handshake: 'not_run',
      error: expect.stringMatching(/^Claude \(Agent SDK\) is not available: .*npm install @anthropic-ai\/claude-agent-sdk/),
    });
  });

  it('flattens ACP capabilities to the names of what is on, skipping hostile names', async () => {
    const { env } = bin({ gemini: [ODD, 'acp-rich'] });
    const [probe] = await probeEngineSessions(['gemini-acp'], { env });
    expect(probe).toMatchObject({ available: true, engineName: 'rich-agent', version: '1.2.3-beta.1', protocolVersion: 1 });
    expect(probe?.capabilities).toEqual([
      'loadSession',
      'promptCapabilities.image',
      'promptCapabilities.embeddedContext',
      'sessionCapabilities.close',
      'sessionCapabilities.list',
      '__proto__',
    ]);
  });

  it("reads Claude Code's answer among other lines, keeping only plain capability names", async () => {
    const { env } = bin({ claude: [ODD, 'claude-rich'] });
    const [probe] = await probeEngineSessions(['claude-code-session'], { env });
    expect(probe).toMatchObject({ available: true, handshake: 'answered', version: '9.9.9', capabilities: ['ui_surface_v1', 'get_usage_detached_v1'] });
  });

  it('answers requests of the engine with "method not found" while waiting', async () => {
    const { env } = bin({ opencode: [ODD, 'acp-asks'] });
    const [probe] = await probeEngineSessions(['opencode-acp'], { env, timeoutMs: 10_000 });
    expect(probe).toMatchObject({ available: true, engineName: 'asking-agent', version: '0.1.0' });
  });

  it('reports an engine speaking another ACP protocol version as answered but not available', async () => {
    const { env } = bin({ gemini: [ODD, 'acp-v2'] });
    const [probe] = await probeEngineSessions(['gemini-acp'], { env });
    expect(probe).toMatchObject({ available: false, handshake: 'answered', protocolVersion: 2, version: '5.0.0' });
    expect(probe?.error).toMatch(/speaks ACP protocol version 2; this package speaks version 1\. Install a version that speaks ACP 1 with `npm install -g @google\/gemini-cli`/);
  });

  it('reports a handshake answered with an error, or with something else', async () => {
    const { env } = bin({ codex: [ODD, 'error'], gemini: [ODD, 'malformed'], claude: [ODD, 'claude-error'] });
    const [codex, gemini, claude] = await probeEngineSessions(['codex-app-server', 'gemini-acp', 'claude-code-session'], { env });
    expect(codex).toMatchObject({ available: false, handshake: 'failed' });
    expect(codex?.error).toMatch(/answered the app-server `initialize` request with an error: not logged in: run `engine login`\. Run `codex app-server` by hand/);
    expect(gemini?.error).toMatch(/answered the ACP `initialize` request with something that is not its answer\. Update it with `npm install -g @google\/gemini-cli`/);
    expect(claude?.error).toMatch(/answered the stream-json `control_request` initialize with an error: initialize is not supported/);
  });

  it('reports an engine that exits first, with its last stderr line and no secret', async () => {
    const { env } = bin({ codex: [ODD, 'exit'] });
    const [probe] = await probeEngineSessions(['codex-app-server'], { env: { ...env, OPENAI_API_KEY: 'sk-probe-secret-123456' } });
    expect(probe).toMatchObject({ available: false, handshake: 'failed' });
    expect(probe?.error).toMatch(/exited with code 3 before answering the app-server `initialize` request\. Its last stderr line: fatal: key \[REDACTED\] rejected; run setup first/);
    expect(probe?.error).not.toContain('sk-probe-secret');
  });

  it('gives up on an engine that never answers and leaves no process behind', async () => {
    const pidFile = join(tempDir(), 'pid');
    const { env } = bin({ claude: [ODD, 'hang', pidFile] });
    const [probe] = await probeEngineSessions(['claude-code-session'], { env, timeoutMs: 300 });
    expect(probe).toMatchObject({ available: false, handshake: 'failed' });
    expect(probe?.error).toMatch(/did not answer the stream-json `control_request` initialize within 300 ms\. Run `claude -p .*` by hand .* or raise `timeoutMs`/);
    expect(processGone(Number(readFileSync(pidFile, 'utf8')))).toBe(true);
  });

  it('reports a missing engine with the install command and the override option', async () => {
    const [probe] = await probeEngineSessions(['opencode-acp'], { env: { PATH: tempDir() } });
    expect(probe).toEqual({
      id: 'opencode-acp',
      protocol: 'acp',
      probe: 'command',
      available: false,
      command: 'opencode',
      handshake: 'not_run',
      error:
        "opencode (ACP) is not available: `opencode` was not found on PATH. Install it with `npm install -g opencode-ai`, or pass its path in `commands['opencode-acp']` (or the adapter's `command` option).",
    });
  });

  it('honours a command override, relative to cwd', async () => {
    const { dir } = bin({ codex: [CODEX_SERVER] });
    const [probe] = await probeEngineSessions(['codex-app-server'], { commands: { 'codex-app-server': './codex' }, cwd: dir, env: { PATH: nodeDir } });
    expect(probe).toMatchObject({ available: true, command: './codex', resolvedPath: join(dir, 'codex'), version: '0.171.0' });
  });

  it('throws for an unknown id or a bad timeout, before probing anything', async () => {
    const unknown = await probeEngineSessions(['codex-app-server', '__proto__']).catch((caught: unknown) => caught);
    expect(UnknownBackendError.isInstance(unknown)).toBe(true);
    expect(unknown).toMatchObject({ backendId: '__proto__', knownBackendIds: ['gemini-acp', 'opencode-acp', 'qwen-acp', 'copilot-acp', 'hermes-acp', 'codex-app-server', 'claude-code-session', 'omp-rpc', 'claude-agent-sdk'] });
    const timeout = await probeEngineSessions([], { timeoutMs: 0 }).catch((caught: unknown) => caught);
    expect(timeout).toBeInstanceOf(HarnessConfigError);
    const ids = await probeEngineSessions('codex-app-server' as unknown as string[]).catch((caught: unknown) => caught);
    expect(ids).toBeInstanceOf(HarnessConfigError);
  });
});
