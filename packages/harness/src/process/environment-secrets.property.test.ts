// However a secret from the environment is cut — by a window over the stream, at any point — no
// character of it survives redaction. Secrets are digits; the text around them has none.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../__fixtures__/property-runs.js';
import { processOutputRedactor } from './environment-secrets.js';

const secret = fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 6, maxLength: 40 });
const prose = fc.string({ unit: fc.constantFrom(...'abcxyz :\n'), maxLength: 40 });

describe('processOutputRedactor (property)', () => {
  it('leaves no character of a secret in any window of the stream', () => {
    fc.assert(
      fc.property(secret, fc.array(prose, { minLength: 2, maxLength: 4 }), fc.nat(), fc.nat(), (value, pieces, from, length) => {
        const stream = pieces.join(value);
        const start = from % (stream.length + 1);
        const end = Math.min(stream.length, start + (length % (stream.length + 1)));
        const window = stream.slice(start, end);
        const redacted = processOutputRedactor({ SERVICE_TOKEN: value }).text(window, { start: start > 0, end: end < stream.length });
        expect(redacted).not.toMatch(/[0-9]/);
      }),
      { numRuns: propertyRuns() },
    );
  });
});
