// probeLocalBackends finds the pinned real CLIs and reads their versions.
import { dirname } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, copilotCacheDir, loadHarness, opencodeBinary } from '../helpers.mjs';

let harnessPackage;
beforeAll(async () => {
  harnessPackage = await loadHarness();
});

describe('probeLocalBackends with the real CLIs', () => {
  it('reports the pinned versions', async () => {
    // Copilot unpacks its package into XDG_CACHE_HOME even for --version: the shared e2e cache.
    const env = { PATH: `${dirname(cli('claude'))}:${dirname(process.execPath)}`, HOME: process.env.HOME, XDG_CACHE_HOME: copilotCacheDir };
    const probes = await harnessPackage.probeLocalBackends(undefined, { env, timeoutMs: 30_000, commands: { opencode: opencodeBinary } });
    expect(probes.map(({ id, available, version }) => ({ id, available, version }))).toEqual([
      { id: 'claude-code', available: true, version: '2.1.332' },
      { id: 'codex', available: true, version: '0.171.0' },
      { id: 'gemini-cli', available: true, version: '0.61.0' },
      { id: 'opencode', available: true, version: '1.18.33' },
      { id: 'pi', available: true, version: '0.73.1' },
      { id: 'copilot', available: true, version: '1.0.102' },
      // Not installable here (more-engines-facts.md sections 6-8): reported, never thrown.
      { id: 'crush', available: false },
      { id: 'goose', available: false },
      { id: 'cursor', available: false },
    ]);
  });

  it('names the command tried and how to override it for the engines that cannot be installed here', async () => {
    const probes = await harnessPackage.probeLocalBackends(['crush', 'goose', 'cursor'], { env: { PATH: dirname(process.execPath) } });
    expect(probes.map((probe) => probe.error)).toEqual([
      expect.stringMatching(/^crush is not available: `crush` was not found on PATH\. .*commands\['crush'\]/),
      expect.stringMatching(/^goose is not available: `goose` was not found on PATH\. .*commands\['goose'\]/),
      expect.stringMatching(/^Cursor CLI is not available: `cursor-agent` was not found on PATH\. .*commands\['cursor'\]/),
    ]);
    await expect(harnessPackage.requireLocalBackend('goose', { env: { PATH: dirname(process.execPath) } })).rejects.toMatchObject({ code: 'HARNESS_ERR_BACKEND_UNAVAILABLE', command: 'goose' });
  });

  it('says how to install a CLI that is not on PATH', async () => {
    const [probe] = await harnessPackage.probeLocalBackends(['opencode'], { env: { PATH: dirname(process.execPath) } });
    expect(probe).toMatchObject({ available: false });
    expect(probe.error).toMatch(/npm install -g opencode-ai/);
  });
});
