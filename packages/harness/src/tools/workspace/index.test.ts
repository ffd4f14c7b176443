import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as root from '../../index.js';
import * as workspace from './index.js';
import * as toolsSubpath from '../subpath.js';

const FOLDER = dirname(fileURLToPath(import.meta.url));

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('workspace tools entry', () => {
  it('exports the documented values, also from the package root', () => {
    const names = [
      'DEFAULT_WORKSPACE_TOOL_OPTIONS',
      'WORKSPACE_LIST_TOOL_NAME',
      'WORKSPACE_READ_JSON_TOOL_NAME',
      'WORKSPACE_READ_TOOL_NAME',
      'WORKSPACE_SEARCH_TOOL_NAME',
      'WORKSPACE_TOOL_LIMITS',
      'WORKSPACE_TOOL_NAMES',
      'createWorkspaceToolRegistry',
    ];
    expect(Object.keys(workspace).sort()).toEqual(names.sort());
    for (const name of names) expect(root).toHaveProperty(name, workspace[name as keyof typeof workspace]);
  });

  it('exports the prompt clauses from ./tools (and, deprecated, from the package root)', () => {
    const clauses = ['CITE_SOURCE_PATHS_CLAUSE', 'EMPTY_RESULT_HONESTY_CLAUSE', 'HALLUCINATION_PREVENTION_CLAUSES', 'SURFACE_TOOL_ERRORS_CLAUSE'] as const;
    for (const name of clauses) expect(root).toHaveProperty(name, toolsSubpath[name]);
    expect(toolsSubpath.HALLUCINATION_PREVENTION_CLAUSES).toEqual([
      toolsSubpath.CITE_SOURCE_PATHS_CLAUSE,
      toolsSubpath.EMPTY_RESULT_HONESTY_CLAUSE,
      toolsSubpath.SURFACE_TOOL_ERRORS_CLAUSE,
    ]);
  });

  it('stays Worker-safe and imports only types from @agent-assistant/vfs', () => {
    const files = sourceFiles(FOLDER);
    expect(files.length).toBeGreaterThan(10);
    for (const path of files) {
      const code = readFileSync(path, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      const label = relative(FOLDER, path);
      expect(code, label).not.toMatch(/from '(node:|fs|path|os)/);
      expect(code, label).not.toMatch(/\b(Buffer|process)\b/);
      for (const line of code.split('\n').filter((text) => text.includes("'@agent-assistant/vfs'"))) {
        expect(line, label).toMatch(/^import type /);
      }
    }
  });
});
