
import { jsonLines } from './json-lines.js';
import { isRecord } from '../../shared/is-record.js';

/**
 * The output of `gemini --output-format stream-json` rewritten as the single report
 * `--output-format json` prints: `{ session_id, response, stats }` on success, `{ session_id,
 * error }` when the `result` line says `status: "error"`. `undefined` when `stdout` is not a
 * stream (no `init` or `result` line).
 */
export function geminiStreamReport(stdout: string): Record<string, unknown> | undefined {
  const lines = jsonLines(stdout);
  const init = lines.find((line) => line['type'] === 'init');
  const result = [...lines].reverse().find((line) => line['type'] === 'result');
  if (init === undefined && result === undefined) return undefined;
  const sessionId = typeof init?.['session_id'] === 'string' ? { session_id: init['session_id'] } : {};
  if (result === undefined) return sessionId;
  if (result['status'] !== 'success') {
    const error = isRecord(result['error']) ? result['error'] : {};
    return { ...sessionId, error: { message: typeof error['message'] === 'string' ? error['message'] : 'Gemini CLI reported an error.' } };
  }
  const response = lines
    .filter((line) => line['type'] === 'message' && line['role'] === 'assistant' && typeof line['content'] === 'string')
    .map((line) => line['content'] as string)
    .join('');
  return { ...sessionId, response, stats: jsonStats(result['stats']) };
}

/** Stream stats (`models[name].input_tokens`) in the JSON report's shape (`models[name].tokens.prompt`). */
function jsonStats(stats: unknown): Record<string, unknown> {
  const models: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  if (isRecord(stats) && isRecord(stats['models'])) {
    for (const [name, model] of Object.entries(stats['models'])) {
      if (!isRecord(model)) continue;
      models[name] = { tokens: { prompt: model['input_tokens'], candidates: model['output_tokens'] } };
    }
  }
  return { models };
}
