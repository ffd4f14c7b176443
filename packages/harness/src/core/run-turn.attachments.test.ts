import { describe, expect, it } from 'vitest';
import {
  createHarness,
  DEFAULT_TURN_LIMITS,
  HarnessConfigError,
  resolveLimits,
  stopReasonToUserMessage,
  type HarnessAttachment,
  type HarnessHistoryMessage,
  type HarnessTurnInput,
} from '../index.js';
import { createFakeExecutionAdapter, createScriptedModel, createTurnInput } from '../testing/index.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

const withAttachments = (attachments: HarnessAttachment[], history?: HarnessHistoryMessage[]): HarnessTurnInput =>
  createTurnInput({
    message: { id: 'm1', text: 'Look', receivedAt: '2026-01-01T00:00:00.000Z', attachments },
    ...(history === undefined ? {} : { history }),
  });

const image = (id: string, extra: Partial<HarnessAttachment> = {}): HarnessAttachment => ({ id, type: 'image', ...extra });

describe('attachments: validation', () => {
  const rejects = async (attachment: Record<string, unknown>, pattern: RegExp) => {
    const model = createScriptedModel([]);
    const error = await createHarness({ model })
      .runTurn(withAttachments([attachment as unknown as HarnessAttachment]))
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect(HarnessConfigError.isInstance(error)).toBe(true);
    expect((error as HarnessConfigError).field).toBe('input');
    expect((error as Error).message).toMatch(pattern);
    expect(model.calls).toHaveLength(0);
  };

  it.each([
    ['data without a mediaType', { id: 'a', type: 'image', data: PNG }, /mediaType: inline data needs a mediaType/],
    ['data that is not base64', { id: 'a', type: 'image', data: 'not base64!', mediaType: 'image/png' }, /data: must be padded standard base64/],
    ['unpadded base64', { id: 'a', type: 'image', data: 'QQ', mediaType: 'image/png' }, /data: must be padded standard base64/],
    ['a data: prefix inside data', { id: 'a', type: 'image', data: `data:image/png;base64,${PNG}`, mediaType: 'image/png' }, /padded standard base64/],
    ['a malformed mediaType', { id: 'a', type: 'image', data: PNG, mediaType: 'png' }, /mediaType: must be a media type/],
    ['a mediaType with parameters', { id: 'a', type: 'file', data: 'QQ==', mediaType: 'text/plain; charset=utf-8' }, /must be a media type/],
    ['a relative URL', { id: 'a', type: 'file', url: '/a.png' }, /url: must be an absolute URL/],
    ['a data: URL that is not base64', { id: 'a', type: 'file', url: 'data:text/plain,hello' }, /a data: URL must be base64/],
    ['a data: URL without a media type', { id: 'a', type: 'file', url: `data:;base64,${PNG}` }, /needs a media type/],
    ['a data: URL with bad base64', { id: 'a', type: 'file', url: 'data:image/png;base64,@@@@' }, /not valid base64/],
    ['an overlong https URL', { id: 'a', type: 'file', url: `https://example.test/${'a'.repeat(20_000)}` }, /at most 16384 characters/],
  ])('rejects %s with HarnessConfigError before anything runs', async (_name, attachment, pattern) => {
    await rejects(attachment, pattern);
  });

  it("passes a product's own references (no url or data, other schemes) on; a model provider decides", async () => {
    const model = createScriptedModel([{ type: 'final_answer', text: 'ok' }]);
    const attachments = [
      { id: 'ref', type: 'file', metadata: { documentId: 'doc-1' } },
      { id: 's3', type: 'file', url: 's3://bucket/report.pdf', mediaType: 'application/pdf' },
    ];
    const result = await createHarness({ model }).runTurn(withAttachments(attachments));
    expect(result.outcome).toBe('completed');
    expect(model.calls[0]!.message.attachments).toEqual(attachments);
  });

  it('accepts https and http URLs, base64 data URLs and inline data with a media type', async () => {
    const model = createScriptedModel([{ type: 'final_answer', text: 'ok' }]);
    const attachments = [
      image('a', { url: 'https://example.test/a.png' }),
      image('b', { url: 'HTTP://example.test/b.png', name: 'b.png' }),
      image('c', { url: `data:image/png;base64,${PNG}` }),
      image('d', { data: PNG, mediaType: 'image/png' }),
      { id: 'e', type: 'file', url: 'data:application/pdf;name=x.pdf;base64,JVBERi0=' },
      { id: 'f', type: 'file', data: '', mediaType: 'text/plain' },
    ];
    const result = await createHarness({ model }).runTurn(withAttachments(attachments));
    expect(result.outcome).toBe('completed');
    expect(model.calls[0]!.message.attachments).toEqual(attachments);
  });
});

