// The differential comparison of our validator with zod/mini, shared by the property tests: one-change
// mutations of a valid value, and a verdict both validators can be compared by.
import fc from 'fast-check';
import type { ValidationIssue } from '../index.js';

/** Anything with `safeParse`: a schema of ours or of zod/mini. */
export interface Parser {
  safeParse(value: unknown): { success: boolean; data?: unknown; error?: { issues: readonly ValidationIssue[] } };
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Path = (string | number)[];

function pathsOf(value: Json, prefix: Path = []): Path[] {
  if (value === null || typeof value !== 'object') return [];
  const keys: (string | number)[] = Array.isArray(value) ? value.map((_, index) => index) : Object.keys(value);
  return keys.flatMap((key) => [[...prefix, key], ...pathsOf((value as Record<string | number, Json>)[key]!, [...prefix, key])]);
}

/** `seed` with one change: a value replaced, a key removed, or a key named from `names` added. */
export function mutated(seed: Json, names: readonly string[]): fc.Arbitrary<Json> {
  const paths = pathsOf(seed);
  return fc
    .tuple(fc.nat({ max: Math.max(paths.length - 1, 0) }), fc.constantFrom('replace', 'remove', 'add'), fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(...names))
    .map(([index, change, value, name]) => {
      const copy = JSON.parse(JSON.stringify(seed)) as Json;
      const path = paths[index];
      if (path === undefined) return value as Json;
      let parent = copy as Record<string | number, Json>;
      for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, Json>;
      const last = path.at(-1)!;
      if (change === 'replace') parent[last] = value as Json;
      else if (change === 'remove' && !Array.isArray(parent)) delete parent[last];
      else {
        const target = parent[last];
        if (target !== null && typeof target === 'object' && !Array.isArray(target)) {
          Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
        } else parent[last] = value as Json;
      }
      return copy;
    });
}

/**
 * Accepted with its output, or refused with each issue as `path: code`. After a wrong type, zod/mini
 * still runs length checks on anything that has a `length` (an array where a string belongs); ours
 * stops at the type, so at a path with `invalid_type` only that code counts.
 */
export function verdict(schema: Parser, value: unknown) {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { success: true, data: parsed.data };
  const issues = (parsed.error?.issues ?? []).map((issue) => ({ path: issue.path.map(String).join('.'), code: issue.code }));
  const wrongType = new Set(issues.filter((issue) => issue.code === 'invalid_type').map((issue) => issue.path));
  const kept = issues.filter((issue) => issue.code === 'invalid_type' || !wrongType.has(issue.path)).map((issue) => `${issue.path}: ${issue.code}`);
  return { success: false, issues: [...new Set(kept)].sort() };
}
