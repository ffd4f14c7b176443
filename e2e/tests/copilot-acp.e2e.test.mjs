// The real `copilot --acp` (@github/copilot 1.0.102; the preset runs its native binary, not the npm
// shim) under createCopilotAcpAdapter and createHarness, with BYOK offline mode against the fake model.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describeAcpEngine } from '../acp-suite.mjs';
import { adapterOptions, cli, isolatedEnv } from '../helpers.mjs';

// Copilot unpacks its 235 MB package into $XDG_CACHE_HOME/copilot on first start: one cache for every test.
const cacheDir = process.env.COPILOT_E2E_CACHE ?? join(homedir(), '.cache', 'agent-assistant-e2e');

describeAcpEngine('GitHub Copilot CLI 1.0.102 over ACP (real) — end to end', {
  name: 'copilot-acp',
  processName: 'copilot',
  // A rejected call ends the prompt with copilot's own sentence, without another model call.
  rejectedText: 'Operation cancelled by user',
  sessionLoad: true,
  reportsUsage: true,
  // The engine this process started is the platform package's native binary, not the npm shim (node).
  engineExecutable: /copilot-linux(musl)?-(x64|arm64)\/copilot$/,
  makeBackend: (context) => {
    const { XDG_CACHE_HOME: _private, ...env } = isolatedEnv(context.home);
    return context.harness.createCopilotAcpAdapter({
      command: cli('copilot'),
      home: context.home,
      cacheDir,
      provider: { baseUrl: `${context.server.url}/v1`, apiKey: 'sk-fake-e2e', model: 'fake-model' },
      ...adapterOptions(context.home, env),
    });
  },
});
