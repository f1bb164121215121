/** IPC handlers of the `service:` channels: the connection test is core's (core/service). */
import { testConnection, type ConnectionTestDeps } from '../core/service/connection-test';
import type { HandlersOf } from './ipc-main-bridge';

export interface ServiceHandlerDeps {
  readonly credentials: ConnectionTestDeps['credentials'];
  /** The core's service client. */
  readonly client: ConnectionTestDeps['client'];
  readonly savedBaseUrl: ConnectionTestDeps['savedBaseUrl'];
}

export function serviceHandlers(deps: ServiceHandlerDeps): HandlersOf<'service'> {
  return {
    'service:testConnection': ({ baseUrl, key }) =>
      testConnection(
        { credentials: deps.credentials, client: deps.client, savedBaseUrl: deps.savedBaseUrl },
        baseUrl,
        key,
      ),
  };
}
