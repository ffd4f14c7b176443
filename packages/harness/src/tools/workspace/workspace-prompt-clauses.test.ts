import { describe, expect, it } from 'vitest';
import {
  CITE_SOURCE_PATHS_CLAUSE,
  EMPTY_RESULT_HONESTY_CLAUSE,
  HALLUCINATION_PREVENTION_CLAUSES,
  SURFACE_TOOL_ERRORS_CLAUSE,
} from './workspace-prompt-clauses.js';

describe('prompt clauses', () => {
  it('name the sourcePath field the tools return', () => {
    expect(CITE_SOURCE_PATHS_CLAUSE).toContain('`sourcePath`');
  });

  it('cover empty results, not-found and tool errors', () => {
    expect(EMPTY_RESULT_HONESTY_CLAUSE).toMatch(/no matches/);
    expect(EMPTY_RESULT_HONESTY_CLAUSE).toMatch(/not found/);
    expect(SURFACE_TOOL_ERRORS_CLAUSE).toMatch(/which tool failed/);
  });

  it('are listed in order and frozen', () => {
    expect(HALLUCINATION_PREVENTION_CLAUSES).toEqual([CITE_SOURCE_PATHS_CLAUSE, EMPTY_RESULT_HONESTY_CLAUSE, SURFACE_TOOL_ERRORS_CLAUSE]);
    expect(Object.isFrozen(HALLUCINATION_PREVENTION_CLAUSES)).toBe(true);
  });
});
