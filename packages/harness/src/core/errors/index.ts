export { HarnessError, type HarnessErrorOptions } from './harness-error.js';
export { HarnessConfigError } from './harness-config-error.js';
