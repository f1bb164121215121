/**
 * "Test connection": asks the service about a task id it cannot have, with the key the app would
 * use now. A "no such task" answer proves the service is there and took the key. The app's
 * Settings and the CLI share it; the result is a report for the user, not an error.
 */
import type { CredentialsProvider } from '../../ports/credentials';
import type { ServiceClient } from './service-client';
import { ServiceError } from './service-error';

/** An id no service will have: asking for it tells whether the service is there and takes the key. */
export const PROBE_TASK_ID = 'pictor-connection-test';

/** What the test found, in sentences for the user. */
export interface ConnectionReport {
  readonly ok: boolean;
  readonly message: string;
  /** Technical detail, shown on demand. Never the key. */
  readonly detail?: string;
}

export interface ConnectionTestDeps {
  readonly credentials: Pick<CredentialsProvider, 'currentEndpoint' | 'credentialsFor'> & {
    /** True while tasks go to the built-in demo service. */
    isDemo(): boolean;
  };
  readonly client: Pick<ServiceClient, 'getTask'>;
}

/**
 * Tests the service new tasks would go to, with its key.
 * @throws only what is not a {@link ServiceError} (a bug): every service failure is a report.
 */
export async function testConnection(deps: ConnectionTestDeps): Promise<ConnectionReport> {
  const demo = deps.credentials.isDemo();
  const credentials = await deps.credentials.credentialsFor(deps.credentials.currentEndpoint());
  if (!credentials) {
    return {
      ok: false,
      message:
        'No key is ready for this service, so there is nothing to test. Add your API key first.',
    };
  }
  const accepted = `${demo ? 'The built-in demo service' : 'The service'} answered and accepted the key.`;
  try {
    await deps.client.getTask(credentials, PROBE_TASK_ID);
    return { ok: true, message: accepted };
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    if (error.kind === 'not_found') {
      return {
        ok: true,
        message: accepted,
        detail: 'It said it has no task with a test id, as expected.',
      };
    }
    const detail = [error.httpStatus ? `HTTP ${error.httpStatus}` : error.kind, error.detail]
      .filter(Boolean)
      .join(' — ');
    return { ok: false, message: error.message, ...(detail ? { detail } : {}) };
  }
}
