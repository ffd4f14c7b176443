import { describe, expect, it } from 'vitest';
import { VfsInvalidPathError, VfsPathEscapeError } from './errors/index.js';
import { MAX_VFS_PATH_LENGTH, normalizeVfsPath } from './normalize-vfs-path.js';

describe('normalizeVfsPath', () => {
  it.each([
    ['', '/'],
    ['/', '/'],
    ['   ', '/'],
    ['docs', '/docs'],
    ['/docs/', '/docs'],
    ['//docs///guide//', '/docs/guide'],
    ['./docs/./a.md', '/docs/a.md'],
    ['  /docs/a b.md  ', '/docs/a b.md'],
    ['/etc/passwd', '/etc/passwd'],
    ['/ünïcødé/日本.md', '/ünïcødé/日本.md'],
    ['/a/...', '/a/...'],
    ['/a/..b/c..', '/a/..b/c..'],
  ])('normalises %j to %j', (input, expected) => {
    expect(normalizeVfsPath(input)).toBe(expected);
  });

  it.each(['..', '../secret', '/docs/../../etc/passwd', 'docs/..', '/a/b/../c'])('refuses the ".." in %j', (input) => {
    const error = catchError(() => normalizeVfsPath(input));
    expect(error).toBeInstanceOf(VfsPathEscapeError);
    expect(error).toMatchObject({ code: 'VFS_ERR_PATH_ESCAPE' });
  });

  it.each(['C:\\Windows\\win.ini', 'c:/windows', 'Z:'])('refuses the drive-letter path %j', (input) => {
    const error = catchError(() => normalizeVfsPath(input));
    // A backslash is refused first as an invalid path; a forward-slash drive path is an escape.
    expect(['VFS_ERR_PATH_ESCAPE', 'VFS_ERR_INVALID_PATH']).toContain((error as VfsPathEscapeError).code);
  });

  it('reports a forward-slash drive-letter path as an escape', () => {
    expect(catchError(() => normalizeVfsPath('c:/windows'))).toBeInstanceOf(VfsPathEscapeError);
  });

  it.each([
    ['/docs/a\u0000.md', 'NUL byte'],
    ['/docs/\u0007bell', 'control character'],
    ['/docs/line\nbreak', 'control character'],
    ['..\\..\\secret', 'backslash'],
  ])('refuses %j (%s)', (input, reason) => {
    const error = catchError(() => normalizeVfsPath(input));
    expect(error).toBeInstanceOf(VfsInvalidPathError);
    expect((error as Error).message).toContain(reason);
  });

  it('refuses non-strings and over-long paths', () => {
    expect(catchError(() => normalizeVfsPath(42 as unknown as string))).toBeInstanceOf(VfsInvalidPathError);
    expect(catchError(() => normalizeVfsPath(`/${'a'.repeat(MAX_VFS_PATH_LENGTH)}`))).toBeInstanceOf(VfsInvalidPathError);
    expect(normalizeVfsPath(`/${'a'.repeat(MAX_VFS_PATH_LENGTH - 1)}`)).toHaveLength(MAX_VFS_PATH_LENGTH);
  });

  it('shows a NUL byte visibly in the error path', () => {
    const error = catchError(() => normalizeVfsPath('/a\u0000b')) as VfsInvalidPathError;
    expect(error.path).toBe('/a\\u0000b');
  });
});

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}
