import { describe, expect, it } from 'vitest';
import { HarnessError } from '../../core/errors/harness-error.js';
import { BackendUnavailableError } from './backend-unavailable-error.js';
import { UnknownBackendError } from './unknown-backend-error.js';

describe('local backend errors', () => {
  it('are HarnessErrors with permanent codes and cross-copy markers', () => {
    const unknown = new UnknownBackendError('cursor', ['claude-code', 'codex']);
    const unavailable = new BackendUnavailableError('codex', 'codex', 'Install it.', { cause: new Error('ENOENT') });
    expect(unknown).toBeInstanceOf(HarnessError);
    expect(unknown).toMatchObject({ name: 'UnknownBackendError', code: 'HARNESS_ERR_UNKNOWN_BACKEND', backendId: 'cursor', knownBackendIds: ['claude-code', 'codex'] });
    expect(unavailable).toMatchObject({ name: 'BackendUnavailableError', code: 'HARNESS_ERR_BACKEND_UNAVAILABLE', backendId: 'codex', command: 'codex', message: 'Install it.' });
    expect((unavailable as Error).cause).toBeInstanceOf(Error);
    expect(UnknownBackendError.isInstance(unknown)).toBe(true);
    expect(UnknownBackendError.isInstance(unavailable)).toBe(false);
    expect(BackendUnavailableError.isInstance(unavailable)).toBe(true);
    expect(HarnessError.isInstance(unavailable)).toBe(true);
    expect(BackendUnavailableError.isInstance({})).toBe(false);
  });
});
