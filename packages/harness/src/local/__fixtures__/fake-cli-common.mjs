// Shared helpers of the fake CLIs: option parsing, stdin, the call log, session files.
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const args = process.argv.slice(2);

/** `--name value` or `--name=value`. */
export function option(name) {
  const inline = args.find((arg) => arg.startsWith(`${name}=`));
  if (inline !== undefined) return inline.slice(name.length + 1);
  const index = args.indexOf(name);
  return index === -1 ? undefined : args[index + 1];
}

export function readStdin() {
  return new Promise((resolve) => {
    const chunks = [];
    process.stdin.on('data', (chunk) => chunks.push(chunk));
    process.stdin.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

export function logCall(stdin) {
  if (process.env.FAKE_CLI_LOG) appendFileSync(process.env.FAKE_CLI_LOG, `${JSON.stringify({ argv: args, stdin, env: process.env })}\n`);
}

/** A JSON session file under $HOME/.<name>; `undefined` when asked to load one that is missing. */
export function sessionStore(name) {
  const dir = join(process.env.HOME ?? '.', `.${name}`);
  mkdirSync(dir, { recursive: true });
  return {
    load: (id) => (existsSync(join(dir, `${id}.json`)) ? JSON.parse(readFileSync(join(dir, `${id}.json`), 'utf8')) : undefined),
    save: (id, value) => writeFileSync(join(dir, `${id}.json`), JSON.stringify(value)),
  };
}

export const hang = () => globalThis.setInterval(() => undefined, 60_000);
