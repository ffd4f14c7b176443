import { describe, expect, it } from 'vitest';
import { readAttachment } from './read-attachment.js';
import { UnsupportedInputError } from './unsupported-input-error.js';

const PNG = 'iVBORw0KGgo=';

describe('readAttachment', () => {
  it('reads inline data, data: URLs and http(s) addresses, images by media type or kind', () => {
    expect(readAttachment({ id: 'a', type: 'file', data: PNG, mediaType: 'image/png' })).toMatchObject({ kind: 'image', source: { type: 'base64', data: PNG, mediaType: 'image/png' } });
    expect(readAttachment({ id: 'b', type: 'file', url: `data:application/pdf;base64,${PNG}` })).toMatchObject({ kind: 'file', source: { type: 'base64', mediaType: 'application/pdf' } });
    expect(readAttachment({ id: 'c', type: 'image', url: 'https://example.test/c' })).toMatchObject({ kind: 'image', source: { type: 'url', url: 'https://example.test/c' } });
    expect(readAttachment({ id: 'd', type: 'file', url: 'HTTP://example.test/d.pdf', mediaType: 'application/pdf' })).toMatchObject({ kind: 'file', source: { type: 'url' } });
  });

  it.each([
    ['neither url nor data', { id: 'a', type: 'file', metadata: { ref: 'doc-1' } }, /Attachment "a" cannot be sent: it has neither a url nor inline data/],
    ['a file: URL', { id: 'b', type: 'file', name: 'passwd', url: 'file:///etc/passwd' }, /Attachment "b" \(passwd\) cannot be sent: a model provider takes only http\(s\): and data: URLs/],
    ['an s3: URL', { id: '__proto__', type: 'image', url: 's3://bucket/key.png' }, /Attachment "__proto__" cannot be sent/],
  ])('refuses %s with attachments_unsupported', (_name, attachment, message) => {
    let caught: unknown;
    try {
      readAttachment(attachment);
    } catch (error) {
      caught = error;
    }
    expect(UnsupportedInputError.isInstance(caught)).toBe(true);
    expect(caught).toMatchObject({ code: 'HARNESS_ERR_UNSUPPORTED_INPUT', reason: 'attachments_unsupported' });
    expect((caught as Error).message).toMatch(message);
  });
});
