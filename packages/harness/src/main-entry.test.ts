// The main entry holds what users build with; each folder's protocol plumbing is in the subpath
// named after the folder. A name that moved stays in the main entry for one minor version, the same
// value, marked @deprecated with its new import path.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as main from './index.js';
import * as deprecatedExports from './deprecated-exports.js';
import * as agentRelay from './agent-relay/index.js';
import * as local from './local/subpath.js';
import * as providers from './providers/subpath.js';
import * as sessions from './sessions/subpath.js';
import * as tools from './tools/subpath.js';

const SUBPATHS: Readonly<Record<string, object>> = { providers, local, sessions, tools, 'agent-relay': agentRelay };
/** Names a subpath shares with neither the main entry nor the plumbing: its own Node-side API. */
const SUBPATH_ONLY: Readonly<Record<string, readonly string[]>> = {
  'agent-relay': ['RelayAdapter', 'RelayAdapterOptions', 'RelayAdapterStartBrokerOptions', 'RelayAdapterStats', 'RelayConnectionError'],
  // Plumbing added after the split lives only in its subpath: never in the main entry, nothing to deprecate.
  local: ['parseCopilotOutput', 'ParseCopilotOutputOptions', 'CopilotDeniedTool', 'parseCursorOutput', 'ParseCursorOutputOptions', 'parseGooseOutput', 'ParseGooseOutputOptions', 'parsePiOutput', 'ParsePiOutputOptions'],
};

/** Deprecated aliases of renamed classes (same value under the new name), not moved plumbing. */
const RENAMED: ReadonlySet<string> = new Set(['ClaudeCodeSessionAdapter', 'CodexAppServerAdapter']);

const dist = (file: string) => fileURLToPath(new URL(`../dist/${file}`, import.meta.url));

/** Every name each built entry exports (types included), with the subpath its @deprecated tag names, if any. */
function declaredExports(entries: readonly string[]): Map<string, Map<string, string | undefined>> {
  const files = entries.map((entry) => dist(`${entry}.d.ts`));
  const program = ts.createProgram(files, { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, skipLibCheck: true });
  const checker = program.getTypeChecker();
  const result = new Map<string, Map<string, string | undefined>>();
  entries.forEach((entry, index) => {
    const source = program.getSourceFile(files[index] ?? '');
    const moduleSymbol = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    if (moduleSymbol === undefined) throw new Error(`${entry}.d.ts is not a module`);
    const names = new Map<string, string | undefined>();
    for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      const tag = target.getJsDocTags(checker).find((item) => item.name === 'deprecated');
      const text = tag === undefined ? undefined : ts.displayPartsToString(tag.text);
      names.set(symbol.name, text === undefined ? undefined : (/`@agent-assistant\/harness\/([\w-]+)`/.exec(text)?.[1] ?? 'no subpath named'));
    }
    result.set(entry, names);
  });
  return result;
}

describe('the main entry and the plumbing subpaths', () => {
  // What the main entry holds for good, and per subpath the plumbing that left it (its own names less those).
  const kept = new Set(Object.keys(main).filter((name) => !(name in deprecatedExports)));
  const moved = new Map<string, string>();
  for (const [subpath, entry] of Object.entries(SUBPATHS)) {
    for (const name of Object.keys(entry)) {
      if (!kept.has(name) && !(SUBPATH_ONLY[subpath] ?? []).includes(name)) moved.set(name, subpath);
    }
  }

  it('keeps exactly the moved runtime names, deprecated, in the main entry', () => {
    expect([...moved.keys()].sort()).toEqual(Object.keys(deprecatedExports).sort());
    expect(moved.size).toBeGreaterThan(30);
  });

  it('keeps every runtime name a subpath holds in the main entry too, the same value', () => {
    for (const [subpath, entry] of Object.entries(SUBPATHS)) {
      for (const [name, value] of Object.entries(entry)) {
        if ((SUBPATH_ONLY[subpath] ?? []).includes(name)) continue;
        expect(main, `${name} of ./${subpath}`).toHaveProperty(name, value);
      }
    }
  });

  it('moved the protocol plumbing out of the folder indexes the main entry re-exports', async () => {
    const indexes = await Promise.all(
      ['./providers/index.js', './local/index.js', './sessions/index.js', './tools/index.js', './tools/workspace/index.js', './agent-relay/protocol/index.js'].map(
        (path) => import(/* @vite-ignore */ path) as Promise<object>,
      ),
    );
    const plumbing = ['convertToAnthropicMessages', 'mapOpenAICompatibleFinishReason', 'parseCodexOutput', 'SessionPool', 'HALLUCINATION_PREVENTION_CLAUSES', 'decodeWorkerInboundMessage'];
    for (const name of plumbing) expect(indexes.filter((index) => name in index), name).toEqual([]);
    for (const name of plumbing) expect(moved.has(name), name).toBe(true);
  });

  it('marks the moved names @deprecated in the built declarations, each naming its subpath, where it is not deprecated', () => {
    expect(existsSync(dist('index.d.ts')), 'build the package first (npm test does)').toBe(true);
    const entries = declaredExports(['index', ...Object.keys(SUBPATHS)]);
    const declared = entries.get('index') ?? new Map<string, string | undefined>();
    const lost: string[] = [];
    for (const subpath of Object.keys(SUBPATHS)) {
      for (const name of entries.get(subpath)?.keys() ?? []) if (!declared.has(name) && !(SUBPATH_ONLY[subpath] ?? []).includes(name)) lost.push(name);
    }
    expect(lost, 'names a subpath declares that the main entry lost').toEqual([]);
    const marked = new Map([...declared].filter((entry): entry is [string, string] => entry[1] !== undefined && !RENAMED.has(entry[0])));
    for (const [name, subpath] of moved) expect(marked.get(name), name).toBe(subpath);
    for (const [name, subpath] of marked) {
      const home = entries.get(subpath);
      expect(home?.has(name) === true && home.get(name) === undefined, `${name} is declared, not deprecated, in ./${subpath}`).toBe(true);
    }
    expect(marked.size).toBeGreaterThan(moved.size);
  }, 120_000);
});
