import type { ExecutionRequest } from '../execution/types.js';

/** System prompt and developer prompt joined, for CLIs with a system-prompt option. */
export function instructionsText(request: ExecutionRequest): string {
  return [request.instructions.systemPrompt, request.instructions.developerPrompt]
    .filter((part): part is string => typeof part === 'string' && part.trim() !== '')
    .join('\n\n');
}
