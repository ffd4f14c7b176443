import type { ProjectLog } from './project-log.js';
import type { YamlEntry, YamlMap, YamlValue } from './parse-yaml.js';
import { quoteName } from './project-names.js';

/** Where problems about one file go: the log, the file's project-relative name. */
export interface FileScope {
  readonly log: ProjectLog;
  readonly file: string;
}

/** A short description of a YAML value's kind for messages. */
export function kindOf(value: YamlValue): string {
  if (value.kind === 'list') return 'a list';
  if (value.kind === 'map') return 'a mapping';
  if (value.value === null) return 'empty';
  return typeof value.value === 'string' ? 'text' : `${typeof value.value} ${String(value.value)}`;
}

/** Reports a problem about one key of the file. */
export function badValue(scope: FileScope, key: string, entry: { line: number }, message: string): void {
  scope.log.problem(scope.file, `${key} ${message}`, { key, line: entry.line });
}

/** Warns about every key of `map` that `known` does not hold: unknown keys are reported, not used. */
export function warnUnknownKeys(scope: FileScope, map: YamlMap, known: readonly string[], where: string, prefix = ''): void {
  for (const entry of map.entries.values()) {
    if (!known.includes(entry.key)) {
      scope.log.warning(scope.file, `Unknown key ${quoteName(entry.key)} in ${where} is ignored (known keys: ${known.join(', ')}).`, {
        key: `${prefix}${entry.key}`,
        line: entry.line,
      });
    }
  }
}

/** A non-empty text value, or undefined (a problem is reported unless the key is absent). */
export function readText(scope: FileScope, entry: YamlEntry | undefined, key: string, maxLength: number): string | undefined {
  if (entry === undefined) return undefined;
  const { value } = entry;
  if (value.kind !== 'scalar' || typeof value.value !== 'string' || value.value.trim() === '') {
    badValue(scope, key, entry, `must be non-empty text; got ${kindOf(value)}.`);
    return undefined;
  }
  if (value.value.length > maxLength) {
    badValue(scope, key, entry, `is longer than ${maxLength} characters.`);
    return undefined;
  }
  return value.value.trim();
}

/** A number in `[min, max]` (a whole one when `integer`), or undefined after a problem. */
export function readNumber(
  scope: FileScope,
  entry: YamlEntry | undefined,
  key: string,
  range: { min: number; max: number; integer?: boolean },
): number | undefined {
  if (entry === undefined) return undefined;
  const { value } = entry;
  const wanted = `${range.integer === true ? 'a whole number' : 'a number'} from ${range.min} to ${range.max}`;
  if (value.kind !== 'scalar' || typeof value.value !== 'number') {
    badValue(scope, key, entry, `must be ${wanted}; got ${kindOf(value)}.`);
    return undefined;
  }
  const number = value.value;
  if (number < range.min || number > range.max || (range.integer === true && !Number.isInteger(number))) {
    badValue(scope, key, entry, `must be ${wanted}; got ${number}.`);
    return undefined;
  }
  return number;
}

/** A list of names each matching `pattern`, duplicates dropped with a warning, or undefined after a problem. */
export function readNameList(scope: FileScope, entry: YamlEntry, key: string, pattern: RegExp, what: string): string[] | undefined {
  const { value } = entry;
  if (value.kind !== 'list') {
    badValue(scope, key, entry, `must be a list of ${what} names; got ${kindOf(value)}.`);
    return undefined;
  }
  const names: string[] = [];
  let ok = true;
  for (const item of value.items) {
    if (item.kind !== 'scalar' || typeof item.value !== 'string' || !pattern.test(item.value)) {
      const shown = item.kind === 'scalar' && typeof item.value === 'string' ? quoteName(item.value) : kindOf(item);
      scope.log.problem(scope.file, `${key} has ${shown}, which is not a valid ${what} name (${String(pattern)}).`, { key, line: item.line });
      ok = false;
      continue;
    }
    if (names.includes(item.value)) {
      scope.log.warning(scope.file, `${key} names ${quoteName(item.value)} twice.`, { key, line: item.line });
      continue;
    }
    names.push(item.value);
  }
  return ok ? names : undefined;
}
