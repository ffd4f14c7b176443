// The real `opencode acp` (opencode-linux-x64, pinned) under createOpenCodeAcpAdapter and createHarness.
import { existsSync } from 'node:fs';
import { describeAcpEngine } from '../acp-suite.mjs';
import { adapterOptions, opencodeBinary, opencodeEnv } from '../helpers.mjs';

describeAcpEngine('opencode 1.18.33 over ACP (real) — end to end', {
  name: 'opencode-acp',
  processName: 'opencode',
  // opencode ends a rejected prompt without text; the adapter completes it with a sentence.
  rejectedText: 'stopped after the request was rejected',
  // Only linux-x64 builds of opencode are installable here (see helpers.mjs).
  skip: !existsSync(opencodeBinary),
  makeBackend: (context) =>
    context.harness.createOpenCodeAcpAdapter({ command: opencodeBinary, ...adapterOptions(context.home, opencodeEnv(context.home, context.server.url)) }),
});
