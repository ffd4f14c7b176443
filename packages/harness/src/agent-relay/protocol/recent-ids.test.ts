import { describe, expect, it } from 'vitest';
import { RecentIds } from './recent-ids.js';

describe('RecentIds', () => {
  it('reports repeats within its capacity and forgets the oldest beyond it', () => {
    const ids = new RecentIds(2);
    expect([ids.add('a'), ids.add('a'), ids.add('__proto__'), ids.add('__proto__')]).toEqual([true, false, true, false]);
    ids.add('c');
    expect(ids.add('a')).toBe(true);
    expect(ids.add('c')).toBe(false);
  });
});
