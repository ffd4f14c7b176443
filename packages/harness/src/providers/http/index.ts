export { HarnessModelHttpError, type HarnessModelHttpErrorOptions, type HarnessModelHttpFailure } from './harness-model-http-error.js';
export { DEFAULT_HTTP_PROVIDER_OPTIONS, type HttpProviderOptions } from './http-provider-options.js';
export { DEFAULT_RETRY_OPTIONS, type RetryEvent, type RetryOptions } from './retry-policy.js';
export type { ApiKeySource, EnvironmentRecord } from './resolve-api-key.js';
export type { FetchFunction } from './post-json.js';
export type { InsecureHttpOptIn } from './assert-endpoint-allowed.js';
export { createNodeHttpFetch, DEFAULT_NODE_HTTP_FETCH_OPTIONS, type NodeHttpFetchOptions } from './node-http-fetch.js';
