export { memoryTraceSink, type MemoryTraceSink } from './memory-trace-sink.js';
export { consoleTraceSink, type ConsoleTraceSinkOptions } from './console-trace-sink.js';
