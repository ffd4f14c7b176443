export { negotiateCapabilities } from './negotiate-capabilities.js';
export { toExecutionRequest } from './to-execution-request.js';
export type * from './types.js';
