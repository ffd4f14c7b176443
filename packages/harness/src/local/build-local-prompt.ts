import { contextBlockText } from '../shared/context-block-text.js';
import type { ExecutionRequest } from '../execution/types.js';
import { instructionsText } from './instructions-text.js';

/** Options of {@link buildLocalPrompt}. */
export interface BuildLocalPromptOptions {
  /**
   * Include `instructions.systemPrompt` and `developerPrompt` as an "Instructions" section. Turn
   * it off for CLIs that take the system prompt separately (Claude Code).
   * @default true
   */
  includeInstructions?: boolean | undefined;
  /**
   * The CLI resumes a session that already holds the earlier conversation. On a resumed turn the
   * resolution (a clarification answer, approval decisions, or a request to continue after an
   * interruption) is then sent on its own; without a session it is appended to the full prompt
   * so the CLI has the context.
   * @default false
   */
  resumingSession?: boolean | undefined;
}

/**
 * The text a CLI receives for a request (on stdin, preferably): instructions, prepared context
 * blocks, structured context and the user's message, as Markdown sections. On a resumed turn,
 * the resolution (the user's answer, approval decisions, or "continue") is added.
 */
export function buildLocalPrompt(request: ExecutionRequest, options: BuildLocalPromptOptions = {}): string {
  const resume = request.resume;
  if (options.resumingSession === true && resume !== undefined) return resolutionText(resume, true);
  const sections: string[] = [];
  if (options.includeInstructions !== false) {
    const instructions = instructionsText(request);
    if (instructions !== '') sections.push(`# Instructions\n\n${instructions}`);
  }
  const blocks = request.context?.blocks ?? [];
  if (blocks.length > 0) {
    sections.push(
      ['# Context', ...blocks.map((block) => `## ${block.label}${block.source === undefined ? '' : ` (${block.source})`}\n\n${contextBlockText(block)}`)].join('\n\n'),
    );
  }
  if (request.context?.structured !== undefined) {
    sections.push(`# Structured context\n\n\`\`\`json\n${JSON.stringify(request.context.structured, null, 2)}\n\`\`\``);
  }
  if (sections.length === 0 && resume === undefined) return request.message.text;
  sections.push(`# Message\n\n${request.message.text}`);
  if (resume !== undefined) sections.push(`# Follow-up\n\n${resolutionText(resume, false)}`);
  return sections.join('\n\n');
}

function resolutionText(resume: NonNullable<ExecutionRequest['resume']>, inSession: boolean): string {
  switch (resume.type) {
    case 'clarification':
      return resume.answer;
    case 'approval':
      return [
        'Approval decisions:',
        ...Object.entries(resume.decisions).map(([id, decision]) => `- ${id}: ${decision}`),
      ].join('\n');
    case 'deferred':
      return inSession
        ? 'The previous attempt was interrupted before it finished. Please continue where you left off and answer my last message.'
        : 'A previous attempt at this message was interrupted before it finished. Please answer it now.';
  }
}
