export { createIdempotencyGuard, IDEMPOTENT_REPLAY_NOTE } from './create-idempotency-guard.js';
