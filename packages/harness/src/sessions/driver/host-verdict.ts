import type { ExecutionOptions, ExecutionPermissionRequest, ExecutionPermissionVerdict } from '../../execution/types.js';

/**
 * The host's verdict on an engine's permission request (`ExecutionOptions.onPermissionRequest`),
 * failing closed to `ask`: no hook, a hook that throws, or an answer other than `approve` or
 * `reject` leaves the question to a person.
 */
export function hostVerdict(options: ExecutionOptions, request: ExecutionPermissionRequest): ExecutionPermissionVerdict {
  const decide = options.onPermissionRequest;
  if (typeof decide !== 'function') return 'ask';
  try {
    const verdict: unknown = decide(request);
    return verdict === 'approve' || verdict === 'reject' ? verdict : 'ask';
  } catch {
    return 'ask';
  }
}

/** The note a backend adds to its result when the host's rules answered a permission request. */
export function hostVerdictNote(verdict: 'approve' | 'reject', title: string): string {
  const shown = title.length > 200 ? `${title.slice(0, 200)}…` : title;
  return `Permission ${verdict === 'approve' ? 'granted' : 'refused'} by the host's rules: ${shown}`;
}
