export { MAX_ANSWER_CHARS } from './answer-cap.js';
export { checkExecutionRequest, type CheckedExecutionRequest } from './execution-request-schema.js';
export { negotiateCapabilities } from './negotiate-capabilities.js';
export type * from './types.js';
