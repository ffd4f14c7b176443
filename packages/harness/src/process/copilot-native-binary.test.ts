// resolveCopilotNativeBinary on npm layouts built in temp dirs (the shapes of @github/copilot 1.0.102:
// bin `copilot` → npm-loader.js, the native binary in @github/copilot-<platform>-<arch>, exports ".": "./copilot").
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../local/__fixtures__/test-helpers.js';
import { resolveCopilotNativeBinary } from './copilot-native-binary.js';
import { loadNodeModules } from './load-node-modules.js';

afterEach(cleanupTempDirs);

const platformPackage = `copilot-${process.platform}-${process.arch}`;

function executable(path: string): string {
  writeFileSync(path, '#!/bin/sh\n');
  chmodSync(path, 0o755);
  return path;
}

/** node_modules with the shim package, `.bin/copilot` linked to it, and the platform package at `nativeDir` (relative to node_modules) when given. */
function layout(nativeDir: string | undefined, manifest: object = { exports: { '.': './copilot' } }) {
  const modules = join(tempDir('copilot-layout-'), 'node_modules');
  mkdirSync(join(modules, '@github', 'copilot'), { recursive: true });
  mkdirSync(join(modules, '.bin'));
  executable(join(modules, '@github', 'copilot', 'npm-loader.js'));
  symlinkSync('../@github/copilot/npm-loader.js', join(modules, '.bin', 'copilot'));
  let native: string | undefined;
  if (nativeDir !== undefined) {
    const dir = join(modules, nativeDir);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest));
    native = executable(join(dir, 'copilot'));
  }
  return { modules, bin: join(modules, '.bin'), native };
}

describe('resolveCopilotNativeBinary', () => {
  it('finds the platform binary beside the shim (found on PATH through .bin), or nested under it', async () => {
    const node = await loadNodeModules();
    const beside = layout(join('@github', platformPackage));
    expect(await resolveCopilotNativeBinary(node, 'copilot', { PATH: beside.bin }, '/')).toEqual({ path: beside.native, fromShim: true });
    const nested = layout(join('@github', 'copilot', 'node_modules', '@github', platformPackage));
    expect(await resolveCopilotNativeBinary(node, join(nested.bin, 'copilot'), {}, '/')).toEqual({ path: nested.native, fromShim: true });
  });

  it('keeps the shim when no platform package is installed, a command that is no shim as found, and a missing command as given', async () => {
    const node = await loadNodeModules();
    const bare = layout(undefined);
    expect(await resolveCopilotNativeBinary(node, 'copilot', { PATH: bare.bin }, '/')).toEqual({ path: join(bare.bin, 'copilot'), fromShim: false, shimWithoutNative: `@github/${platformPackage}` });
    const plain = executable(join(tempDir(), 'copilot'));
    expect(await resolveCopilotNativeBinary(node, plain, {}, '/')).toEqual({ path: plain, fromShim: false });
    expect(await resolveCopilotNativeBinary(node, 'copilot', { PATH: tempDir() }, '/')).toEqual({ path: 'copilot', fromShim: false });
  });

  it('never follows an entry that leaves the platform package, and survives a broken manifest', async () => {
    const node = await loadNodeModules();
    const escaping = layout(join('@github', platformPackage), { exports: { '.': '../../.bin/copilot' } });
    expect((await resolveCopilotNativeBinary(node, 'copilot', { PATH: escaping.bin }, '/')).fromShim).toBe(false);
    const broken = layout(join('@github', platformPackage));
    writeFileSync(join(broken.modules, '@github', platformPackage, 'package.json'), '{not json');
    expect(await resolveCopilotNativeBinary(node, 'copilot', { PATH: broken.bin }, '/')).toEqual({ path: join(broken.bin, 'copilot'), fromShim: false, shimWithoutNative: `@github/${platformPackage}` });
  });
});
