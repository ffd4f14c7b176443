import { expect, it } from 'vitest';
import { VFS_PLACEHOLDER } from './index.js';

it('loads', () => {
  expect(VFS_PLACEHOLDER).toBe(true);
});
