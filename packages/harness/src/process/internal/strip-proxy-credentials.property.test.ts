// Whatever the credentials look like, none of them survives into the child's proxy variable.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../../__fixtures__/property-runs.js';
import { buildEnvironment, DEFAULT_INHERITED_ENV } from '../build-environment.js';

const secret = fc.string({ minLength: 8, maxLength: 40 }).map((text) => `S3CR3T${text}`);
const host = fc.domain();
const port = fc.integer({ min: 1, max: 65_535 });
const scheme = fc.constantFrom('', 'http://', 'https://', 'socks5://', 'socks5h://');
const user = fc.string({ maxLength: 20 });
const name = fc.constantFrom('HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy');

describe('inherited proxy variables (property)', () => {
  it('never carry a credential to the child', () => {
    fc.assert(
      fc.property(name, scheme, user, secret, host, port, (variable, prefix, login, password, domain, portNumber) => {
        const value = `${prefix}${login}:${password}@${domain}:${portNumber}`;
        const env = buildEnvironment({ [variable]: value, PATH: '/bin' }, DEFAULT_INHERITED_ENV, undefined, 'linux');
        expect(env[variable]).toBe(`${prefix}${domain}:${portNumber}`);
        expect(JSON.stringify(env)).not.toContain(password);
      }),
      { numRuns: propertyRuns() },
    );
  });
});
