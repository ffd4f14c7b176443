/** Joins a normalised directory path and a child name. */
export function joinVfsPath(directory: string, name: string): string {
  return directory === '/' ? `/${name}` : `${directory}/${name}`;
}

/** The segments of a normalised path (`/` has none). */
export function vfsPathSegments(path: string): string[] {
  return path === '/' ? [] : path.slice(1).split('/');
}

/** The last segment of a normalised path (`''` for `/`). */
export function vfsBasename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Orders names by UTF-16 code units, the order every provider lists children in. */
export function compareNames(left: string, right: string): number {
  if (left === right) return 0;
  return left < right ? -1 : 1;
}
