import { describe, expect, it } from 'vitest';
import { runExample } from '../__fixtures__/run-example.js';

// examples/agent-project as its own Node process: loads ./project through the Node VFS and describes it.
describe('examples/agent-project', () => {
  it('loads the project folder and prints each agent, its grants resolved, the skill and the instructions', async () => {
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
      '',
    ]);
  });
});
