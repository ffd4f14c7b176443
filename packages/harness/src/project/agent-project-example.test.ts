import { describe, expect, it } from 'vitest';
import { runExample } from '../__fixtures__/run-example.js';

// examples/agent-project as its own Node process: loads ./project through the Node VFS, describes
// it, and runs a turn of its default agent offline against a loopback fake model server.
describe('examples/agent-project', () => {
  it('loads the project folder, describes it, and runs a turn of its default agent with the skill, a deny and an ask', async () => {
    const stdout = await runExample('agent-project');
    expect(stdout.split('\n')).toEqual([
      'assistant (default): mode primary, model fast, steps 8',
      '  tools     granted [workspace_read, workspace_search, bash] → workspace_read, workspace_search, bash',
      '  skills    granted all → release-notes',
      '  subagents granted [researcher] → researcher',
      '  secrets   granted [GITHUB_TOKEN] → GITHUB_TOKEN',
      '  permission bash: "git log*": allow, "git status*": allow, "git push*": ask, "*": deny',
      'researcher: mode subagent, model (product default), steps 4',
      '  tools     granted [workspace_read, workspace_search, web_fetch] → workspace_read, workspace_search',
      '  skills    granted [] → (none)',
      '  subagents granted [] → (none)',
      '  secrets   granted [] → (none)',
      '  permission workspace_read: allow',
      'skill release-notes (skills/release-notes): Write release notes for a version from the changesets and the git log. — granted to assistant',
      expect.stringMatching(/^instructions: AGENTS\.md, \d+ bytes, sha [0-9a-f]{12}$/),
      // The turn, offline: its message from the project's prompt template…
      'command release → agent assistant: Draft the release notes for 1.2.0 with the release-notes skill, then push them.',
      // …each agent's tools built with only its granted secrets…
      'tools for assistant: GITHUB_TOKEN granted, NPM_TOKEN not granted',
      'tools for researcher: GITHUB_TOKEN not granted, NPM_TOKEN not granted',
      // …the skill loaded on demand (its body, then a file of it), a denied command seen by the model…
      "  skill: 1. Read `template.md` in this skill's folder.",
      "  skill: ## What's new",
      '  bash: permission_denied',
      // …an ask rule pausing the turn, and the rejection reaching the model on resume.
      'awaiting_approval: Run bash with {"command":"git push origin main"} (The permission rule bash "git push*": ask)',
      '  bash: approval_rejected',
      'completed: Release notes drafted from the template; the push was not approved.',
      expect.stringMatching(/^ran agent assistant with AGENTS\.md \(sha [0-9a-f]{12}\); model calls 4, tool calls 3$/),
      '',
    ]);
  });
});
