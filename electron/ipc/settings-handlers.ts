/** IPC handlers for settings, the API key and the app's state. The key itself never crosses. */
import type { AppInfo } from '../../shared/ipc/contract';
import type { KeyStatus } from '../../shared/domain/key-status';
import type { Settings, SettingsPatch } from '../../shared/domain/settings';
import type { AppCredentials } from '../core/app-credentials';
import type { KeyVault } from '../core/key-vault/key-vault';
import type { SettingsService } from '../core/settings/settings-service';
import type { ServiceClient } from '../core/service/service-client';
import { ServiceError } from '../core/service/service-error';
import type { IpcHandlers } from './ipc-main-bridge';

export interface SettingsHandlerDeps {
  readonly settings: {
    get: SettingsService['get'];
    /** May ask the user first (a service address on another origin), hence asynchronous. */
    update(patch: SettingsPatch): Settings | Promise<Settings>;
  };
  readonly vault: Pick<KeyVault, 'status' | 'clear'>;
  /** Stores a key bound to the current service address's origin (AppRuntime.setKey). */
  readonly setKey: (key: string, allowWeakStorage: boolean) => Promise<KeyStatus>;
  readonly credentials: Pick<AppCredentials, 'currentEndpoint' | 'credentialsFor' | 'isDemo'>;
  readonly client: Pick<ServiceClient, 'getTask'>;
  readonly info: () => Omit<AppInfo, 'demo'>;
}

type SettingsChannels =
  | 'settings:get'
  | 'settings:update'
  | 'key:getStatus'
  | 'key:set'
  | 'key:clear'
  | 'app:getInfo'
  | 'service:testConnection';

/** An id no service will have: asking for it tells whether the service is there and takes the key. */
const PROBE_TASK_ID = 'pictor-connection-test';

export function settingsHandlers(deps: SettingsHandlerDeps): Pick<IpcHandlers, SettingsChannels> {
  return {
    'settings:get': () => deps.settings.get(),
    'settings:update': (patch) => deps.settings.update(patch),
    'key:getStatus': () => deps.vault.status(),
    'key:set': ({ key, allowWeakStorage }) => deps.setKey(key, allowWeakStorage),
    'key:clear': () => deps.vault.clear(),
    'app:getInfo': () => ({ ...deps.info(), demo: deps.credentials.isDemo() }),
    'service:testConnection': () => testConnection(deps),
  };
}

async function testConnection(
  deps: SettingsHandlerDeps,
): Promise<{ ok: boolean; message: string; detail?: string }> {
  const demo = deps.credentials.isDemo();
  const credentials = await deps.credentials.credentialsFor(deps.credentials.currentEndpoint());
  if (!credentials) {
    return {
      ok: false,
      message:
        'No key is ready for this service, so there is nothing to test. Add your API key first.',
    };
  }
  const where = demo ? 'The built-in demo service' : 'The service';
  try {
    await deps.client.getTask(credentials, PROBE_TASK_ID);
    return { ok: true, message: `${where} answered and accepted the key.` };
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    const detail = [error.httpStatus ? `HTTP ${error.httpStatus}` : error.kind, error.detail]
      .filter(Boolean)
      .join(' — ');
    if (error.kind === 'not_found') {
      return {
        ok: true,
        message: `${where} answered and accepted the key.`,
        detail: 'It said it has no task with a test id, as expected.',
      };
    }
    return { ok: false, message: error.message, ...(detail ? { detail } : {}) };
  }
}
