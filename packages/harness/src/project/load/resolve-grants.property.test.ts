import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../../__fixtures__/property-runs.js';
import type { AgentToolsSetting, ManifestGrant } from '../agent-project-types.js';
import { effectiveTools, projectAccessAllows } from './resolve-grants.js';

const name = fc.constantFrom('bash', 'read', 'write', 'web', '__proto__', 'constructor');
const names = fc.uniqueArray(name, { maxLength: 6 });
const grant: fc.Arbitrary<ManifestGrant> = fc.oneof(fc.constant({ kind: 'all' as const }), names.map((list) => ({ kind: 'list' as const, names: list })));
const setting: fc.Arbitrary<AgentToolsSetting> = fc.oneof(
  fc.constant({ kind: 'all' as const }),
  fc.constant({ kind: 'none' as const }),
  names.map((list) => ({ kind: 'list' as const, names: list })),
  names.map((list) => ({ kind: 'exclude' as const, names: list })),
);

const manifestAllows = (given: ManifestGrant, tool: string) => given.kind === 'all' || given.names.includes(tool);
const fileAllows = (given: AgentToolsSetting, tool: string) =>
  given.kind === 'all' || (given.kind === 'list' && given.names.includes(tool)) || (given.kind === 'exclude' && !given.names.includes(tool));

describe('effectiveTools (property)', () => {
  it('allows a tool exactly when both the manifest and the agent file allow it', () => {
    fc.assert(
      fc.property(grant, setting, name, (given, file, tool) => {
        expect(projectAccessAllows(effectiveTools(given, file), tool)).toBe(manifestAllows(given, tool) && fileAllows(file, tool));
      }),
      { numRuns: propertyRuns() },
    );
  });
});
