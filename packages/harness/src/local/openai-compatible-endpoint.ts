import { HarnessConfigError } from '../core/errors/harness-config-error.js';
import { isRecord } from '../shared/is-record.js';
import { checkFlagValue } from './local-cli-preset.js';

/**
 * A model endpoint that speaks OpenAI Chat Completions (`POST <baseUrl>/chat/completions`), for
 * engines that can be pointed at one (a gateway, a local model server).
 */
export interface OpenAiCompatibleEndpoint {
  /** Base URL including the version path, e.g. `http://127.0.0.1:8080/v1`. */
  baseUrl: string;
  /** The model id at that endpoint, e.g. `gpt-4.1-mini`. */
  model: string;
  /**
   * The API key. It reaches the engine only through its environment (never its arguments or a
   * file), and is blanked out of captured stderr like every `env` value. @default none
   */
  apiKey?: string | undefined;
}

/** `value` as a checked endpoint (a copy), or `undefined`; throws `HarnessConfigError` naming the field. */
export function checkEndpoint(value: unknown, field: string, label: string): OpenAiCompatibleEndpoint | undefined {
  if (value === undefined) return undefined;
  const fail = (message: string): never => {
    throw new HarnessConfigError(`${label} option ${field} ${message}`, { field });
  };
  if (!isRecord(value)) return fail('must be an object { baseUrl, model, apiKey? }.');
  const baseUrl = value['baseUrl'];
  let url: URL | undefined;
  try {
    url = typeof baseUrl === 'string' ? new URL(baseUrl) : undefined;
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.username !== '' || url.password !== '') {
    fail('.baseUrl must be an http(s) URL without credentials (put the key in apiKey).');
  }
  const model = checkFlagValue(value['model'], `${field}.model`, label);
  if (model === undefined) fail('.model is required.');
  const apiKey = value['apiKey'];
  if (apiKey !== undefined && (typeof apiKey !== 'string' || apiKey === '' || /[\0\r\n]/.test(apiKey))) {
    fail('.apiKey must be a non-empty string on one line.');
  }
  return { baseUrl: (baseUrl as string).replace(/\/+$/, ''), model: model as string, ...(apiKey === undefined ? {} : { apiKey: apiKey as string }) };
}

/** Throws `HarnessConfigError` unless `value` is undefined or a non-empty path string. */
export function checkHome(value: unknown, label: string): string | undefined {
  if (value !== undefined && (typeof value !== 'string' || value.trim() === '' || value.includes('\0'))) {
    throw new HarnessConfigError(`${label} option home must be a non-empty directory path.`, { field: 'home' });
  }
  return value as string | undefined;
}
