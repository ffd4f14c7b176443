import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { brokerBinaryPath } from './__fixtures__/broker-rig.js';

const require = createRequire(import.meta.url);
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, Record<string, string> | string | undefined>;

describe('the broker the broker tests start', () => {
  it('is the binary @agent-relay/harness-driver brings for this platform, not one this package pins', () => {
    const manifest = readJson(fileURLToPath(new URL('../../package.json', import.meta.url)));
    const pinned = Object.keys({ ...(manifest.dependencies as object), ...(manifest.devDependencies as object) });
    expect(pinned.filter((name) => name.startsWith('@agent-relay/broker-'))).toEqual([]);

    const driverManifestPath = require.resolve('@agent-relay/harness-driver/package.json');
    const driver = readJson(driverManifestPath);
    const platformPackage = `@agent-relay/broker-${process.platform}-${process.arch}`;
    expect(Object.keys(driver.optionalDependencies as object)).toContain(platformPackage);

    const binary = brokerBinaryPath();
    expect(binary, `${platformPackage} is not installed beside the driver`).toBeDefined();
    const brokerPackageDir = dirname(createRequire(driverManifestPath).resolve(`${platformPackage}/package.json`));
    expect(binary!.startsWith(`${brokerPackageDir}${sep}`)).toBe(true);
    expect(execFileSync(binary!, ['--version'], { encoding: 'utf8', timeout: 10_000 }).trim()).toBe(`agent-relay-broker ${String(driver.version)}`);
  });
});
