export { createHarness } from './create-harness.js';
export { defineExecutionAdapter } from './define-execution-adapter.js';
export { DEFAULT_TURN_LIMITS, resolveLimits, type ResolvedHarnessLimits } from './limits.js';
export { createSteering } from './steering/create-steering.js';
export { HARNESS_STOP_REASONS, outcomeForStopReason, stopReasonToUserMessage } from './stop-reason.js';
export { CONTINUATION_VERSION } from './continuation/continuation-codec.js';
export * from './errors/index.js';
export * from './trace/index.js';
export { toExecutionRequest } from './to-execution-request.js';
export { STRUCTURED_OUTPUT_NAME } from './output/resolve-output.js';
export { DEFAULT_COMPACTION, DEFAULT_SUMMARY_INSTRUCTIONS } from './compaction/resolve-compaction.js';
export { estimateTokensByBytes } from './compaction/estimate-tokens.js';
export type * from './types/approval.js';
export type * from './types/compaction.js';
export type * from './types/config.js';
export type * from './types/continuation.js';
export type * from './types/model.js';
export type * from './types/outcome.js';
export type * from './types/reasoning.js';
export type * from './types/result.js';
export type * from './types/result-error.js';
export type * from './types/runtime.js';
export type * from './types/trace.js';
export type * from './types/transcript.js';
export { createMemoryResumeGuard, type MemoryResumeGuardOptions } from './continuation/memory-resume-guard.js';
export { createFileResumeGuard, type FileResumeGuard, type FileResumeGuardOptions } from './continuation/file-resume-guard.js';
export { RESUME_CLAIM_GRACE_MS, resumeClaimKey } from './continuation/resume-claim-key.js';
export {
  createPostgresResumeGuard,
  type PostgresResumeGuard,
  type PostgresResumeGuardOptions,
} from './continuation/postgres-resume-guard.js';
export {
  createDurableObjectResumeGuard,
  ResumeGuardDurableObject,
  type DurableObjectNamespaceLike,
  type DurableObjectResumeGuard,
  type DurableObjectResumeGuardOptions,
  type DurableObjectStateLike,
  type DurableObjectStorageLike,
  type DurableObjectTransactionLike,
} from './continuation/durable-object-resume-guard.js';
export type { PostgresQuery, PostgresQueryFunction, PostgresQueryable, PostgresQueryResult } from '../shared/postgres/postgres-query.js';
export { createRedisResumeGuard, type RedisResumeGuardOptions } from './continuation/redis-resume-guard.js';
