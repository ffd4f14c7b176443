import { describe, expect, it } from 'vitest';
import { renderInstructions } from './render-instructions.js';

describe('renderInstructions', () => {
  it('renders system, developer with style notes, and context blocks with structured context', () => {
    const rendered = renderInstructions(
      { systemPrompt: ' Be kind. ', developerPrompt: 'Cite sources.', responseStyle: { maxAnswerChars: 200, preferMarkdown: false } },
      {
        blocks: [
          { id: 'b1', label: 'memory', content: 'User likes tea.', source: 'notes' },
          { id: 'b2', label: '', content: 'Unlabelled fact.' },
          { id: 'b3', label: 'empty', content: '   ' },
        ],
        structured: { plan: 'pro' },
      },
    );
    expect(rendered.system).toBe('Be kind.');
    expect(rendered.developer).toBe('Cite sources.\n\nKeep the final answer under 200 characters.\n\nWrite the final answer as plain text, without Markdown.');
    expect(rendered.context).toContain('[memory] (source: notes)\nUser likes tea.');
    expect(rendered.context).toContain('Unlabelled fact.');
    expect(rendered.context).not.toContain('[empty]');
    expect(rendered.context).toContain('"plan": "pro"');
  });

  it('leaves empty sections out', () => {
    expect(renderInstructions({ systemPrompt: '  ' }, { blocks: [] })).toEqual({});
  });
});
