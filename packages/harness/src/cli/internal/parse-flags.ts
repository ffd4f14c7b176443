import { parseArgs } from 'node:util';
import { parseCommandLine, type CommandLineFlag } from '../../shared/parse-command-line.js';
import { usageError } from './cli-usage-error.js';

/** One flag of a command: takes a value, or is a switch; may repeat. */
export interface FlagSpec {
  /** Value placeholder for the help, e.g. `FILE`; absent for a switch. */
  value?: string | undefined;
  /** Help text. */
  help: string;
  /** The flag may be given more than once (values collect in order). */
  repeat?: boolean | undefined;
}

/** Flags by name (without `--`). */
export type FlagSpecs = Readonly<Record<string, FlagSpec>>;

/** Parsed flags: values by name (null-prototype), switches as `'true'`. */
export interface ParsedFlags {
  values: ReadonlyMap<string, readonly string[]>;
  help: boolean;
}

/**
 * Reads `--name value`, `--name=value` and switches with `node:util` `parseArgs`, refusing unknown
 * flags (naming the closest one), stray arguments, missing values and repeats of flags that do
 * not repeat.
 * @throws HarnessConfigError (a usage error) naming the flag and how to fix it.
 */
export function parseFlags(argv: readonly string[], specs: FlagSpecs, command: string): ParsedFlags {
  const flags = new Map<string, CommandLineFlag>(
    Object.entries(specs).map(([name, spec]) => [name, { takesValue: spec.value !== undefined, placeholder: spec.value, repeat: spec.repeat }]),
  );
  const parsed = parseCommandLine(parseArgs, argv, flags, `agent-assistant ${command}`);
  if (!parsed.ok) throw usageError(parsed.message, parsed.field);
  return { values: parsed.values, help: parsed.help };
}

/** The help lines of a command's flags. */
export function flagHelp(specs: FlagSpecs): string[] {
  return Object.entries(specs).map(([name, spec]) => {
    const head = `--${name}${spec.value === undefined ? '' : ` ${spec.value}`}`;
    return `  ${head.padEnd(30)} ${spec.help}`;
  });
}

/** The one value of a flag, if given. */
export function flagValue(flags: ParsedFlags, name: string): string | undefined {
  return flags.values.get(name)?.[0];
}

/** Whether a switch was given. */
export function flagSwitch(flags: ParsedFlags, name: string): boolean {
  return flags.values.has(name);
}

/**
 * A positive integer flag within bounds.
 * @throws HarnessConfigError when it is not one.
 */
export function integerFlag(flags: ParsedFlags, name: string, min: number, max: number): number | undefined {
  const text = flagValue(flags, name);
  if (text === undefined) return undefined;
  const number = /^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  if (!Number.isSafeInteger(number) || number < min || number > max) {
    throw usageError(`--${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(text.slice(0, 40))}.`, name);
  }
  return number;
}

/**
 * A non-negative decimal flag (e.g. a budget).
 * @throws HarnessConfigError when it is not one.
 */
export function numberFlag(flags: ParsedFlags, name: string): number | undefined {
  const text = flagValue(flags, name);
  if (text === undefined) return undefined;
  const number = /^\d+(\.\d+)?$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  if (!Number.isFinite(number))
    throw usageError(`--${name} must be a non-negative number such as 0.25, got ${JSON.stringify(text.slice(0, 40))}.`, name);
  return number;
}
