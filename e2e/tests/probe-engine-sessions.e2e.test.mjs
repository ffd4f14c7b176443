// probeEngineSessions performs the real engines' session handshakes (no model is called).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, freshHome, isolatedEnv, loadHarness, opencodeBinary, removeHomes } from '../helpers.mjs';

let harnessPackage;
beforeAll(async () => {
  harnessPackage = await loadHarness();
});
afterAll(removeHomes);

describe('probeEngineSessions with the real engines', () => {
  it('answers each protocol handshake with the pinned versions', async () => {
    const home = freshHome('probe-sessions');
    mkdirSync(join(home, '.codex')); // codex refuses a CODEX_HOME that does not exist
    // omp exits at start without a model; any configured provider will do (the probe calls no model).
    mkdirSync(join(home, '.omp', 'agent'), { recursive: true });
    writeFileSync(join(home, '.omp', 'agent', 'models.yml'), JSON.stringify({ providers: { fake: { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'FAKE_KEY', api: 'openai-completions', models: [{ id: 'fake-model' }] } } }));
    const env = isolatedEnv(home, {
      PATH: `${dirname(cli('claude'))}:${dirname(process.execPath)}`,
      CODEX_HOME: join(home, '.codex'),
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    });
    const probes = await harnessPackage.probeEngineSessions(undefined, {
      env,
      cwd: join(home, 'work'),
      timeoutMs: 60_000,
      commands: { 'opencode-acp': opencodeBinary },
    });
    expect(probes.map(({ id, available, handshake, engineName, version, protocolVersion }) => ({ id, available, handshake, engineName, version, protocolVersion }))).toEqual([
      { id: 'gemini-acp', available: true, handshake: 'answered', engineName: 'gemini-cli', version: '0.61.0', protocolVersion: 1 },
      { id: 'opencode-acp', available: true, handshake: 'answered', engineName: 'OpenCode', version: '1.18.33', protocolVersion: 1 },
      { id: 'qwen-acp', available: true, handshake: 'answered', engineName: 'qwen-code', version: '0.15.10', protocolVersion: 1 },
      { id: 'copilot-acp', available: true, handshake: 'answered', engineName: 'Copilot', version: '1.0.102', protocolVersion: 1 },
      // Hermes Agent is on PyPI only, which is not reachable here.
      { id: 'hermes-acp', available: false, handshake: 'not_run', engineName: undefined, version: undefined, protocolVersion: undefined },
      { id: 'codex-app-server', available: true, handshake: 'answered', engineName: undefined, version: '0.171.0', protocolVersion: undefined },
      { id: 'claude-code-session', available: true, handshake: 'answered', engineName: undefined, version: '2.1.332', protocolVersion: undefined },
      { id: 'omp-rpc', available: true, handshake: 'answered', engineName: 'omp', version: undefined, protocolVersion: undefined },
      // In-process: the package loads (nothing is spawned, no handshake).
      { id: 'claude-agent-sdk', available: true, handshake: 'not_run', engineName: undefined, version: undefined, protocolVersion: undefined },
    ]);
    const [gemini, opencode, qwen, copilot, hermes, codex, claude] = probes;
    expect(qwen.capabilities).toEqual(expect.arrayContaining(['loadSession', 'sessionCapabilities.resume']));
    expect(copilot.capabilities).toEqual(expect.arrayContaining(['loadSession', 'sessionCapabilities.list']));
    expect(hermes.error).toContain("pip install 'hermes-agent[acp]'");
    expect(gemini.capabilities).toContain('loadSession');
    expect(opencode.capabilities).toEqual(expect.arrayContaining(['loadSession', 'sessionCapabilities.resume']));
    expect(codex.capabilities).toEqual([]);
    expect(claude.capabilities.length).toBeGreaterThan(0);
  });

  it('says how to install an engine that is not on PATH', async () => {
    const [probe] = await harnessPackage.probeEngineSessions(['codex-app-server'], { env: { PATH: dirname(process.execPath) } });
    expect(probe).toMatchObject({ available: false, handshake: 'not_run' });
    expect(probe.error).toMatch(/npm install -g @openai\/codex/);
  });
});
