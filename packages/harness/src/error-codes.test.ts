import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return name === '__fixtures__' ? [] : sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : [];
  });
}

const files = [...sourceFiles(join(root, 'packages/harness/src')), ...sourceFiles(join(root, 'packages/vfs/src'))];
const codes = new Set(files.flatMap((file) => readFileSync(file, 'utf8').match(/'(?:HARNESS|VFS)_ERR_[A-Z_]+'/g) ?? []).map((code) => code.slice(1, -1)));
const errorsDoc = readFileSync(join(root, 'docs/errors.md'), 'utf8');

describe('error codes', () => {
  it('are found in the sources', () => {
    expect(codes.size).toBeGreaterThan(5);
  });

  it.each([...codes])('%s is documented in docs/errors.md', (code) => {
    expect(code).toMatch(/^(HARNESS|VFS)_ERR_[A-Z_]+$/);
    expect(errorsDoc).toContain(`\`${code}\``);
  });

  it('each error class file declares a Symbol.for marker and isInstance', () => {
    const errorFiles = files.filter((file) => /extends (HarnessError|VfsError|Error)\b/.test(readFileSync(file, 'utf8')) && file.endsWith('-error.ts'));
    expect(errorFiles.length).toBeGreaterThan(5);
    for (const file of errorFiles) {
      const text = readFileSync(file, 'utf8');
      expect(text, file).toMatch(/Symbol\.for\('agent-assistant\./);
      expect(text, file).toMatch(/static (override )?isInstance/);
    }
  });
});
