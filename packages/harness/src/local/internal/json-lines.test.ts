import { describe, expect, it } from 'vitest';
import { firstJsonObject, jsonLines } from './json-lines.js';

describe('jsonLines / firstJsonObject', () => {
  it('keeps only the JSON object lines', () => {
    expect(jsonLines('WARNING: noise\n{"a":1}\n\n[1,2]\n{"b":\n{"c":3}\r\n')).toEqual([{ a: 1 }, { c: 3 }]);
  });

  it('finds a pretty-printed object after other output', () => {
    expect(firstJsonObject('Warning: x\n{ not json\n{\n  "session_id": "s",\n  "response": "hi"\n}')).toEqual({ session_id: 's', response: 'hi' });
    expect(firstJsonObject('no json here')).toBeUndefined();
  });
});
