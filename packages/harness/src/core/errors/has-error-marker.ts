// Lives in `shared/errors/` (see harness-error.ts beside this file).
export { hasErrorMarker } from '../../shared/errors/has-error-marker.js';
