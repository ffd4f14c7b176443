import { describe, expect, it } from 'vitest';
import { runExample } from '../../__fixtures__/run-example.js';

// examples/chat-history-with-images run as its own Node process, offline, bundled from the sources.
describe('examples/chat-history-with-images', () => {
  it('replays the history as role messages and sends the inline image to the fake server', async () => {
    const stdout = await runExample('chat-history-with-images');
    expect(stdout).toContain('completed / answer_finalized');
    expect(stdout).toMatch(/user\s+"My cat is called Miso\."/);
    expect(stdout).toMatch(/assistant\s+"Miso is a lovely name!/);
    expect(stdout).toMatch(/user\s+text \+ image_url/);
    expect(stdout).toMatch(/image sent: data:image\/png;base64,… \(\d+ characters, inline: true\)/);
  });
});
