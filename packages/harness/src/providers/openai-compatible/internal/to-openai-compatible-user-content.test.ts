import { describe, expect, it } from 'vitest';
import { UnsupportedInputError } from '../../internal/unsupported-input-error.js';
import { toOpenAICompatibleUserContent } from './to-openai-compatible-user-content.js';

describe('toOpenAICompatibleUserContent', () => {
  it('keeps plain text without attachments, and leaves out an empty text part with them', () => {
    expect(toOpenAICompatibleUserContent('Hi', undefined)).toBe('Hi');
    expect(toOpenAICompatibleUserContent('Hi', [])).toBe('Hi');
    expect(toOpenAICompatibleUserContent('', [{ id: 'a', type: 'image', url: 'http://127.0.0.1:9/a.png' }])).toEqual([
      { type: 'image_url', image_url: { url: 'http://127.0.0.1:9/a.png' } },
    ]);
  });

  it('decides image or file by media type, and names a file by its id when it has no name', () => {
    expect(
      toOpenAICompatibleUserContent('x', [
        { id: 'pic', type: 'file', data: 'AAAA', mediaType: 'image/webp' },
        { id: 'sheet', type: 'image', data: 'AAAA', mediaType: 'text/csv' },
      ]),
    ).toEqual([
      { type: 'text', text: 'x' },
      { type: 'image_url', image_url: { url: 'data:image/webp;base64,AAAA' } },
      { type: 'file', file: { filename: 'sheet', file_data: 'data:text/csv;base64,AAAA' } },
    ]);
  });

  it('throws attachments_unsupported naming the attachment for a file by URL', () => {
    const attempt = () => toOpenAICompatibleUserContent('x', [{ id: 'doc', type: 'file', name: 'a.pdf', url: 'https://example.com/a.pdf' }]);
    expect(attempt).toThrow(UnsupportedInputError);
    expect(attempt).toThrow(/Attachment "doc" \(a\.pdf\) cannot be sent/);
  });
});
