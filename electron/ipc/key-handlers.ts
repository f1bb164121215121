/** IPC handlers of the `key:` channels. The key goes in; only its status ever comes out. */
import type { KeyStatus } from '../../shared/domain/key-status';
import type { KeyVault } from '../core/key-vault/key-vault';
import type { HandlersOf } from './ipc-main-bridge';

export interface KeyHandlerDeps {
  readonly vault: Pick<KeyVault, 'status' | 'clear'>;
  /** Stores a key bound to the current service address's origin (AppRuntime.setKey). */
  readonly setKey: (key: string, allowWeakStorage: boolean) => Promise<KeyStatus>;
}

export function keyHandlers(deps: KeyHandlerDeps): HandlersOf<'key'> {
  return {
    'key:getStatus': () => deps.vault.status(),
    'key:set': ({ key, allowWeakStorage }) => deps.setKey(key, allowWeakStorage),
    'key:clear': () => deps.vault.clear(),
  };
}