describe('attachments: limits', () => {
  it('has documented defaults and checks the new limits', () => {
    expect(DEFAULT_TURN_LIMITS).toMatchObject({ maxAttachments: 16, maxAttachmentBytes: 20 * 1024 * 1024, maxHistoryMessages: 200 });
    expect(resolveLimits({ maxAttachments: 0 }).maxAttachments).toBe(0);
    expect(() => resolveLimits({ maxAttachments: -1 })).toThrow(/limits\.maxAttachments/);
    expect(() => resolveLimits({ maxAttachmentBytes: 0 })).toThrow(/limits\.maxAttachmentBytes/);
    expect(() => resolveLimits({ maxHistoryMessages: 1.5 })).toThrow(/limits\.maxHistoryMessages/);
  });

  it('counts attachments over the message and the history, before any model call', async () => {
    const model = createScriptedModel([]);
    const history: HarnessHistoryMessage[] = [
      { role: 'user', text: 'one', attachments: [image('h1', { url: 'https://example.test/1.png' })] },
      { role: 'assistant', text: 'two' },
      { role: 'user', text: 'three', attachments: [image('h2', { url: 'https://example.test/2.png' })] },
    ];
    const input = withAttachments([image('m1', { url: 'https://example.test/3.png' })], history);
    const result = await createHarness({ model, limits: { maxAttachments: 2 } }).runTurn(input);
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'runtime_error' });
    expect(result.error).toEqual({
      code: 'too_many_attachments',
      message: 'The turn carries 3 attachments (message and history), over limits.maxAttachments (2).',
      source: 'input',
      retryable: false,
    });
    expect(model.calls).toHaveLength(0);

    const fits = createScriptedModel([{ type: 'final_answer', text: 'ok' }]);
    expect((await createHarness({ model: fits, limits: { maxAttachments: 3 } }).runTurn(input)).outcome).toBe('completed');
  });

  it('maxAttachments: 0 refuses any attachment', async () => {
    const result = await createHarness({ model: createScriptedModel([]), limits: { maxAttachments: 0 } }).runTurn(
      withAttachments([image('a', { url: 'https://example.test/a.png' })]),
    );
    expect(result.error?.code).toBe('too_many_attachments');
  });

  it('measures decoded inline bytes of data and of data: URLs; an http(s) address counts 0', async () => {
    const eightBytes = 'QUJDREVGR0g='; // "ABCDEFGH" is 8 bytes
    const nineBytes = 'QUJDREVGR0hJ';
    const run = (attachment: HarnessAttachment, where: 'message' | 'history' = 'message') => {
      const model = createScriptedModel([{ type: 'final_answer', text: 'ok' }]);
      const input =
        where === 'message'
          ? withAttachments([attachment])
          : createTurnInput({ history: [{ role: 'user', text: 'earlier', attachments: [attachment] }] });
      return createHarness({ model, limits: { maxAttachmentBytes: 8 } })
        .runTurn(input)
        .then((result) => ({ result, calls: model.calls.length }));
    };
    expect((await run({ id: 'a', type: 'file', data: eightBytes, mediaType: 'text/plain' })).result.outcome).toBe('completed');
    expect((await run({ id: 'a', type: 'file', url: `data:text/plain;base64,${eightBytes}` })).result.outcome).toBe('completed');
    expect((await run({ id: 'a', type: 'file', url: `https://example.test/${'x'.repeat(1000)}` })).result.outcome).toBe('completed');

    const inline = await run({ id: 'big', type: 'file', data: nineBytes, mediaType: 'text/plain' });
    expect(inline.calls).toBe(0);
    expect(inline.result.error).toMatchObject({ code: 'attachment_too_large', source: 'input', retryable: false });
    expect(inline.result.error!.message).toBe(
      'Attachment "big" of message has 9 inline bytes, over limits.maxAttachmentBytes (8); send it by URL or raise the limit.',
    );
    const dataUrl = await run({ id: 'big', type: 'file', url: `data:text/plain;base64,${nineBytes}` }, 'history');
    expect(dataUrl.calls).toBe(0);
    expect(dataUrl.result.error!.message).toContain('"big" of history[0] has 9 inline bytes');
  });

  it('handles a 21 MiB inline attachment quickly and names it by a bounded id', async () => {
    const data = 'QUJD'.repeat(7_340_032); // 21 MiB decoded, over the 20 MiB default
    const id = 'x'.repeat(10_000);
    const model = createScriptedModel([]);
    const started = Date.now();
    const result = await createHarness({ model }).runTurn(withAttachments([{ id, type: 'file', data, mediaType: 'application/octet-stream' }]));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result.error?.code).toBe('attachment_too_large');
    expect(result.error!.message.length).toBeLessThan(400);
    expect(model.calls).toHaveLength(0);
  });

  it('applies to backend turns too, before negotiate or execute', async () => {
    const backend = createFakeExecutionAdapter({ capabilities: { attachments: true, history: true }, steps: [] });
    const result = await createHarness({ backend, limits: { maxAttachments: 1 } }).runTurn(
      withAttachments([image('a', { url: 'https://example.test/a.png' }), image('b', { url: 'https://example.test/b.png' })]),
    );
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'runtime_error', error: { code: 'too_many_attachments' } });
    expect(backend.requests).toHaveLength(0);
  });
});

describe('attachments: user message', () => {
  it('stopReasonToUserMessage explains the input limit codes without inviting a retry', async () => {
    const result = await createHarness({ model: createScriptedModel([]), limits: { maxAttachments: 0 } }).runTurn(
      withAttachments([image('a', { url: 'https://example.test/a.png' })]),
    );
    expect(stopReasonToUserMessage(result)).toBe('This has more attachments than I can take in one turn.');
  });
});
