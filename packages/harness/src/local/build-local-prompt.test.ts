import { describe, expect, it } from 'vitest';
import { executionRequest } from './__fixtures__/test-helpers.js';
import { buildLocalPrompt } from './build-local-prompt.js';

describe('buildLocalPrompt', () => {
  it('is the bare message when there is nothing else to say', () => {
    expect(buildLocalPrompt(executionRequest('just this'), { includeInstructions: false })).toBe('just this');
  });

  it('lays out instructions, context blocks, structured context and the message', () => {
    const request = executionRequest('What now?', {
      instructions: { systemPrompt: 'Be brief.', developerPrompt: 'Cite files.' },
      context: {
        blocks: [
          { id: 'a', label: 'Memory', content: 'Likes tea.' },
          { id: 'b', label: 'README', content: '# Title', source: 'README.md' },
        ],
        structured: { plan: 'free' },
      },
    });
    expect(buildLocalPrompt(request)).toBe(
      [
        '# Instructions\n\nBe brief.\n\nCite files.',
        '# Context\n\n## Memory\n\nLikes tea.\n\n## README (README.md)\n\n# Title',
        '# Structured context\n\n```json\n{\n  "plan": "free"\n}\n```',
        '# Message\n\nWhat now?',
      ].join('\n\n'),
    );
  });

  it('sends only the resolution when the CLI resumes a session', () => {
    const answer = executionRequest('Book it', { resume: { type: 'clarification', answer: 'Tuesday' } });
    expect(buildLocalPrompt(answer, { resumingSession: true })).toBe('Tuesday');
    const approval = executionRequest('Book it', { resume: { type: 'approval', decisions: { c1: 'approved', c2: 'rejected' } } });
    expect(buildLocalPrompt(approval, { resumingSession: true })).toBe('Approval decisions:\n- c1: approved\n- c2: rejected');
    expect(buildLocalPrompt(executionRequest('x', { resume: { type: 'deferred' } }), { resumingSession: true })).toMatch(/^The previous attempt was interrupted/);
  });

  it('appends the resolution to the full prompt without a session', () => {
    const request = executionRequest('Book it', { resume: { type: 'clarification', answer: 'Tuesday' } });
    expect(buildLocalPrompt(request, { includeInstructions: false })).toBe('# Message\n\nBook it\n\n# Follow-up\n\nTuesday');
    expect(buildLocalPrompt(executionRequest('Book it', { resume: { type: 'deferred' } }), { includeInstructions: false })).toMatch(
      /# Follow-up\n\nA previous attempt at this message was interrupted/,
    );
  });
});
