import { describe, expect, it } from 'vitest';
import type { HarnessAttachment } from '../../../shared/types/turn-input.js';
import { UnsupportedInputError } from '../../internal/unsupported-input-error.js';
import { toAnthropicAttachmentBlock } from './to-anthropic-attachment-block.js';

const base64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));

function refusal(attachment: HarnessAttachment): UnsupportedInputError {
  try {
    toAnthropicAttachmentBlock(attachment);
  } catch (error) {
    if (error instanceof UnsupportedInputError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('toAnthropicAttachmentBlock', () => {
  it('sends images by URL and inline (data + mediaType, or a data: URL)', () => {
    expect(toAnthropicAttachmentBlock({ id: 'a', type: 'image', url: 'https://example.test/cat.png' })).toEqual({
      type: 'image',
      source: { type: 'url', url: 'https://example.test/cat.png' },
    });
    expect(toAnthropicAttachmentBlock({ id: 'a', type: 'file', data: 'iVBORw0KGgo=', mediaType: 'image/png' })).toEqual({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' },
    });
    expect(toAnthropicAttachmentBlock({ id: 'a', type: 'image', url: 'data:image/webp;base64,UklGRg==' })).toEqual({
      type: 'image',
      source: { type: 'base64', media_type: 'image/webp', data: 'UklGRg==' },
    });
    expect(toAnthropicAttachmentBlock({ id: 'a', type: 'image', data: '/9j/', mediaType: 'IMAGE/JPEG; q=1' })).toMatchObject({ source: { media_type: 'image/jpeg' } });
  });

  it('sends PDFs as documents (inline or by URL, titled by name) and plain text decoded from base64', () => {
    expect(toAnthropicAttachmentBlock({ id: 'p', type: 'file', name: 'report.pdf', data: 'JVBERi0=', mediaType: 'application/pdf' })).toEqual({
      type: 'document',
      source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' },
      title: 'report.pdf',
    });
    expect(toAnthropicAttachmentBlock({ id: 'p', type: 'file', url: 'https://example.test/r.pdf', mediaType: 'application/pdf' })).toEqual({
      type: 'document',
      source: { type: 'url', url: 'https://example.test/r.pdf' },
    });
    expect(toAnthropicAttachmentBlock({ id: 't', type: 'file', data: base64('Grüße, Oslo\n'), mediaType: 'text/plain; charset=utf-8' })).toEqual({
      type: 'document',
      source: { type: 'text', media_type: 'text/plain', data: 'Grüße, Oslo\n' },
    });
  });

  it.each<[HarnessAttachment, string]>([
    [{ id: 'svg', type: 'image', data: 'PHN2Zz4=', mediaType: 'image/svg+xml' }, 'not image/svg+xml'],
    [{ id: 'zip', type: 'file', url: 'data:application/zip;base64,UEsDBA==' }, 'not application/zip'],
    [{ id: 'txt', type: 'file', url: 'https://example.test/notes.txt', mediaType: 'text/plain' }, 'not text/plain by URL'],
    [{ id: 'doc', type: 'file', url: 'https://example.test/notes.docx' }, 'media type is unknown'],
    [{ id: 'ftp', type: 'image', url: 'ftp://example.test/cat.png' }, 'only http(s): and data: URLs'],
    [{ id: 'bad', type: 'file', data: '%%%', mediaType: 'text/plain' }, 'not base64-encoded UTF-8 text'],
    [{ id: 'latin1', type: 'file', data: btoa('\xff\xfe'), mediaType: 'text/plain' }, 'not base64-encoded UTF-8 text'],
    [{ id: 'none', type: 'file' }, 'neither a url nor inline data'],
  ])('refuses %j, naming it', (attachment, why) => {
    const error = refusal(attachment);
    expect(error.reason).toBe('attachments_unsupported');
    expect(error.message).toContain(`"${attachment.id}"`);
    expect(error.message).toContain(why);
  });

  it('names a hostile attachment without touching prototypes', () => {
    const error = refusal({ id: '__proto__', type: 'file', name: '__proto__', data: 'AA==', mediaType: 'application/x-evil' });
    expect(error.message).toContain('"__proto__" (__proto__)');
    expect(({} as Record<string, unknown>).evil).toBeUndefined();
  });
});
