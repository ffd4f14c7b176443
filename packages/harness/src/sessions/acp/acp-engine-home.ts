import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { loadNodeModules } from '../../process/load-node-modules.js';
import type { NodeModules } from '../../process/node-types.js';
import { prepareEngineHome, privateHomeEnv } from '../../process/private-home.js';
import type { AcpEngineSetup, AcpPreparedEngine } from './acp-engine-setup.js';

/** An OpenAI-compatible model endpoint an engine preset points its engine at. */
export interface AcpEngineProvider {
  /** Base URL of the API, e.g. `http://127.0.0.1:8080/v1`. No credentials in it: the key goes in `apiKey`. */
  baseUrl: string;
  /** The API key. It reaches the engine only through its environment, never its arguments or files. */
  apiKey?: string | undefined;
  /** The model id the engine asks for. */
  model: string;
}

/** Checks a preset's `provider` option; throws `HarnessConfigError` naming the bad field. */
export function checkProvider(value: unknown, label: string): AcpEngineProvider | undefined {
  if (value === undefined) return undefined;
  const fail = (field: string, message: string): never => {
    throw new HarnessConfigError(`${label} option provider${field} ${message}`, { field: `provider${field}` });
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('', 'must be an object with baseUrl and model.');
  let baseUrl: unknown, apiKey: unknown, model: unknown;
  try {
    ({ baseUrl, apiKey, model } = value as Record<string, unknown>);
  } catch {
    return fail('', 'could not be read.');
  }
  let url: URL | undefined;
  try {
    url = typeof baseUrl === 'string' ? new URL(baseUrl) : undefined;
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:') || ![...(baseUrl as string)].every((char) => char > ' ' && char !== '\x7f')) {
    fail('.baseUrl', 'must be an http(s) URL.');
  }
  if (url!.username !== '' || url!.password !== '') fail('.baseUrl', 'must not carry credentials; pass the key in provider.apiKey.');
  if (typeof model !== 'string' || !isModelId(model)) fail('.model', 'must be a model id (1 to 256 characters, no spaces, quotes or control characters).');
  if (apiKey !== undefined && (typeof apiKey !== 'string' || apiKey === '' || /[\0\r\n]/.test(apiKey))) fail('.apiKey', 'must be a non-empty string on one line.');
  return { baseUrl: baseUrl as string, model: model as string, ...(apiKey === undefined ? {} : { apiKey: apiKey as string }) };
}

/** 1 to 256 characters, none of them a space, a quote, a backslash or a control character. */
function isModelId(model: string): boolean {
  return model.length >= 1 && model.length <= 256 && [...model].every((char) => char > ' ' && char !== '\x7f' && !`"'\\`.includes(char));
}

/** Checks a preset's `home` option (a directory path). */
export function checkHome(value: unknown, label: string, field = 'home'): string | undefined {
  if (value !== undefined && (typeof value !== 'string' || value.trim() === '' || value.includes('\0'))) {
    throw new HarnessConfigError(`${label} option ${field} must be a non-empty directory path.`, { field });
  }
  return value as string | undefined;
}

/** How a preset's engine gets its home. */
export interface EngineHomeSpec {
  /** Prefix of the private directory's name, e.g. `harness-qwen-`. */
  prefix: string;
  /** The caller's home directory, used instead of a private one (and never removed). */
  home: string | undefined;
  /** Files written into the home where missing (no secrets). */
  files: Readonly<Record<string, string>>;
  /** Variables besides HOME/XDG ones that depend on the home or the parent environment. */
  env?: ((home: string, node: NodeModules) => Record<string, string>) | undefined;
  /** Keep the parent's XDG cache directory (an engine that unpacks itself there, like copilot). */
  keepCache?: boolean | undefined;
  /** Also choose the program to run (e.g. a native binary behind an npm shim). */
  command?: ((node: NodeModules) => Promise<string | undefined>) | undefined;
}

/**
 * A set-up that gives the engine its own home: `HOME` (and `USERPROFILE`), and the XDG config,
 * data, state (and cache) directories under it, so the engine's sessions, settings and logs stay
 * apart from the user's and from other adapters'. A private home is removed on `dispose()`.
 */
export function engineHomeSetup(spec: EngineHomeSpec): AcpEngineSetup {
  return async (): Promise<AcpPreparedEngine> => {
    const node = await loadNodeModules();
    const command = await spec.command?.(node);
    const home = await prepareEngineHome(spec.prefix, spec.home, spec.files);
    return {
      ...(command === undefined ? {} : { command }),
      env: { ...privateHomeEnv(home.path, { keepCache: spec.keepCache }), ...spec.env?.(home.path, node) },
      cleanup: () => home.remove(),
    };
  };
}
