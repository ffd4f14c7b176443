export { BackendUnavailableError } from './backend-unavailable-error.js';
export { UnknownBackendError } from './unknown-backend-error.js';
