import { HarnessConfigError } from '../../../core/errors/harness-config-error.js';
import type { HarnessDriverModuleLike } from './harness-driver-types.js';

export const HARNESS_DRIVER_PACKAGE = '@agent-relay/harness-driver';

// A parameter, not a literal: bundlers neither resolve nor inline the optional peer.
const importModule = (specifier: string): Promise<unknown> => import(/* @vite-ignore */ specifier);

let loaded: Promise<HarnessDriverModuleLike> | undefined;

/**
 * Loads the optional peer `@agent-relay/harness-driver` on first use.
 * @throws HarnessConfigError naming the package and the install command when it is missing.
 */
export function loadHarnessDriver(): Promise<HarnessDriverModuleLike> {
  loaded ??= importModule(HARNESS_DRIVER_PACKAGE).then(
    (module) => {
      const candidate = module as Partial<HarnessDriverModuleLike>;
      if (typeof candidate.HarnessDriverClient !== 'function') {
        throw new HarnessConfigError(`${HARNESS_DRIVER_PACKAGE} does not export HarnessDriverClient; install version 9.1.6 or a later 9.x.`, {
          field: 'relay',
        });
      }
      return candidate as HarnessDriverModuleLike;
    },
    (error: unknown) => {
      throw new HarnessConfigError(
        `RelayAdapter needs the optional peer dependency ${HARNESS_DRIVER_PACKAGE}, which could not be loaded. ` +
          `Install it with: npm install ${HARNESS_DRIVER_PACKAGE}@^9.1.6`,
        { field: 'relay', cause: error },
      );
    },
  );
  loaded.catch(() => {
    loaded = undefined;
  });
  return loaded;
}
