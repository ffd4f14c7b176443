// npm start — loads the agent project in ./project through the sandboxed Node VFS and prints
// what a settings page would show: each agent, its model, its grants and what they resolve to.
// Then runs a turn of its default agent offline, against a loopback fake model server.
import {
  AgentProjectError,
  composeToolRegistries,
  createAgentHarness,
  createBashToolRegistry,
  createModelFromProfile,
  createWorkspaceToolRegistry,
  describeAgentProject,
  expandAgentCommand,
  loadAgentProject,
  parseProviderProfiles,
} from '@agent-assistant/harness';
import { createFakeOpenAICompatibleServer } from '@agent-assistant/harness/testing/node';
import { createNodeFsVfs } from '@agent-assistant/vfs/node';

let project;
try {
  project = await loadAgentProject(createNodeFsVfs({ root: 'project' }));
} catch (error) {
  if (!AgentProjectError.isInstance(error)) throw error;
  for (const problem of error.problems) console.error(`${problem.file}:${problem.line ?? ''} ${problem.message}`);
  process.exit(1);
}

// The product's own tools and secret names resolve the `all` grants (values never enter a project).
const description = describeAgentProject(project, {
  tools: ['workspace_read', 'workspace_search', 'workspace_list', 'bash', 'web_fetch'],
  secrets: ['GITHUB_TOKEN', 'NPM_TOKEN'],
});

const show = (resolved) => (Array.isArray(resolved) ? resolved.join(', ') || '(none)' : `all except ${resolved.except.join(', ') || 'nothing'}`);
for (const agent of description.agents) {
  console.log(`${agent.name}${agent.isDefault ? ' (default)' : ''}: mode ${agent.mode}, model ${agent.model ?? '(product default)'}, steps ${agent.steps ?? '-'}`);
  for (const kind of ['tools', 'skills', 'subagents', 'secrets']) {
    const grant = agent.grants[kind];
    console.log(`  ${kind.padEnd(9)} granted ${grant.granted === 'all' ? 'all' : `[${grant.granted.join(', ')}]`} → ${show(grant.resolved)}`);
  }
  for (const rule of agent.permission) {
    const rules = rule.action ?? rule.patterns.map(({ pattern, action }) => `${JSON.stringify(pattern)}: ${action}`).join(', ');
    console.log(`  permission ${rule.tool}: ${rules}`);
  }
}
for (const skill of description.skills) console.log(`skill ${skill.name} (${skill.directory}): ${skill.description} — granted to ${skill.grantedTo.join(', ')}`);
const { instructions } = description;
console.log(instructions === null ? 'instructions: none' : `instructions: ${instructions.source}, ${instructions.bytes} bytes, sha ${instructions.sha}`);
for (const warning of project.warnings) console.log(`warning: ${warning.file}:${warning.line ?? ''} ${warning.message}`);

// A turn of the default agent, offline: a loopback fake model server stands in for the provider
// the `fast` profile names. The agent's prompt, AGENTS.md, model, sampling, tools, skill and
// permission rules all come from the project; its secrets only from its grants.
const server = await createFakeOpenAICompatibleServer({
  replies: [
    { toolCalls: [{ id: 'call_skill', name: 'skill', arguments: { name: 'release-notes' } }] },
    { toolCalls: [{ id: 'call_template', name: 'skill', arguments: { name: 'release-notes', path: 'template.md' } }, { id: 'call_rm', name: 'bash', arguments: { command: 'rm -rf dist' } }] },
    { toolCalls: [{ id: 'call_push', name: 'bash', arguments: { command: 'git push origin main' } }] },
    { text: 'Release notes drafted from the template; the push was not approved.' },
  ],
});
try {
  const profiles = parseProviderProfiles({
    profiles: [{ id: 'offline', provider: 'fake', protocol: 'openai-chat', model: 'fake-model', endpoint: server.url, authMode: 'none' }],
    aliases: { fast: 'offline' },
  });
  const vfs = createNodeFsVfs({ root: 'project' });
  // The message comes from the project's prompt template commands/release.md, which names its agent.
  const command = expandAgentCommand(project, 'release', '1.2.0');
  console.log(`command release → agent ${command.agent}: ${command.text}`);
  const harness = createAgentHarness(project, {
    agent: command.agent,
    profiles,
    model: createModelFromProfile(profiles, 'fast'), // for agents whose file names no model (researcher)
    vfs,
    secrets: { GITHUB_TOKEN: 'ghp-example', NPM_TOKEN: 'npm-example' },
    // Called once per agent, with only the secrets that agent is granted.
    tools: ({ agent, secret }) => {
      console.log(`tools for ${agent.name}: GITHUB_TOKEN ${secret('GITHUB_TOKEN') === undefined ? 'not granted' : 'granted'}, NPM_TOKEN ${secret('NPM_TOKEN') === undefined ? 'not granted' : 'granted'}`);
      // The permission rules are the gate: allowed commands run without a second question.
      return composeToolRegistries(createWorkspaceToolRegistry({ vfs }), createBashToolRegistry({ cwd: 'project', requiresApproval: false }));
    },
    continuationSecret: 'example-continuation-secret-0123456789',
  });
  const turn = { assistantId: 'example', turnId: 'turn-1', message: { id: 'm1', text: command.text, receivedAt: new Date().toISOString() } };
  const show = (result) => {
    for (const item of result.transcript) {
      if (item.type !== 'tool_result') continue;
      const { toolName, status, output, error } = item.result;
      console.log(`  ${toolName}: ${status === 'success' ? `${output.split('\n')[0]}` : `${error.code}`}`);
    }
  };
  const paused = await harness.runTurn(turn);
  show(paused);
  const [request] = paused.metadata.approvalRequests;
  console.log(`${paused.outcome}: ${request.summary}`);
  // Rejected here; a resume in another process (same project, same secret) works the same way.
  const done = await harness.resumeTurn(paused.continuation, { type: 'approval', decisions: { [request.id]: 'rejected' } });
  show({ transcript: done.transcript.slice(paused.transcript.length) });
  const { agent, instructions: loaded } = done.metadata.agentProject;
  console.log(`${done.outcome}: ${done.assistantMessage.text}`);
  console.log(`ran agent ${agent} with ${loaded.source} (sha ${loaded.sha}); model calls ${done.usage.modelCalls}, tool calls ${done.usage.toolCalls}`);
} finally {
  await server.close();
}
