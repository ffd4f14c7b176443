// Every error class of both packages — found in the sources and in the public entries, not
// listed by hand — has a permanent, documented, unique code and a working `isInstance` guard.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  AgentProjectError,
  BackendUnavailableError,
  ContextPacketError,
  FeatureNotSupportedError,
  GitHubPublicFetchError,
  HarnessConfigError,
  HarnessError,
  HarnessModelHttpError,
  OutputArtifactError,
  SessionPoolError,
  ToolExecutionError,
  UnknownBackendError,
} from './index.js';
import { RelayConnectionError } from './agent-relay/index.js';
import { UnsupportedInputError } from './providers/internal/unsupported-input-error.js';
import { JsonRpcPeerError, JsonRpcRemoteError } from './process/json-rpc-peer.js';
import { NodeModulesUnavailableError } from './shared/load-builtins.js';
import {
  VfsError,
  VfsInvalidOptionError,
  VfsInvalidPathError,
  VfsIoError,
  VfsIsADirectoryError,
  VfsNotADirectoryError,
  VfsNotFoundError,
  VfsPathEscapeError,
} from '../../vfs/src/index.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const SOURCE_ROOTS = ['packages/harness/src', 'packages/vfs/src'];

/** Each package's public subpaths and the source module each one is built from (its tsup entry). */
const PUBLIC_ENTRIES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'packages/harness': {
    '.': 'src/index.ts',
    './testing': 'src/testing/index.ts',
    './testing/node': 'src/testing/node/index.ts',
    './worker-bridge': 'src/worker-bridge/index.ts',
    './agent-relay': 'src/agent-relay/index.ts',
    './providers': 'src/providers/subpath.ts',
    './local': 'src/local/subpath.ts',
    './sessions': 'src/sessions/subpath.ts',
    './tools': 'src/tools/subpath.ts',
  },
  'packages/vfs': { '.': 'src/index.ts', './node': 'src/node/index.ts' },
};

/** Base classes: their code is the caller's (`new HarnessError(code, …)`); docs mark them `(base)`. */
const BASES = new Map<string, ErrorClass>([
  ['HarnessError', HarnessError],
  ['VfsError', VfsError],
]);

/**
 * Error classes that never leave the code that throws them, so they carry no code. Each must stay
 * out of every public entry. A class that reaches a caller (thrown, or as a result's cause) does
 * not belong here: give it a code instead.
 */
const CONTROL_FLOW_ERRORS = new Map<string, string>([
  ['TurnInterrupted', "the turn signal's abort reason; the turn loop turns it into the stop reason (isTurnInterrupted)"],
  ['ConversionError', 'module-private in parse-yaml.ts; caught there and returned as a parse issue'],
  ['NotPlainJson', 'module-private in to-plain-json.ts; caught there and returned as a refusal'],
  ['CheckFailure', 'the conformance suite throws it inside a check and reports it as that check\'s detail; never thrown out of runResumeGuardConformance'],
  ['VfsCliUsageError', 'the vfs CLI prints it with the help text and exits 2; never thrown out of runVfsCli'],
]);

/** Codes more than one class carries on purpose, with the reason. Empty: every class has its own. */
const SHARED_CODES = new Map<string, string>();

const BUILTIN_ERRORS = new Set(['Error', 'TypeError', 'RangeError', 'SyntaxError', 'AggregateError', 'EvalError', 'ReferenceError', 'URIError', 'DOMException']);

type ErrorClass = abstract new (...args: never[]) => Error;
type ErrorFactory = (cls: never) => Error;

/** How to build one instance of each coded class; a class missing here fails the test. */
const samples = new Map<string, ErrorFactory>();
function sample<C extends new (...args: never[]) => Error>(cls: C, make: (cls: C) => Error): void {
  samples.set(cls.name, make);
}
sample(HarnessConfigError, (C) => new C('bad limit', { field: 'limits.maxIterations' }));
sample(HarnessModelHttpError, (C) => new C('down', { failure: 'http_status', statusCode: 500, isRetryable: true }));
sample(AgentProjectError, (C) => new C([{ file: 'agent.yaml', message: 'bad' }]));
sample(ToolExecutionError, (C) => new C('failed'));
sample(ContextPacketError, (C) => new C('invalid_manifest', 'bad manifest'));
sample(GitHubPublicFetchError, (C) => new C('not_found', 'gone'));
sample(OutputArtifactError, (C) => new C('not_found', 'no artifact'));
sample(UnknownBackendError, (C) => new C('nope', ['claude-code']));
sample(BackendUnavailableError, (C) => new C('claude-code', 'claude', 'install claude'));
sample(RelayConnectionError, (C) => new C('refused', { baseUrl: 'http://127.0.0.1:1' }));
sample(SessionPoolError, (C) => new C('busy', 'busy'));
sample(JsonRpcPeerError, (C) => new C('closed', 'closed'));
sample(JsonRpcRemoteError, (C) => new C(-32602, 'bad params', undefined));
sample(NodeModulesUnavailableError, (C) => new C(new Error('no node:fs')));
sample(UnsupportedInputError, (C) => new C('attachments_unsupported', 'no attachments'));
sample(VfsNotFoundError, (C) => new C('no', { path: '/a' }));
sample(VfsPathEscapeError, (C) => new C('no', { path: '/a' }));
sample(VfsInvalidPathError, (C) => new C('bad path', { path: '/a' }));
sample(VfsInvalidOptionError, (C) => new C('bad option', { field: 'limit' }));
sample(VfsNotADirectoryError, (C) => new C('no', { path: '/a' }));
sample(VfsIsADirectoryError, (C) => new C('no', { path: '/a' }));
sample(VfsIoError, (C) => new C('io failed'));
sample(FeatureNotSupportedError, (C) => new C(['skills'], { backendId: 'fake-backend', agent: 'lead' }));

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return name === '__fixtures__' ? [] : sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : [];
  });
}

