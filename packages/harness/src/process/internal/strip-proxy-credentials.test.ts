import { describe, expect, it } from 'vitest';
import { isProxyVariable, stripProxyCredentials } from './strip-proxy-credentials.js';

describe('stripProxyCredentials', () => {
  it.each([
    ['http://user:secret@proxy.corp:3128', 'http://proxy.corp:3128'],
    ['https://user:secret@proxy.corp:3128/', 'https://proxy.corp:3128/'],
    ['socks5h://tok@proxy:1080', 'socks5h://proxy:1080'],
    ['user:secret@proxy:3128', 'proxy:3128'],
    ['http://user:p@ss/w:rd@proxy:3128', 'http://proxy:3128'],
    ['http://user%40corp:s%2Fcret@proxy:3128', 'http://proxy:3128'],
    ['http://proxy.corp:3128', 'http://proxy.corp:3128'],
    ['', ''],
  ])('%s → %s', (value, stripped) => {
    expect(stripProxyCredentials(value)).toBe(stripped);
  });
});

describe('isProxyVariable', () => {
  it('matches proxy URLs, not the NO_PROXY host list', () => {
    for (const name of ['HTTP_PROXY', 'https_proxy', 'ALL_PROXY', 'all_proxy', 'FTP_PROXY', 'npm_config_proxy', 'npm_config_https_proxy']) {
      expect(isProxyVariable(name)).toBe(true);
    }
    for (const name of ['NO_PROXY', 'no_proxy', 'npm_config_no_proxy', 'PATH', 'PROXY_MODE']) expect(isProxyVariable(name)).toBe(false);
  });
});
