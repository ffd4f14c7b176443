export { negotiateCapabilities } from './negotiate-capabilities.js';
export type * from './types.js';
