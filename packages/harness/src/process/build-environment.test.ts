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

  it('strips user:password@ from inherited proxy variables, but not from explicit ones', () => {
    const proxies = {
      HTTPS_PROXY: 'http://user:secret@proxy.corp:3128',
      http_proxy: 'http://user:secret@proxy.corp:3128',
      ALL_PROXY: 'socks5://token@proxy.corp:1080',
      NO_PROXY: 'localhost,user@host',
    };
    expect(buildEnvironment(proxies, ['HTTPS_PROXY', 'http_proxy', 'ALL_PROXY', 'NO_PROXY'], undefined, 'linux')).toEqual({
      HTTPS_PROXY: 'http://proxy.corp:3128',
      http_proxy: 'http://proxy.corp:3128',
      ALL_PROXY: 'socks5://proxy.corp:1080',
      NO_PROXY: 'localhost,user@host',
    });
    // A credentialed proxy the caller passes on purpose (in `env`) is kept as given.
    expect(buildEnvironment(proxies, [], { HTTPS_PROXY: proxies.HTTPS_PROXY }, 'linux')).toEqual({ HTTPS_PROXY: proxies.HTTPS_PROXY });
  });

  it('keeps a variable named __proto__ as a variable', () => {
    const env = buildEnvironment(JSON.parse('{"__proto__":"x","PATH":"/bin"}') as Record<string, string>, ['*'], undefined, 'linux');
    expect(Object.getOwnPropertyDescriptor(env, '__proto__')?.value).toBe('x');
    expect(env['PATH']).toBe('/bin');
  });
});