const files = SOURCE_ROOTS.flatMap((directory) => sourceFiles(join(root, directory)));
const texts = new Map(files.map((file) => [file, readFileSync(file, 'utf8')]));

/** Every class in the sources whose `extends` chain reaches a built-in error, with its file. */
function declaredErrorClasses(): Map<string, string[]> {
  const parents = new Map<string, { parent: string; file: string }[]>();
  for (const [file, text] of texts) {
    for (const match of text.matchAll(/\bclass\s+(\w+)(?:\s*<[^>{]*>)?\s+extends\s+(\w+)/g)) {
      const [, name = '', parent = ''] = match;
      parents.set(name, [...(parents.get(name) ?? []), { parent, file }]);
    }
  }
  const isError = (name: string, seen: Set<string>): boolean =>
    BUILTIN_ERRORS.has(name) ||
    (!seen.has(name) && (parents.get(name) ?? []).some(({ parent }) => isError(parent, new Set([...seen, name]))));
  const found = new Map<string, string[]>();
  for (const [name, declarations] of parents) {
    if (isError(name, new Set())) found.set(name, declarations.map(({ file }) => file));
  }
  return found;
}

function isErrorClass(value: unknown): value is ErrorClass {
  return typeof value === 'function' && value.prototype instanceof Error;
}

async function publicErrorClasses(): Promise<Map<string, { cls: ErrorClass; entries: string[] }>> {
  const found = new Map<string, { cls: ErrorClass; entries: string[] }>();
  for (const [pkg, entries] of Object.entries(PUBLIC_ENTRIES)) {
    for (const [subpath, source] of Object.entries(entries)) {
      const module = (await import(pathToFileURL(join(root, pkg, source)).href)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(module)) {
        if (!isErrorClass(value)) continue;
        const entry = `${pkg}:${subpath}`;
        const known = found.get(name);
        if (known === undefined) found.set(name, { cls: value, entries: [entry] });
        else known.entries.push(entry);
      }
    }
  }
  return found;
}

async function loadClass(file: string, name: string, query = ''): Promise<unknown> {
  const module = (await import(`${pathToFileURL(file).href}${query}`)) as Record<string, unknown>;
  return module[name];
}

const errorsDoc = readFileSync(join(root, 'docs/errors.md'), 'utf8');
/** The class tables of docs/errors.md: `| \`Class\` | \`CODE\` | … |` or `(base)`. */
const docRows = [...errorsDoc.matchAll(/^\| `(\w+)` \| (?:`((?:HARNESS|VFS)_ERR_[A-Z_]+)`|\(base\)) \|/gm)].map(([, cls = '', code]) => ({ cls, code }));
const sourceCodes = new Set([...texts.values()].flatMap((text) => text.match(/'(?:HARNESS|VFS)_ERR_[A-Z_]+'/g) ?? []).map((code) => code.slice(1, -1)));
const declared = declaredErrorClasses();
const coded = [...declared.keys()].filter((name) => !CONTROL_FLOW_ERRORS.has(name) && !BASES.has(name)).sort();

/** A value whose every trap throws: a guard must say no, not throw. */
const hostile = new Proxy(
  {},
  Object.fromEntries(['get', 'has', 'getPrototypeOf', 'ownKeys', 'getOwnPropertyDescriptor'].map((trap) => [trap, () => { throw new Error('trap'); }])),
);

describe('error codes', () => {
  it('finds the error classes in the sources and the docs', () => {
    expect(coded.length).toBeGreaterThan(15);
    expect(docRows.length).toBeGreaterThan(15);
  });

  it('knows every public subpath of both packages', () => {
    for (const [pkg, entries] of Object.entries(PUBLIC_ENTRIES)) {
      const manifest = JSON.parse(readFileSync(join(root, pkg, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
      expect(Object.keys(manifest.exports).filter((key) => key !== './package.json').sort(), pkg).toEqual(Object.keys(entries).sort());
    }
  });

  it('declares each error class once, so the docs can name it', () => {
    for (const [name, where] of declared) expect(where.map((file) => relative(root, file)), name).toHaveLength(1);
  });

  it('gives every error class a public entry exports a code, unless it is a documented base', async () => {
    for (const [name, { entries }] of await publicErrorClasses()) {
      expect(declared.has(name), `${name} (exported from ${entries.join(', ')}) was not found by the source scan`).toBe(true);
      expect(CONTROL_FLOW_ERRORS.has(name), `${name} is exported from ${entries.join(', ')}: give it a code instead`).toBe(false);
    }
  });

  it.each(coded)('%s has a sample here: give a new error class a code, a docs row and a sample', (name) => {
    expect(samples.has(name)).toBe(true);
  });

  it.each(coded)('%s is exported from its module and carries a documented code', async (name) => {
    const [file = ''] = declared.get(name) ?? [];
    const cls = await loadClass(file, name);
    expect(isErrorClass(cls), `${name} must be exported from ${relative(root, file)}`).toBe(true);
    const make = samples.get(name);
    if (make === undefined || !isErrorClass(cls)) return;
    const error = make(cls as never) as Error & { code?: unknown };
    expect(error).toBeInstanceOf(cls);
    expect(error.name).toBe(name);
    expect(error.code).toMatch(/^(HARNESS|VFS)_ERR_[A-Z_]+$/);
    expect(docRows, 'docs/errors.md needs a row `| `Class` | `CODE` | thrown when |`').toContainEqual({ cls: name, code: error.code });
  });

  it('gives each code to one class (or says why in SHARED_CODES)', () => {
    const byCode = new Map<string, string[]>();
    for (const { cls, code } of docRows) {
      if (code !== undefined) byCode.set(code, [...(byCode.get(code) ?? []), cls]);
    }
    for (const [code, classes] of byCode) {
      if (!SHARED_CODES.has(code)) expect(classes, code).toHaveLength(1);
    }
  });

  it('documents only classes and codes that exist', () => {
    for (const { cls, code } of docRows) {
      expect(declared.has(cls), `docs/errors.md names ${cls}`).toBe(true);
      if (code !== undefined) expect(sourceCodes.has(code), `docs/errors.md lists ${code}`).toBe(true);
    }
    for (const name of BASES.keys()) expect(docRows).toContainEqual({ cls: name, code: undefined });
  });

  it.each([...sourceCodes].sort())('%s, used in the sources, is documented', (code) => {
    expect(errorsDoc).toContain(`\`${code}\``);
  });

  describe('isInstance', () => {
    const instances = coded.flatMap((name) => {
      const make = samples.get(name);
      const file = declared.get(name)?.[0];
      return make === undefined || file === undefined ? [] : [{ name, file, make }];
    });

    it.each(instances.map((entry) => [entry.name, entry] as const))('%s.isInstance knows its own, across copies of the package, and nothing else', async (name, { file, make }) => {
      const cls = (await loadClass(file, name)) as ErrorClass & { isInstance?: (value: unknown) => boolean };
      const guard = cls.isInstance;
      expect(typeof guard, `${name} needs a static isInstance`).toBe('function');
      if (guard === undefined) return;
      const isInstance = guard.bind(cls);
      const own = make(cls as never);
      expect(isInstance(own)).toBe(true);

      // A second copy of the module: a class of another install, which `instanceof` does not know.
      const copy = await loadClass(file, name, '?another-copy');
      expect(copy).not.toBe(cls);
      const foreign = make(copy as never);
      expect(foreign).not.toBeInstanceOf(cls);
      expect(isInstance(foreign)).toBe(true);

      const base = [...BASES.values()].find((candidate) => own instanceof candidate) as { isInstance(value: unknown): boolean } | undefined;
      expect(base?.isInstance(own), `${name} extends HarnessError or VfsError`).toBe(true);

      for (const other of instances) {
        if (other.name === name) continue;
        const otherCls = await loadClass(other.file, other.name);
        const otherError = other.make(otherCls as never);
        expect(isInstance(otherError), `${name}.isInstance(${other.name})`).toBe(otherError instanceof cls);
      }
      for (const value of [new Error('plain'), { name, code: (own as { code?: unknown }).code }, null, undefined, name, 0, hostile]) {
        expect(isInstance(value)).toBe(false);
      }
    });

    it.each([...BASES])('%s.isInstance is safe for any value', (_name, base) => {
      const isInstance = (base as unknown as { isInstance(value: unknown): boolean }).isInstance.bind(base);
      for (const value of [new Error('plain'), null, undefined, 'x', hostile]) expect(isInstance(value)).toBe(false);
    });
  });
});
