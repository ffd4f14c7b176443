/** The commands of the `vfs` CLI. */
export type VfsCliCommand = 'list' | 'tree' | 'read' | 'search' | 'stat';

/** Parsed command line. */
export interface ParsedVfsCliArgs {
  command: VfsCliCommand | 'help';
  positionals: string[];
  json: boolean;
  root?: string;
  depth?: number;
  limit?: number;
  maxBytes?: number;
  provider?: string;
}

/** A mistake in the command line; the CLI prints it with the help text and exits 2. */
export class VfsCliUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VfsCliUsageError';
  }
}

const VALUE_FLAGS = ['root', 'depth', 'limit', 'max-bytes', 'provider'] as const;
type ValueFlag = (typeof VALUE_FLAGS)[number];
const INTEGER_FLAGS: ReadonlySet<string> = new Set(['depth', 'limit', 'max-bytes']);

/** Which flags (besides `--json` and `--root`) each command accepts, and its positional count. */
const COMMAND_RULES: Readonly<Record<VfsCliCommand, { flags: readonly ValueFlag[]; min: number; max: number }>> = {
  list: { flags: ['depth', 'limit'], min: 0, max: 1 },
  tree: { flags: ['depth', 'limit'], min: 0, max: 1 },
  read: { flags: ['max-bytes'], min: 1, max: 1 },
  search: { flags: ['limit', 'provider'], min: 1, max: Number.POSITIVE_INFINITY },
  stat: { flags: [], min: 1, max: 1 },
};

const STRICT_POSITIVE_INTEGER = /^[1-9][0-9]*$/;

/**
 * Parses `argv` (without the node and script paths). `--` ends flag parsing, `--name=value` and
 * `--name value` are both accepted, and numbers must be plain positive integers ("5x" and "1.5"
 * are refused).
 * @throws VfsCliUsageError for any mistake.
 */
export function parseVfsCliArgs(argv: readonly string[]): ParsedVfsCliArgs {
  const positionals: string[] = [];
  const values = new Map<ValueFlag, string>();
  let json = false;
  let help = false;
  let flagsEnded = false;
  for (let index = 0; index < argv.length; index += 1) {
    const token = argv[index]!;
    if (flagsEnded || !token.startsWith('-') || token === '-') {
      positionals.push(token);
      continue;
    }
    if (token === '--') {
      flagsEnded = true;
      continue;
    }
    if (token === '-h' || token === '--help') {
      help = true;
      continue;
    }
    if (!token.startsWith('--')) throw new VfsCliUsageError(`Unknown option ${token}.`);
    const equals = token.indexOf('=');
    const name = token.slice(2, equals === -1 ? undefined : equals);
    if (name === 'json') {
      if (equals !== -1) throw new VfsCliUsageError('--json takes no value.');
      json = true;
      continue;
    }
    if (!isValueFlag(name)) throw new VfsCliUsageError(`Unknown option --${name}.`);
    let value: string | undefined;
    if (equals !== -1) value = token.slice(equals + 1);
    else {
      value = argv[index + 1];
      if (value === undefined || value.startsWith('--')) throw new VfsCliUsageError(`--${name} needs a value.`);
      index += 1;
    }
    if (values.has(name)) throw new VfsCliUsageError(`--${name} was given twice.`);
    values.set(name, value);
  }

  const [first, ...rest] = positionals;
  if (help || first === undefined || first === 'help') return { command: 'help', positionals: [], json };
  if (!isCommand(first)) throw new VfsCliUsageError(`Unknown command "${first}".`);
  const rules = COMMAND_RULES[first];
  if (rest.length < rules.min) throw new VfsCliUsageError(`${first} needs ${rules.min === 1 ? 'an argument' : 'arguments'}.`);
  if (rest.length > rules.max) throw new VfsCliUsageError(`${first} takes at most ${rules.max} argument(s).`);

  const parsed: ParsedVfsCliArgs = { command: first, positionals: rest, json };
  for (const [name, value] of values) {
    if (name !== 'root' && !rules.flags.includes(name)) throw new VfsCliUsageError(`${first} does not take --${name}.`);
    if (INTEGER_FLAGS.has(name)) {
      if (!STRICT_POSITIVE_INTEGER.test(value) || !Number.isSafeInteger(Number(value))) {
        throw new VfsCliUsageError(`--${name} must be a positive integer; got "${value}".`);
      }
    } else if (value.trim() === '') {
      throw new VfsCliUsageError(`--${name} must not be empty.`);
    }
    assign(parsed, name, value);
  }
  return parsed;
}

function assign(parsed: ParsedVfsCliArgs, name: ValueFlag, value: string): void {
  switch (name) {
    case 'root':
      parsed.root = value;
      return;
    case 'provider':
      parsed.provider = value;
      return;
    case 'depth':
      parsed.depth = Number(value);
      return;
    case 'limit':
      parsed.limit = Number(value);
      return;
    case 'max-bytes':
      parsed.maxBytes = Number(value);
      return;
  }
}

function isValueFlag(name: string): name is ValueFlag {
  return (VALUE_FLAGS as readonly string[]).includes(name);
}

function isCommand(name: string): name is VfsCliCommand {
  return Object.hasOwn(COMMAND_RULES, name);
}
