/** IPC handlers of the `service:` channels: the connection tests are core's (core/service). */
import {
  type ConnectionTestDeps,
  type KeyCheckRecorder,
  type ServiceTestDeps,
  testConnection,
  testServiceConnection,
} from '../core/service';
import type { HandlersOf } from './ipc-main-bridge';

export interface ServiceHandlerDeps {
  readonly credentials: ConnectionTestDeps['credentials'] & ServiceTestDeps['keys'];
  /** The core's service client. */
  readonly client: ConnectionTestDeps['client'] & ServiceTestDeps['client'];
  readonly savedBaseUrl: ConnectionTestDeps['savedBaseUrl'];
  /** Each service's saved address (AppCredentials.addressOf). */
  readonly addressOf: ServiceTestDeps['addressOf'];
  /** The clock: when a balance was read. */
  readonly now: () => number;
  /** Keeps what a test said of a stored key with it (the tick in Settings). */
  readonly recordCheck?: KeyCheckRecorder;
}

export function serviceHandlers(deps: ServiceHandlerDeps): HandlersOf<'service'> {
  const { client, now } = deps;
  const recordCheck = deps.recordCheck ? { recordCheck: deps.recordCheck } : {};
  return {
    'service:testConnection': ({ baseUrl, key }) =>
      testConnection(
        {
          credentials: deps.credentials,
          client,
          savedBaseUrl: deps.savedBaseUrl,
          now,
          ...recordCheck,
        },
        baseUrl,
        key,
      ),
    'service:testService': ({ provider, key }) =>
      testServiceConnection(
        { keys: deps.credentials, client, addressOf: deps.addressOf, now, ...recordCheck },
        provider,
        key,
      ),
  };
}
