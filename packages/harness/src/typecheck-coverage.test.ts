// Type tests (`expectTypeOf`, `assertType`, `@ts-expect-error`) do nothing at run time: they
// only fail when `tsc` compiles them. This proves `npm run typecheck` (which CI runs) compiles
// every TypeScript file of the workspaces, type tests included.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));

interface Manifest {
  workspaces?: string[];
  scripts?: Record<string, string>;
}

function manifest(directory: string): Manifest {
  return JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as Manifest;
}

/** The `-p <tsconfig>` projects of one `typecheck` script, resolved from its package. */
function projectsOf(directory: string, script: string): string[] {
  return [...script.matchAll(/\btsc\b[^&|;]*?\s(?:-p|--project)\s+(\S+)/g)].map(([, project = '']) => resolve(directory, project));
}

/** Every tsconfig `npm run typecheck` compiles: the root script's, and each workspace's through turbo. */
function typecheckProjects(): string[] {
  const rootScript = manifest(root).scripts?.['typecheck'] ?? '';
  const projects = projectsOf(root, rootScript);
  if (/\bturbo run typecheck\b/.test(rootScript)) {
    for (const pattern of manifest(root).workspaces ?? []) {
      const parent = join(root, pattern.replace(/\/\*$/, ''));
      for (const name of readdirSync(parent)) {
        const directory = join(parent, name);
        const script = statSync(directory).isDirectory() ? safeManifest(directory)?.scripts?.['typecheck'] : undefined;
        if (script !== undefined) projects.push(...projectsOf(directory, script));
      }
    }
  }
  return projects;
}

function safeManifest(directory: string): Manifest | undefined {
  try {
    return manifest(directory);
  } catch {
    return undefined;
  }
}

function parseProject(project: string): ts.ParsedCommandLine {
  const read = ts.readConfigFile(project, (path) => ts.sys.readFile(path));
  if (read.error !== undefined) throw new Error(`${project}: ${ts.flattenDiagnosticMessageText(read.error.messageText, '\n')}`);
  return ts.parseJsonConfigFileContent(read.config, ts.sys, dirname(project));
}

function typeScriptFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) return [];
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return typeScriptFiles(path);
    return /\.[cm]?tsx?$/.test(name) && !/\.d\.[cm]?ts$/.test(name) ? [path] : [];
  });
}

const projects = typecheckProjects();
const parsed = new Map(projects.map((project) => [project, parseProject(project)]));
const compiled = new Set([...parsed.values()].flatMap(({ fileNames }) => fileNames.map((file) => resolve(file))));
const workspaceFiles = (manifest(root).workspaces ?? []).flatMap((pattern) => typeScriptFiles(join(root, pattern.replace(/\/\*$/, ''))));
const typeTests = workspaceFiles.filter((file) => /\b(?:expectTypeOf|assertType)\b|@ts-expect-error/.test(readFileSync(file, 'utf8')));

describe('npm run typecheck', () => {
  it('is what CI runs', () => {
    expect(readFileSync(join(root, '.ci/run'), 'utf8')).toMatch(/^npm run typecheck\b/m);
  });

  it('compiles the harness and vfs projects, Node and Worker, and the examples', () => {
    expect(projects.map((project) => relative(root, project)).sort()).toEqual(
      expect.arrayContaining(['examples/tsconfig.json', 'packages/harness/tsconfig.json', 'packages/harness/tsconfig.worker.json', 'packages/vfs/tsconfig.json', 'packages/vfs/tsconfig.worker.json']),
    );
  });

  it('checks what it compiles', () => {
    for (const [project, { options }] of parsed) expect(options.noCheck ?? false, relative(root, project)).toBe(false);
  });

  it('compiles the type tests, so a wrong type fails it', () => {
    expect(typeTests.map((file) => relative(root, file))).toContain('packages/harness/src/core/structured-output.types.test.ts');
    expect(typeTests.filter((file) => !compiled.has(file)).map((file) => relative(root, file))).toEqual([]);
  });

  it('compiles every TypeScript file of the workspaces', () => {
    expect(workspaceFiles.length).toBeGreaterThan(500);
    expect(workspaceFiles.filter((file) => !compiled.has(file)).map((file) => relative(root, file))).toEqual([]);
  });
});
