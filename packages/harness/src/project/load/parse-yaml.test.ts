import { describe, expect, it } from 'vitest';
import { MAX_YAML_DEPTH, MAX_YAML_NODES, parseYaml, type YamlValue } from './parse-yaml.js';

describe('parseYaml', () => {
  it('keeps the line of every key and value, shifted by firstLine', async () => {
    const parsed = await parseYaml('a: 1\nb:\n  - x\n  - y: true\nc:\n', { firstLine: 2 });
    expect(parsed.errors).toEqual([]);
    const map = parsed.value as Extract<YamlValue, { kind: 'map' }>;
    expect([...map.entries.values()].map((entry) => [entry.key, entry.line])).toEqual([
      ['a', 2],
      ['b', 3],
      ['c', 6],
    ]);
    expect(map.entries.get('c')!.value).toEqual({ kind: 'scalar', value: null, line: 6 });
    const list = map.entries.get('b')!.value as Extract<YamlValue, { kind: 'list' }>;
    expect(list.items.map((item) => item.line)).toEqual([4, 5]);
  });

  it('uses YAML 1.2: yes, no and on stay text', async () => {
    const map = (await parseYaml('a: yes\nb: no\nc: on\nd: 0x10\n')).value as Extract<YamlValue, { kind: 'map' }>;
    expect([...map.entries.values()].map((entry) => (entry.value as { value: unknown }).value)).toEqual(['yes', 'no', 'on', 16]);
  });

  it('reports errors at their line, and more than one document', async () => {
    expect((await parseYaml('a: 1\nb: [\n', { firstLine: 10 })).errors[0]!.line).toBeGreaterThanOrEqual(11);
    expect((await parseYaml('a: 1\n---\nb: 2\n')).errors).toEqual([{ line: 2, message: 'More than one YAML document; a project file holds one.' }]);
    expect((await parseYaml('a: 1\na: 2\n')).errors).toMatchObject([{ line: 2 }]);
  });

  it('refuses nesting deeper than MAX_YAML_DEPTH before composing, again and again (the deep input once exhausted the stack)', async () => {
    // Composing this input twice in one process once ended Node with a fatal out-of-memory error.
    for (const [text, attempts] of [['- '.repeat(20_000) + 'x', 2], ['['.repeat(60_000), 1], ['{a: '.repeat(15_000), 1]] as const) {
      for (let attempt = 0; attempt < attempts; attempt += 1) {
        const parsed = await parseYaml(text);
        expect(parsed.value).toBeUndefined();
        expect(parsed.errors).toEqual([{ line: 1, message: `YAML nested more than ${MAX_YAML_DEPTH} levels deep.` }]);
      }
    }
    const ok = `${'- '.repeat(MAX_YAML_DEPTH)}x`;
    expect((await parseYaml(ok)).errors).toEqual([]);
  });

  it('stops an alias bomb at MAX_YAML_NODES', async () => {
    const lines = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let level = 1; level < 9; level += 1) lines.push(`${String.fromCharCode(97 + level)}: &${String.fromCharCode(97 + level)} [${Array(10).fill(`*${String.fromCharCode(96 + level)}`).join(', ')}]`);
    const parsed = await parseYaml(lines.join('\n'));
    expect(parsed.value).toBeUndefined();
    expect(parsed.errors[0]!.message).toBe(`YAML expands to more than ${MAX_YAML_NODES} values (aliases included).`);
  });

  it('keeps __proto__ as a plain key and refuses non-text keys', async () => {
    const map = (await parseYaml('__proto__: 1\nconstructor: 2\n')).value as Extract<YamlValue, { kind: 'map' }>;
    expect([...map.entries.keys()]).toEqual(['__proto__', 'constructor']);
    expect((await parseYaml('[a]: 1\n')).errors).toEqual([{ line: 1, message: 'A mapping key must be plain text.' }]);
    expect((await parseYaml('1: a\n"1": b\n')).errors).toEqual([{ line: 2, message: 'Duplicate key "1".' }]);
  });

  it('caps the errors reported for one file', async () => {
    const parsed = await parseYaml(Array.from({ length: 30 }, (_, index) => `k${index}: [`).join('\n'));
    expect(parsed.errors.length).toBeLessThanOrEqual(11);
  });

  it('parses JSON with the JSON schema', async () => {
    const parsed = await parseYaml('{"a": [1, true, null], "b": {"c": "d"}}', { json: true });
    expect(parsed.errors).toEqual([]);
    expect((await parseYaml('{a: 1}', { json: true })).errors).not.toEqual([]);
  });
});
