import { describe, expect, it } from 'vitest';
import { REPOSITORY_ROOT, runExample } from '../../__fixtures__/run-example.js';

// examples/provider-profiles run as its own Node process, offline: every key variable removed, so
// each profile of the file runs against its protocol's loopback fake. Bundled from the sources.
describe('examples/provider-profiles', () => {
  it('runs every profile of the file offline through a streamed tool turn', async () => {
    const env = {
      ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/_API_KEY$/.test(name))),
      PROFILES_FILE: `${REPOSITORY_ROOT}examples/provider-profiles/profiles.json`,
    };
    const stdout = await runExample('provider-profiles', { env });
    expect(stdout).toMatch(/router\s+openai-chat\s+openai\/gpt-5-mini\s+openrouter\.ai\s+OPENROUTER_API_KEY not set → no/);
    for (const id of ['local-model', 'router', 'openai', 'claude', 'gemini']) expect(stdout).toContain(`[${id}] offline: fake server`);
    expect(stdout.match(/→ completed \/ answer_finalized/g)).toHaveLength(5);
    expect(stdout.match(/receipt: /g)).toHaveLength(10);
    expect(stdout).not.toContain('fake-key-for-the-local-server');
  });
});
