import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { negotiateCapabilities } from '../execution/negotiate-capabilities.js';
import type { ExecutionAdapter, ExecutionCapabilities } from '../execution/types.js';
import { PLAIN_CAPABILITIES, turnInput } from '../local/__fixtures__/test-helpers.js';
import { throwingProxy } from './__fixtures__/hostile-values.js';
import { createHarness } from './create-harness.js';
import { defineExecutionAdapter } from './define-execution-adapter.js';
import { HarnessConfigError } from './errors/harness-config-error.js';

const capabilities: ExecutionCapabilities = PLAIN_CAPABILITIES;

function echoAdapter(): ExecutionAdapter {
  return {
    backendId: 'echo',
    describeCapabilities: () => ({ ...capabilities }),
    negotiate: (request) => negotiateCapabilities(capabilities, request),
    execute: async (request) => ({ backendId: 'echo', status: 'completed', output: { text: `echo: ${request.message.text}` } }),
  };
}

class EchoEngine implements ExecutionAdapter {
  readonly backendId = 'echo-class';
  readonly #prefix = 'class echo: ';
  describeCapabilities(): ExecutionCapabilities {
    return { ...capabilities };
  }
  negotiate(request: Parameters<ExecutionAdapter['negotiate']>[0]) {
    return negotiateCapabilities(capabilities, request);
  }
  async execute(request: Parameters<ExecutionAdapter['execute']>[0]) {
    return { backendId: this.backendId, status: 'completed' as const, output: { text: `${this.#prefix}${request.message.text}` } };
  }
}

describe('defineExecutionAdapter', () => {
  it('makes a hand-written object a backend createHarness runs, and returns the same object', async () => {
    const adapter = echoAdapter();
    const defined = defineExecutionAdapter(adapter);
    expect(defined).toBe(adapter);
    const result = await createHarness({ backend: defined }).runTurn(turnInput('hi'));
    expect(result).toMatchObject({ outcome: 'completed', stopReason: 'answer_finalized', assistantMessage: { text: 'echo: hi' } });
  });

  it('works for an instance of a class with private fields (its methods keep their own this)', async () => {
    const result = await createHarness({ backend: defineExecutionAdapter(new EchoEngine()) }).runTurn(turnInput('hi'));
    expect(result.assistantMessage?.text).toBe('class echo: hi');
  });

  it('adds nothing visible: keys, JSON and spreads of the adapter are unchanged; a second call is harmless', () => {
    const adapter = echoAdapter();
    const keys = Object.keys(adapter);
    defineExecutionAdapter(defineExecutionAdapter(adapter));
    expect(Object.keys(adapter)).toEqual(keys);
    expect(JSON.stringify(adapter)).toBe(JSON.stringify(echoAdapter()));
    expect(Object.getOwnPropertySymbols({ ...adapter })).toEqual([]);
  });

  it('refuses a backend made without it at createHarness, naming the fix, before any turn runs', () => {
    let executed = false;
    const plain = { ...echoAdapter(), execute: async () => ((executed = true), { backendId: 'echo', status: 'completed' as const }) };
    const error = (() => {
      try {
        createHarness({ backend: plain });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(HarnessConfigError);
    expect(error).toMatchObject({ field: 'backend', message: expect.stringContaining('defineExecutionAdapter(adapter)') });
    expect(executed).toBe(false);
  });

  it('refuses a wrapper that spreads a defined adapter (the runner is not an own enumerable property)', () => {
    const defined = defineExecutionAdapter(echoAdapter());
    expect(() => createHarness({ backend: { ...defined } })).toThrow(HarnessConfigError);
  });

  it.each([
    ['null', null],
    ['a string', 'echo'],
    ['no backendId', { ...echoAdapter(), backendId: undefined }],
    ['an empty backendId', { ...echoAdapter(), backendId: '' }],
    ['a missing execute', { ...echoAdapter(), execute: undefined }],
    ['a frozen object', Object.freeze(echoAdapter())],
    ['a Proxy that throws', throwingProxy()],
  ])('throws HarnessConfigError for %s', (_label, value) => {
    expect(() => defineExecutionAdapter(value as ExecutionAdapter)).toThrow(HarnessConfigError);
  });

  it('refuses a Proxy whose reads throw at createHarness with HarnessConfigError, not its error', () => {
    expect(() => createHarness({ backend: throwingProxy() as ExecutionAdapter })).toThrow(HarnessConfigError);
  });
});

describe('defineExecutionAdapter across two copies of the package (the dual-package hazard)', () => {
  it('an adapter defined by the CommonJS build runs under a harness of the ESM build, and the other way round', async () => {
    const dist = (file: string) => fileURLToPath(new URL(`../../dist/${file}`, import.meta.url));
    expect(existsSync(dist('index.cjs')), 'build the package first (npm test does)').toBe(true);
    type Entry = { createHarness: typeof createHarness; defineExecutionAdapter: typeof defineExecutionAdapter };
    const commonJs = createRequire(import.meta.url)(dist('index.cjs')) as Entry;
    const esm = (await import(pathToFileURL(dist('index.js')).href)) as Entry;
    expect(commonJs.defineExecutionAdapter).not.toBe(esm.defineExecutionAdapter);
    for (const [maker, runner] of [
      [commonJs, esm],
      [esm, commonJs],
    ] as const) {
      const result = await runner.createHarness({ backend: maker.defineExecutionAdapter(echoAdapter()) }).runTurn(turnInput('hi'));
      expect(result.assistantMessage?.text).toBe('echo: hi');
    }
  });
});
