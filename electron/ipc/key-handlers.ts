/**
 * IPC handlers of the `key:` and `keys:` channels. A key goes in; only its status (or what its
 * service said of it) ever comes out.
 */
import type { KeyStatus } from '../../shared/domain/key-status';
import type { ProviderId } from '../../shared/domain/providers';
import type { KeySave, KeyVault, SaveKeyOptions, ServiceKeys } from '../core/key-vault';
import type { HandlersOf } from './ipc-main-bridge';

export interface KeyHandlerDeps {
  /** Today's contract's key (`key:*`, as before services had keys of their own). */
  readonly vault: Pick<KeyVault, 'status' | 'clear'>;
  /** Every service's key status. */
  readonly keys: Pick<ServiceKeys, 'statuses'>;
  /** Stores today's contract's key unchecked, bound to its address (AppRuntime.setKey). */
  readonly setKey: (
    key: string,
    allowWeakStorage: boolean,
    provider: ProviderId,
  ) => Promise<KeyStatus>;
  /** Checks a key with its service, then stores it (AppRuntime.saveKey). */
  readonly saveKey: (
    key: string,
    options: SaveKeyOptions,
    provider: ProviderId,
  ) => Promise<KeySave>;
  /** Removes one service's key (AppRuntime.clearKey). */
  readonly clearKey: (provider: ProviderId) => Promise<KeyStatus>;
}

export function keyHandlers(deps: KeyHandlerDeps): HandlersOf<'key'> & HandlersOf<'keys'> {
  return {
    'key:getStatus': () => deps.vault.status(),
    'key:set': ({ key, allowWeakStorage }) => deps.setKey(key, allowWeakStorage, 'pictor'),
    'key:clear': () => deps.vault.clear(),
    'keys:getStatuses': () => deps.keys.statuses(),
    'keys:set': ({ provider, key, allowWeakStorage, skipCheck }) =>
      deps.saveKey(key, { allowWeakStorage, skipCheck: skipCheck === true }, provider),
    'keys:clear': ({ provider }) => deps.clearKey(provider),
  };
}
