import { describe, expect, it } from 'vitest';
// Parity with the VFS package's own rules (the harness keeps a copy to avoid a runtime import).
import { normalizeVfsPath } from '../../../vfs/src/index.js';
import { displaySourcePath, normalizeSourcePath } from './normalize-source-path.js';

const SAMPLES = [
  '',
  '/',
  ' ',
  'docs',
  '/docs/',
  '//docs///guide//',
  './docs/./a.md',
  '  /docs/a b.md  ',
  '/ünïcødé/日本.md',
  '/a/...',
  '/a/..b/c..',
  '..',
  '../secret',
  '/docs/../../etc/passwd',
  '/a/b/../c',
  'C:\\Windows',
  'c:/windows',
  'Z:',
  '/docs/a\u0000.md',
  '/docs/\u0007bell',
  '/line\nbreak',
  '..\\..\\secret',
  `/${'a'.repeat(4095)}`,
  `/${'a'.repeat(4096)}`,
];

describe('normalizeSourcePath', () => {
  it.each(SAMPLES.map((sample) => [JSON.stringify(sample).slice(0, 40), sample]))('agrees with normalizeVfsPath on %s', (_label, sample) => {
    let expected: { ok: true; path: string } | { ok: false };
    try {
      expected = { ok: true, path: normalizeVfsPath(sample) };
    } catch {
      expected = { ok: false };
    }
    const actual = normalizeSourcePath(sample);
    expect(actual.ok).toBe(expected.ok);
    if (actual.ok && expected.ok) expect(actual.path).toBe(expected.path);
  });

  it('explains refusals', () => {
    expect(normalizeSourcePath('../x')).toEqual({ ok: false, reason: expect.stringContaining('"..", which is not allowed') });
    expect(normalizeSourcePath('a\u0000')).toEqual({ ok: false, reason: 'contains a NUL byte' });
  });

  it('displays provider paths normalised when possible, as given otherwise', () => {
    expect(displaySourcePath('docs//a.md/')).toBe('/docs/a.md');
    expect(displaySourcePath('../odd')).toBe('../odd');
  });
});
