/**
 * IPC handlers of the `keys:` channels, one family for every service. A key goes in; only its
 * status (or what its service said of it) ever comes out.
 */
import type { KeyStatus } from '../../shared/domain/key-status';
import type { ProviderId } from '../../shared/domain/providers';
import type { KeySave, SaveKeyOptions, ServiceKeys } from '../core/key-vault';
import type { HandlersOf } from './ipc-main-bridge';

export interface KeyHandlerDeps {
  /** Every service's key status. */
  readonly keys: Pick<ServiceKeys, 'statuses'>;
  /** Checks a key with its service, then stores it (AppRuntime.saveKey). */
  readonly saveKey: (
    key: string,
    options: SaveKeyOptions,
    provider: ProviderId,
  ) => Promise<KeySave>;
  /** Removes one service's key (AppRuntime.clearKey). */
  readonly clearKey: (provider: ProviderId) => Promise<KeyStatus>;
}

export function keyHandlers(deps: KeyHandlerDeps): HandlersOf<'keys'> {
  return {
    'keys:getStatuses': () => deps.keys.statuses(),
    'keys:set': ({ provider, key, allowWeakStorage, skipCheck }) =>
      deps.saveKey(key, { allowWeakStorage, skipCheck: skipCheck === true }, provider),
    'keys:clear': ({ provider }) => deps.clearKey(provider),
  };
}
