import { describe, expect, it } from 'vitest';
import { runExample } from '../../__fixtures__/run-example.js';

// examples/question-tool run as its own Node process, offline, bundled from the sources.
describe('examples/question-tool', () => {
  it('pauses with the question and choices, resumes in another harness, and sends the answer once as the tool result', async () => {
    const stdout = await runExample('question-tool');
    expect(stdout).toContain('first run: needs_clarification / clarification_required');
    expect(stdout).toContain('question: Which city do you mean?');
    expect(stdout).toContain('choices: Oslo, Bergen, Tromsø');
    expect(stdout).toContain('after the answer: completed: In Bergen today: rain, 9 °C. Take an umbrella.');
    expect(stdout).toContain('the model got the answer as the result of call call_fake_1: "Bergen" (in 1 message)');
  });
});
