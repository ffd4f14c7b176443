import { describe, expect, it } from 'vitest';
import { cutBody, expectParse, interestingCuts, knownFailure, loadCorpus, replay } from '../__fixtures__/real-traffic-replay.js';

// Issue 23: recorded real responses (see __fixtures__/real-traffic/SOURCES.md) replayed over loopback
// in their real framing through createHarness and each protocol's adapter, cut at fixed offsets:
// whole, after every line feed and inside every multi-byte UTF-8 character, and one byte at a time.
const corpus = loadCorpus();

describe('real traffic corpus', () => {
  it('has at least 12 recordings per protocol, each with a source, a licence and an expected parse', () => {
    const perProtocol = new Map<string, number>();
    for (const { recording } of corpus) {
      perProtocol.set(recording.protocol, (perProtocol.get(recording.protocol) ?? 0) + 1);
      expect(recording.source.length > 0 && recording.licence.length > 0 && recording.changes.length > 0).toBe(true);
    }
    expect([...perProtocol.keys()].sort()).toEqual(['anthropic', 'gemini', 'ollama', 'openai-chat', 'openai-responses']);
    for (const count of perProtocol.values()) expect(count).toBeGreaterThanOrEqual(12);
  });
});

describe.each(corpus.map(({ recording, body }) => ({ id: recording.id, recording, body })))('$id', ({ recording, body }) => {
  const known = knownFailure(recording.id);
  const test = known === undefined ? it : it.fails;
  const label = known === undefined ? '' : ` [known failure, issue 23 ${known.items.length === 0 ? 'new class' : `item ${known.items.join(' + ')}`}: ${known.note}]`;
  test(`parses right whole, cut at every line end and inside every UTF-8 character, and byte by byte${label}`, async () => {
    expectParse(recording, await replay(recording, [body]));
    expectParse(recording, await replay(recording, cutBody(body, interestingCuts(body))));
    expectParse(recording, await replay(recording, cutBody(body, Array.from({ length: body.length }, (_, index) => index))));
  }, 30_000);
});
