// The defaults quoted in the options' TSDoc are the ones the code uses.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_INHERITED_ENV, DEFAULT_LOCAL_COMMAND_OPTIONS } from './local-command-defaults.js';
import { DEFAULT_PROBE_OPTIONS } from './probe-local-backends.js';

const source = (file: string) => readFileSync(new URL(`./${file}`, import.meta.url), 'utf8');
/** The number after `@default` in the TSDoc block right above `field?:`. */
const documentedDefault = (file: string, field: string) => {
  const lines = source(file).split('\n');
  const at = lines.findIndex((line) => line.trim().startsWith(`${field}?:`));
  for (let index = at - 1; index >= 0 && !lines[index]!.trim().endsWith(';'); index -= 1) {
    const match = /@default (\d+)/.exec(lines[index]!);
    if (match !== null) return Number(match[1]);
  }
  return undefined;
};

describe('documented defaults', () => {
  it.each(['timeoutMs', 'killGraceMs', 'maxOutputBytes'] as const)('LocalCommand %s', (field) => {
    expect(documentedDefault('local-command-options.ts', field)).toBe(DEFAULT_LOCAL_COMMAND_OPTIONS[field]);
  });

  it.each(['timeoutMs', 'killGraceMs', 'maxOutputBytes'] as const)('preset %s', (field) => {
    expect(documentedDefault('local-cli-preset-options.ts', field)).toBe(DEFAULT_LOCAL_COMMAND_OPTIONS[field]);
  });

  it('probe timeoutMs', () => {
    expect(documentedDefault('probe-local-backends.ts', 'timeoutMs')).toBe(DEFAULT_PROBE_OPTIONS.timeoutMs);
  });

  it('inherits no credential-looking variable by default, and the constants are frozen', () => {
    expect(DEFAULT_INHERITED_ENV.filter((name) => /KEY|TOKEN|SECRET|PASSWORD|ANTHROPIC|OPENAI|AWS/.test(name))).toEqual([]);
    expect(Object.isFrozen(DEFAULT_INHERITED_ENV) && Object.isFrozen(DEFAULT_LOCAL_COMMAND_OPTIONS)).toBe(true);
  });
});
