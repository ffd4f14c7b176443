// createHarness refuses a key it does not know (a misspelling would otherwise be ignored in
// JavaScript) and suggests the closest known one; every key of the config types and of the
// documented config table is accepted.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createHarness, HarnessConfigError } from '../index.js';
import { createScriptedModel } from '../testing/index.js';
import { HARNESS_CONFIG_KEYS } from './internal/validate-config.js';
import type { HarnessBackendConfig, HarnessModelConfig } from './types/config.js';

const model = createScriptedModel([]);

/** The keys named in the first column of docs/run-turn.md's config table (`model` / `backend` is two). */
function documentedKeys(): string[] {
  const doc = readFileSync(new URL('../../../../docs/run-turn.md', import.meta.url), 'utf8');
  const table = doc.slice(doc.indexOf('## Config'), doc.indexOf('## Limits'));
  return [...table.matchAll(/^\| (`[^|]+`) \|/gm)].flatMap((row) => [...(row[1] as string).matchAll(/`(\w+)`/g)].map((name) => name[1] as string));
}

describe('createHarness config keys', () => {
  it.each([
    ['limit', 'limits'],
    ['tool', 'tools'],
    ['modle', 'model'],
    ['continuationSecrets', 'continuationSecret'],
    ['resumeGaurd', 'resumeGuard'],
    ['outptu', 'output'],
    ['compactoin', 'compaction'],
  ])('refuses %s and suggests %s', (given, known) => {
    const attempt = () => createHarness({ model, [given]: {} } as never);
    expect(attempt).toThrow(HarnessConfigError);
    expect(attempt).toThrow(`createHarness has no option "${given}"; did you mean ${known}?`);
    expect(attempt).toThrow(expect.objectContaining({ field: given }) as Error);
  });

  it('refuses a key close to none, listing the known ones, and outside text as a key', () => {
    expect(() => createHarness({ model, somethingElse: 1 } as never)).toThrow(/has no option "somethingElse" \(known: model, backend, tools, .*compaction\)\.$/);
    for (const key of ['__proto__', 'constructor', 'x'.repeat(10_000)]) {
      const config = Object.defineProperty({ model }, key, { value: 1, enumerable: true });
      expect(() => createHarness(config as never)).toThrow(HarnessConfigError);
    }
  });

  it('accepts every key of the config types and of the documented config table', () => {
    // Compile-time: the map names exactly the keys of both config variants.
    const typed: Record<keyof HarnessModelConfig | keyof HarnessBackendConfig, true> = HARNESS_CONFIG_KEYS;
    const keys = Object.keys(typed);
    expect(documentedKeys().sort()).toEqual([...keys].sort());
    for (const key of keys) {
      if (key === 'model' || key === 'backend') continue;
      expect(() => createHarness({ model, [key]: undefined })).not.toThrow();
    }
  });
});
