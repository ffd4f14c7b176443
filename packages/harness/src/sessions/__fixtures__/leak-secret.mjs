// Shared by the fake engines: an engine that prints a secret from its environment to stderr and
// dies, as a real one does on a failed login. Driven by the environment:
//   FAKE_STDERR_LEAK  'startup' (before answering anything) or 'turn' (when a turn starts)
//   FAKE_LEAK_FORM    'plain' (one line), 'escaped' (JSON \uXXXX escapes) or 'split' (the line
//                     in two writes, cut inside the secret, with a pause between them)
// The secret is $FAKE_API_KEY, or the variable $FAKE_LEAK_VAR names. The process exits 5 once stderr is flushed.

const write = (text) => new Promise((resolve) => process.stderr.write(text, () => resolve()));
const pause = () => new Promise((resolve) => setTimeout(resolve, 30));

/** True when this engine is asked to leak at `moment` ('startup' or 'turn'). */
export function leaksAt(moment) {
  return process.env.FAKE_STDERR_LEAK === moment;
}

/** Prints $FAKE_API_KEY to stderr in the asked form, then exits 5. Never returns. */
export async function leakSecretAndExit() {
  const secret = process.env[process.env.FAKE_LEAK_VAR ?? 'FAKE_API_KEY'] ?? '';
  const form = process.env.FAKE_LEAK_FORM ?? 'plain';
  await write('starting up\n');
  if (form === 'escaped') {
    const escaped = [...secret].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    await write(`{"level":"fatal","message":"auth failed for key ${escaped}"}\n`);
  } else if (form === 'split') {
    const half = Math.floor(secret.length / 2);
    await write(`fatal: auth failed for key ${secret.slice(0, half)}`);
    await pause();
    await write(`${secret.slice(half)} (check your login)\n`);
  } else {
    await write(`fatal: auth failed for key ${secret}\n`);
  }
  process.exit(5);
}
