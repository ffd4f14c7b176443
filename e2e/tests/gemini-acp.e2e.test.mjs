// The real `gemini --acp` (@google/gemini-cli, pinned) under createGeminiAcpAdapter and createHarness.
import { describeAcpEngine } from '../acp-suite.mjs';
import { adapterOptions, cli, isolatedEnv, writeGeminiSettings } from '../helpers.mjs';

describeAcpEngine('Gemini CLI 0.61.0 over ACP (real) — end to end', {
  name: 'gemini-acp',
  prepareHome: writeGeminiSettings,
  processName: 'gemini',
  rejectedText: 'PONG from fake (after tool)',
  makeBackend: (context) =>
    context.harness.createGeminiAcpAdapter({
      command: cli('gemini'),
      model: 'gemini-2.5-flash',
      ...adapterOptions(context.home, isolatedEnv(context.home, { GEMINI_API_KEY: 'fake-gemini-key', GOOGLE_GEMINI_BASE_URL: context.server.url })),
    }),
});
