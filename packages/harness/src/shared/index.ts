export { contextBlockText } from './context-block-text.js';
export type * from './types/tools.js';
export type * from './types/steering.js';
export type * from './types/turn-input.js';
export type * from './types/usage.js';
export type { HarnessOutputSchema, InferHarnessOutput } from './types/schema.js';
export type { IoRedisClientLike, NodeRedisClientLike, RedisClientLike } from './redis-client.js';
