import { describe, expect, it } from 'vitest';
import {
  VFS_ERROR_CODES,
  VfsError,
  VfsInvalidOptionError,
  VfsInvalidPathError,
  VfsIoError,
  VfsIsADirectoryError,
  VfsNotADirectoryError,
  VfsNotFoundError,
  VfsPathEscapeError,
} from './index.js';

const samples = [
  new VfsNotFoundError('m', { path: '/a' }),
  new VfsPathEscapeError('m'),
  new VfsInvalidPathError('m'),
  new VfsInvalidOptionError('m', { field: 'limit' }),
  new VfsNotADirectoryError('m'),
  new VfsIsADirectoryError('m'),
  new VfsIoError('m', { cause: new Error('EACCES') }),
];

describe('VFS errors', () => {
  it('have unique, documented VFS_ERR_ codes covering VFS_ERROR_CODES', () => {
    const codes = samples.map((error) => error.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(code).toMatch(/^VFS_ERR_[A-Z_]+$/);
    expect([...codes].sort()).toEqual([...VFS_ERROR_CODES].sort());
  });

  it('are VfsErrors and Errors with their own names', () => {
    for (const error of samples) {
      expect(error).toBeInstanceOf(Error);
      expect(error).toBeInstanceOf(VfsError);
      expect(VfsError.isInstance(error)).toBe(true);
      expect(error.name).toBe(error.constructor.name);
    }
  });

  it('recognise instances by marker, not by class identity', () => {
    const foreign = Object.assign(Object.create(null) as object, {
      [Symbol.for('agent-assistant.error.VfsNotFoundError')]: true,
      [Symbol.for('agent-assistant.error.VfsError')]: true,
    });
    expect(VfsNotFoundError.isInstance(foreign)).toBe(true);
    expect(VfsError.isInstance(foreign)).toBe(true);
    expect(VfsPathEscapeError.isInstance(foreign)).toBe(false);
    expect(VfsNotFoundError.isInstance(new VfsPathEscapeError('m'))).toBe(false);
    expect(VfsError.isInstance(new Error('plain'))).toBe(false);
    expect(VfsError.isInstance(null)).toBe(false);
  });

  it('keep path, field and cause', () => {
    expect(samples[0]!.path).toBe('/a');
    expect((samples[3] as VfsInvalidOptionError).field).toBe('limit');
    expect((samples[6]!.cause as Error).message).toBe('EACCES');
  });
});
