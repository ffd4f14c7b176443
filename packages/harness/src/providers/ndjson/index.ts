export { readNdjsonLines, type ReadNdjsonLinesOptions } from './read-ndjson-lines.js';
