import { closestName } from './closest-name.js';

/** One flag of a command line: takes a value (`placeholder` names it in messages) or is a switch; may repeat. */
export interface CommandLineFlag {
  takesValue: boolean;
  /** The value's name in the "needs a value" message, e.g. `FILE`. */
  placeholder?: string | undefined;
  /** The flag may be given more than once (values collect in order). */
  repeat?: boolean | undefined;
}

/** A token of `node:util` `parseArgs` (with `tokens: true`). */
export type CommandLineToken =
  | { kind: 'option'; index: number; name: string; rawName: string; value: string | undefined; inlineValue: boolean | undefined }
  | { kind: 'positional'; index: number; value: string }
  | { kind: 'option-terminator'; index: number };

/** `node:util` `parseArgs`, the call made here: tokens only, nothing refused (this module does the refusing). */
export type ParseArgsFunction = (config: {
  args: string[];
  options: Record<string, { type: 'string' | 'boolean'; short?: string }>;
  strict: false;
  allowPositionals: true;
  tokens: true;
}) => { tokens?: CommandLineToken[] | undefined };

/** What {@link parseCommandLine} read, or why it refused the command line. */
export type CommandLineResult =
  | { ok: true; values: ReadonlyMap<string, readonly string[]>; help: boolean }
  | { ok: false; field: string; message: string };

/** An unknown argument is quoted in the message up to this many characters. */
const SHOWN_ARGUMENT_CHARS = 80;

/**
 * Reads `--name value`, `--name=value`, switches and `-h` / `--help` with `parseArgs` (passed in,
 * so this module loads no Node built-in), refusing unknown flags (naming the closest known one
 * within two edits), stray arguments, missing values, values given to switches and repeats of
 * flags that do not repeat. `program` is the command as typed (`agent-assistant run`), for the
 * messages. Flag names are the caller's; what is typed is only compared with them.
 */
export function parseCommandLine(
  parseArgs: ParseArgsFunction,
  argv: readonly string[],
  flags: ReadonlyMap<string, CommandLineFlag>,
  program: string,
): CommandLineResult {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = Object.create(null) as Record<string, never>;
  for (const [name, flag] of flags) options[name] = { type: flag.takesValue ? 'string' : 'boolean' };
  options.help = { type: 'boolean', short: 'h' };
  const { tokens = [] } = parseArgs({ args: [...argv], options, strict: false, allowPositionals: true, tokens: true });
  const values = new Map<string, string[]>();
  let help = false;
  const refuse = (field: string, message: string): CommandLineResult => ({ ok: false, field, message });
  for (const token of tokens) {
    const raw = argv[token.index] ?? '';
    if (token.kind === 'option' && token.name === 'help' && token.value === undefined && !flags.has('help')) {
      help = true;
      continue;
    }
    const flag = token.kind === 'option' && token.rawName.startsWith('--') ? flags.get(token.name) : undefined;
    if (token.kind !== 'option' || flag === undefined) return refuse('argv', unknownArgument(raw, flags, program));
    const { name } = token;
    let value = token.value;
    if (!flag.takesValue) {
      if (value !== undefined) return refuse(name, `--${name} takes no value.`);
      value = 'true';
    } else if (value === undefined || (token.inlineValue !== true && value.startsWith('--') && value.length > 2)) {
      return refuse(name, `--${name} needs a value${flag.placeholder === undefined ? '' : ` (${flag.placeholder})`}.`);
    }
    const list = values.get(name) ?? [];
    if (list.length > 0 && flag.repeat !== true) return refuse(name, `--${name} is given twice; give it once.`);
    list.push(value);
    values.set(name, list);
  }
  return { ok: true, values, help };
}

/** "Unknown argument …", with the closest known flag when one is near. */
function unknownArgument(raw: string, flags: ReadonlyMap<string, CommandLineFlag>, program: string): string {
  const near = raw.startsWith('-') ? closestName(/^-+([^=]*)/.exec(raw)?.[1] ?? '', flags.keys()) : undefined;
  return `Unknown argument ${JSON.stringify(raw.slice(0, SHOWN_ARGUMENT_CHARS))} for \`${program}\`.${
    near === undefined ? '' : ` Did you mean --${near}?`
  } See \`${program} --help\`.`;
}
