import { describe, expect, it } from 'vitest';
import { buildEnvironment } from './build-environment.js';

describe('buildEnvironment', () => {
  const parent = { PATH: '/bin', HOME: '/home/me', LC_ALL: 'C', LC_TIME: 'C', SECRET_TOKEN: 't', ANTHROPIC_API_KEY: 'k', EMPTY: undefined };

  it('keeps only allow-listed names and prefixes, then adds extra', () => {
    expect(buildEnvironment(parent, ['PATH', 'LC_*', 'EMPTY'], { EXTRA: '1', PATH: '/override' }, 'linux')).toEqual({
      PATH: '/override',
      LC_ALL: 'C',
      LC_TIME: 'C',
      EXTRA: '1',
    });
  });

  it('compares names case-insensitively on Windows only', () => {
    expect(buildEnvironment({ Path: 'C:\\bin' }, ['PATH'], undefined, 'win32')).toEqual({ Path: 'C:\\bin' });
    expect(buildEnvironment({ Path: '/bin' }, ['PATH'], undefined, 'linux')).toEqual({});
  });
});
