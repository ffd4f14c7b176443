import { contextBlockText } from '../../shared/context-block-text.js';
import type { HarnessInstructions, HarnessPreparedContext } from '../../shared/types/turn-input.js';

/** The prompt sections every provider sends before the conversation, each `undefined` when empty. */
export interface RenderedInstructions {
  /** The system prompt. */
  system?: string;
  /** The developer prompt plus the response-style notes. */
  developer?: string;
  /** The prepared context blocks and structured context. */
  context?: string;
}

/** Renders the turn's instructions and prepared context into prompt sections. */
export function renderInstructions(instructions: HarnessInstructions, context: HarnessPreparedContext | undefined): RenderedInstructions {
  const rendered: RenderedInstructions = {};
  const system = instructions.systemPrompt.trim();
  if (system !== '') rendered.system = system;
  const developerParts: string[] = [];
  const developer = instructions.developerPrompt?.trim() ?? '';
  if (developer !== '') developerParts.push(developer);
  const style = instructions.responseStyle;
  if (style?.maxAnswerChars !== undefined) developerParts.push(`Keep the final answer under ${style.maxAnswerChars} characters.`);
  if (style?.preferMarkdown === true) developerParts.push('Format the final answer with Markdown.');
  if (style?.preferMarkdown === false) developerParts.push('Write the final answer as plain text, without Markdown.');
  if (developerParts.length > 0) rendered.developer = developerParts.join('\n\n');
  const contextText = renderContext(context);
  if (contextText !== undefined) rendered.context = contextText;
  return rendered;
}

function renderContext(context: HarnessPreparedContext | undefined): string | undefined {
  if (context === undefined) return undefined;
  const parts: string[] = [];
  for (const block of context.blocks) {
    const content = contextBlockText(block).trim();
    if (content === '') continue;
    const label = block.label.trim();
    const source = block.source === undefined || block.source.trim() === '' ? '' : ` (source: ${block.source.trim()})`;
    parts.push(label === '' && source === '' ? content : `[${label === '' ? 'context' : label}]${source}\n${content}`);
  }
  if (context.structured !== undefined && Object.keys(context.structured).length > 0) {
    parts.push(`[structured context]\n${JSON.stringify(context.structured, null, 2)}`);
  }
  return parts.length === 0 ? undefined : `Context prepared for this turn:\n\n${parts.join('\n\n')}`;
}
