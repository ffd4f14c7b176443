import type { CliIo } from './cli-io.js';
import { usageError } from './cli-usage-error.js';
import { readCliFile, textWithin } from './read-cli-file.js';

/** The longest prompt read from a file or stdin: 1 MiB. */
export const MAX_PROMPT_BYTES = 1024 * 1024;

/**
 * The prompt from `--prompt`, `--prompt-file` or (when stdin is not a terminal) stdin: exactly one.
 * A file or stdin is read at most one byte past the limit.
 * @throws HarnessConfigError (usage) when there is none, more than one, or it is empty or too long.
 */
export async function readPrompt(io: CliIo, prompt: string | undefined, promptFile: string | undefined): Promise<string> {
  if (prompt !== undefined && promptFile !== undefined)
    throw usageError('Give the prompt once: --prompt TEXT or --prompt-file FILE, not both.', 'prompt');
  let text: string;
  if (prompt !== undefined) text = textWithin(Buffer.from(prompt, 'utf8'), MAX_PROMPT_BYTES, 'The prompt', 'prompt');
  else if (promptFile !== undefined) {
    text = await readCliFile(promptFile, { what: '--prompt-file', field: 'prompt-file', maxBytes: MAX_PROMPT_BYTES, hint: 'Check the path.' });
  } else if (io.stdinIsTty) {
    throw usageError(
      'No prompt: pass --prompt TEXT, --prompt-file FILE, or pipe it on stdin (echo "…" | agent-assistant run …).',
      'prompt',
    );
  } else {
    text = textWithin(await io.readStdin(MAX_PROMPT_BYTES), MAX_PROMPT_BYTES, 'The prompt on stdin', 'prompt');
  }
  if (text.trim() === '') throw usageError('The prompt is empty.', 'prompt');
  return text;
}
