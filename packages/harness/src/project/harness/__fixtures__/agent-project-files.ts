/**
 * A small agent project, as files: `lead` (primary, model `fast` from the profiles, rules, a
 * skill, a subagent, a secret), `helper` (a subagent: no model of its own, its own tools and
 * secret), and `bare` (a manifest entry with no grant keys: deny by default).
 */
export const AGENT_PROJECT_FILES: Readonly<Record<string, string>> = Object.freeze({
  'agent-project.yaml': [
    'default_agent: lead',
    'agents:',
    '  lead:',
    '    tools: [bash, lookup, send_email]',
    '    skills: [release-notes]',
    '    subagents: [helper]',
    '    secrets: [GITHUB_TOKEN]',
    '  helper:',
    '    tools: [lookup, bash]',
    '    secrets: [NPM_TOKEN]',
    '  bare: {}',
    '',
  ].join('\n'),
  'agents/lead.md': [
    '---',
    'description: Leads the work.',
    'model: fast',
    'mode: primary',
    'temperature: 0.2',
    'top_p: 0.9',
    'steps: 5',
    'permission:',
    '  send_email: deny',
    '  bash:',
    '    "git status*": allow',
    '    "git push*": ask',
    '    "rm *": deny',
    '---',
    '',
    'LEAD-PROMPT: you lead the work.',
    '',
  ].join('\n'),
  'agents/helper.md': ['---', 'description: Looks things up.', 'mode: subagent', 'steps: 3', 'tools:', '  exclude: [bash]', '---', '', 'HELPER-PROMPT: you look things up.', ''].join('\n'),
  'agents/bare.md': ['---', 'mode: primary', '---', '', 'BARE-PROMPT', ''].join('\n'),
  'skills/release-notes/SKILL.md': ['---', 'name: release-notes', 'description: Write release notes.', '---', '', 'NOTES-BODY: fill template.md.', ''].join('\n'),
  'skills/release-notes/template.md': '## {version}\n',
  'skills/unused/SKILL.md': ['---', 'description: Never granted.', '---', '', 'UNUSED-BODY', ''].join('\n'),
  'AGENTS.md': '# Repository rules\n\nAGENTS-RULES: run only the tests you touched.\n',
});

/** The provider profiles the project's `model: fast` names, against a loopback server. */
export function fastProfiles(url: string): unknown {
  return {
    profiles: [{ id: 'local-fake', provider: 'fake', protocol: 'openai-chat', model: 'fake-model', endpoint: url, authMode: 'none' }],
    aliases: { fast: 'local-fake' },
  };
}
