// The error base lives on the lowest floor (`shared/errors/`) so `shared/` can throw it; this path stays for the floors above.
export { HarnessError, type HarnessErrorOptions } from '../../shared/errors/harness-error.js';
