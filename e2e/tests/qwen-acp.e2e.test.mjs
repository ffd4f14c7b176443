// The real `qwen --acp` (@qwen-code/qwen-code 0.15.10, the last release for Node 20) under
// createQwenAcpAdapter and createHarness, against the fake model as an OpenAI-compatible provider.
import { describeAcpEngine } from '../acp-suite.mjs';
import { adapterOptions, cli, isolatedEnv } from '../helpers.mjs';

describeAcpEngine('Qwen Code 0.15.10 over ACP (real) — end to end', {
  name: 'qwen-acp',
  processName: 'qwen',
  // qwen tells the model the call was cancelled; the fake model then answers as after any tool.
  rejectedText: 'PONG from fake (after tool)',
  sessionLoad: true,
  reportsUsage: true,
  makeBackend: (context) =>
    context.harness.createQwenAcpAdapter({
      command: cli('qwen'),
      // The suite's home, so a second adapter finds the first one's sessions (~/.qwen) for session/load.
      home: context.home,
      provider: { baseUrl: `${context.server.url}/v1`, apiKey: 'sk-fake-e2e', model: 'fake-model' },
      ...adapterOptions(context.home, isolatedEnv(context.home)),
    }),
});
