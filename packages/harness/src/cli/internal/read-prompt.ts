import { readFile } from 'node:fs/promises';
import type { CliIo } from './cli-io.js';
import { usageError } from './cli-usage-error.js';

/** The longest prompt read from a file or stdin: 1 MiB. */
export const MAX_PROMPT_BYTES = 1024 * 1024;

/**
 * The prompt from `--prompt`, `--prompt-file` or (when stdin is not a terminal) stdin: exactly one.
 * @throws HarnessConfigError (usage) when there is none, more than one, or it is empty or too long.
 */
export async function readPrompt(io: CliIo, prompt: string | undefined, promptFile: string | undefined): Promise<string> {
  if (prompt !== undefined && promptFile !== undefined)
    throw usageError('Give the prompt once: --prompt TEXT or --prompt-file FILE, not both.', 'prompt');
  let text: string;
  if (prompt !== undefined) text = prompt;
  else if (promptFile !== undefined) {
    try {
      text = await readFile(promptFile, 'utf8');
    } catch (error) {
      throw usageError(
        `Cannot read --prompt-file ${JSON.stringify(promptFile)} (${String((error as { code?: unknown }).code ?? 'error')}).`,
        'prompt-file',
      );
    }
  } else if (io.stdinIsTty) {
    throw usageError(
      'No prompt: pass --prompt TEXT, --prompt-file FILE, or pipe it on stdin (echo "…" | agent-assistant run …).',
      'prompt',
    );
  } else {
    text = await io.readStdin(MAX_PROMPT_BYTES);
  }
  if (Buffer.byteLength(text, 'utf8') > MAX_PROMPT_BYTES) throw usageError('The prompt is longer than 1 MiB.', 'prompt');
  if (text.trim() === '') throw usageError('The prompt is empty.', 'prompt');
  return text;
}
