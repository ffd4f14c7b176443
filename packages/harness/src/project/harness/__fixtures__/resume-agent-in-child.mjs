// Resumes a paused turn of an agent project in a fresh process: reads { dir, url, continuation,
// secret, decisions } from stdin, loads the project from the folder `dir` through the Node VFS,
// builds its agent harness with the built package (imported by path, so it is this checkout's
// build) against the fake model server at `url`, resumes, and prints { result, toolCalls }.
import { createNodeFsVfs } from '@agent-assistant/vfs/node';
import { createAgentHarness, loadAgentProject, parseProviderProfiles } from '../../../../dist/index.js';
import { createFakeToolRegistry, createScriptedModel } from '../../../../dist/testing.js';

let raw = '';
for await (const chunk of process.stdin) raw += chunk;
const { dir, url, continuation, secret, decisions } = JSON.parse(raw);
const vfs = createNodeFsVfs({ root: dir });
const project = await loadAgentProject(vfs);
const tools = createFakeToolRegistry({ bash: ({ command }) => `ran ${command}`, lookup: () => 'found' });
const profiles = parseProviderProfiles({
  profiles: [{ id: 'local-fake', provider: 'fake', protocol: 'openai-chat', model: 'fake-model', endpoint: url, authMode: 'none' }],
  aliases: { fast: 'local-fake' },
});
const harness = createAgentHarness(project, { profiles, model: createScriptedModel([]), tools, vfs, continuationSecret: secret });
const result = await harness.resumeTurn(continuation, { type: 'approval', decisions });
process.stdout.write(JSON.stringify({ result, toolCalls: tools.calls }));
process.exit(0);
