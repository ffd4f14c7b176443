// Lives in `shared/errors/` (see harness-error.ts beside this file).
export { HarnessConfigError } from '../../shared/errors/harness-config-error.js';
