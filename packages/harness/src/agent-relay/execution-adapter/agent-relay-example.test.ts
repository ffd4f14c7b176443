import { describe, expect, it } from 'vitest';
import { runExample } from '../../__fixtures__/run-example.js';

// examples/agent-relay run as its own Node process, bundled from the sources; no broker runs, so its
// last step reports that none was found.
describe('examples/agent-relay', () => {
  it('runs offline: a turn over the in-memory relay, the same turn streamed, shorthand and timeouts', async () => {
    const stdout = await runExample('agent-relay');
    expect(stdout).toContain('1. outcome: completed | answer: "HELLO OVER THE RELAY"');
    expect(stdout).toContain('1b. live: [think started] "You said: stream this please" | answer: "You said: stream this please"');
    expect(stdout).toContain('events: {"messages":1,"forwarded":2,"dropped":0,"gaps":0,"repeats":0}');
    expect(stdout).toContain('2. shorthand failure: failed - not logged in');
    expect(stdout).toContain('silence: failed timeout retryable=true | cancel sent: timeout');
    expect(stdout).toMatch(/3\. no broker turn: Could not reach the Agent Relay broker/);
  });
});
