import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../../__fixtures__/property-runs.js';
import type { PermissionAction } from '../permission-types.js';
import { ruleSet } from './__fixtures__/rule-set.js';
import { decidePermission } from './decide-permission.js';
import { compilePattern } from './internal/permission-pattern.js';

const runs = propertyRuns();

/** The reference meaning of a pattern, as a regular expression (test only: the engine builds none). */
function reference(pattern: string, text: string): boolean {
  const toRegExp = (source: string) => new RegExp(`^${source.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[\\s\\S]*')}$`);
  return toRegExp(pattern).test(text) || (pattern.endsWith(' *') && toRegExp(pattern.slice(0, -2)).test(text));
}

// Few characters, so patterns and texts often (nearly) match.
const pattern = fc.string({ unit: fc.constantFrom('a', 'b', '*', ' ', '.', '?'), maxLength: 12 });
const text = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '.', '?', '\n'), maxLength: 24 });
const action = fc.constantFrom<PermissionAction>('allow', 'ask', 'deny');

describe('permission patterns', () => {
  it('match exactly when the reference glob does', () => {
    fc.assert(
      fc.property(pattern, text, (source, subject) => {
        expect(compilePattern(source).matches(subject)).toBe(reference(source, subject));
      }),
      { numRuns: runs * 5 },
    );
  });

  it('take linear time: long *a*a*… patterns against long texts finish at once (no backtracking)', () => {
    const stars = `*${'a*'.repeat(1000)}b`;
    const long = 'a'.repeat(200_000);
    expect(compilePattern(stars).matches(long)).toBe(false);
    expect(compilePattern(stars).matches(`${long}b`)).toBe(true);
    const nested = `${'*a'.repeat(500)}*aab*`;
    expect(compilePattern(nested).matches('a'.repeat(100_000))).toBe(false);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 1_000, max: 50_000 }), fc.constantFrom('a', 'ab', 'aab'), (count, length, piece) => {
        const source = `*${`${piece}*`.repeat(count)}c`;
        expect(compilePattern(source).matches('a'.repeat(length))).toBe(false);
      }),
      { numRuns: Math.min(runs, 50) },
    );
  });
});

describe('decidePermission properties', () => {
  const rules = fc.array(fc.tuple(pattern, action), { minLength: 1, maxLength: 8 });
  const command = fc.string({ unit: fc.constantFrom('a', 'b', ' ', 'g', 'i', 't'), minLength: 1, maxLength: 20 });

  it('does not depend on the order patterns are written in', () => {
    fc.assert(
      fc.property(rules, command, fc.integer(), (written, subject, seed) => {
        const shuffled = [...written].sort((left, right) => ((left[0].length * 31 + seed) % 7) - ((right[0].length * 31 + seed) % 7));
        const one = decidePermission(ruleSet([['bash', written]]), { name: 'bash', input: { command: subject } });
        const other = decidePermission(ruleSet([['bash', shuffled]]), { name: 'bash', input: { command: subject } });
        expect(other.action).toBe(one.action);
        const specificity = (rule: typeof one.rule) => (rule?.pattern ?? '').replaceAll('*', '').length;
        expect(specificity(other.rule)).toBe(specificity(one.rule));
      }),
      { numRuns: runs },
    );
  });

  it('decides with a matching rule, or allows when none matches', () => {
    fc.assert(
      fc.property(rules, command, (written, subject) => {
        const decision = decidePermission(ruleSet([['bash', written]]), { name: 'bash', input: { command: subject } });
        if (decision.rule === undefined) {
          expect(decision.action).toBe('allow');
          expect(written.some(([source]) => compilePattern(source).matches(subject.trim().replace(/\s+/g, ' ')))).toBe(false);
        } else {
          expect(written.some(([source, ruled]) => source === decision.rule!.pattern && ruled === decision.action)).toBe(true);
        }
      }),
      { numRuns: runs },
    );
  });

  it('never turns deny or ask into allow by adding an allow rule that a compound command dodges through', () => {
    const separator = fc.constantFrom('; ', ' && ', ' | ', '\n', ' $(', ' `');
    fc.assert(
      fc.property(command, separator, command, (head, glue, tail) => {
        const rules = ruleSet([['bash', [['*', 'deny'], [`${head.trim()}*`, 'allow']]]]);
        const decision = decidePermission(rules, { name: 'bash', input: { command: `${head}${glue}${tail}` } });
        expect(decision.action).toBe('deny');
      }),
      { numRuns: runs },
    );
  });
});
