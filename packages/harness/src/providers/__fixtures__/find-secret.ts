/**
 * Where `secret` can be read in `value`: in any string or key, as is or after decoding JSON
 * `\uXXXX` and short escapes (once or twice). Returns the paths that reveal it (empty: nowhere).
 * Walks iteratively, so deep values cannot overflow the stack.
 */
export function findSecret(value: unknown, secret: string): string[] {
  const found: string[] = [];
  const seen = new Set<object>();
  const stack: [unknown, string][] = [[value, '$']];
  while (stack.length > 0) {
    const [current, path] = stack.pop()!;
    if (typeof current === 'string') {
      if (reveals(current, secret)) found.push(path);
      continue;
    }
    if (typeof current !== 'object' || current === null || seen.has(current)) continue;
    seen.add(current);
    for (const [key, child] of Object.entries(current)) {
      if (reveals(key, secret)) found.push(`${path}[key ${key}]`);
      stack.push([child, `${path}.${key}`]);
    }
  }
  return found;
}

function reveals(text: string, secret: string): boolean {
  const once = unescapeJson(text);
  return text.includes(secret) || once.includes(secret) || unescapeJson(once).includes(secret);
}

function unescapeJson(text: string): string {
  return text.replace(/\\(u[0-9a-fA-F]{4}|["\\/bfnrt])/g, (_match, code: string) => {
    if (code.length === 5) return String.fromCharCode(Number.parseInt(code.slice(1), 16));
    return ({ b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' } as Record<string, string>)[code] ?? code;
  });
}

/** Writes every character of `text` as a JSON `\uXXXX` escape (upper- or lower-case hex). */
export function escapeAll(text: string, upper = false): string {
  return [...text].map((char) => {
    const hex = char.charCodeAt(0).toString(16).padStart(4, '0');
    return `\\u${upper ? hex.toUpperCase() : hex}`;
  }).join('');
}
