export { readSseEvents, type ReadSseEventsOptions, type SseEvent } from './read-sse-events.js';
