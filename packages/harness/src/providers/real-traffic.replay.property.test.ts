import fc from 'fast-check';
import { describe, it } from 'vitest';
import { propertyRuns } from '../__fixtures__/property-runs.js';
import { cutBody, expectParse, knownFailure, loadCorpus, replay, type Protocol } from '../__fixtures__/real-traffic-replay.js';

// Issue 23: every recording of the corpus that parses right today parses the same wherever the
// bytes are cut (events, lines, CRLF pairs and multi-byte UTF-8 characters split across chunks).
// Known failures (see known-failures.ts) join this property once their fix lands.
const corpus = loadCorpus().filter(({ recording }) => knownFailure(recording.id) === undefined);
const protocols: Protocol[] = ['openai-chat', 'openai-responses', 'anthropic', 'gemini', 'ollama'];

describe.each(protocols)('%s recordings cut at arbitrary byte offsets', (protocol) => {
  const recordings = corpus.filter(({ recording }) => recording.protocol === protocol);
  it('parse to the expected text, deltas, tool calls, reasoning, usage and error classification', async () => {
    const cases = fc
      .integer({ min: 0, max: recordings.length - 1 })
      .chain((index) => fc.tuple(fc.constant(index), fc.array(fc.integer({ min: 0, max: recordings[index]!.body.length }), { maxLength: 40 })));
    await fc.assert(
      fc.asyncProperty(cases, async ([index, cuts]) => {
        const { recording, body } = recordings[index]!;
        expectParse(recording, await replay(recording, cutBody(body, cuts)));
      }),
      { numRuns: propertyRuns() },
    );
  }, 120_000);
});
