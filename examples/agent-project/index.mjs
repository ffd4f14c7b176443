// npm start — loads the agent project in ./project through the sandboxed Node VFS and prints
// what a settings page would show: each agent, its model, its grants and what they resolve to.
import { AgentProjectError, describeAgentProject, loadAgentProject } from '@agent-assistant/harness';
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
