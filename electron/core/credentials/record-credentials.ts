/**
 * What the engine may send for a stored record: the key only through the credentials provider
 * (which binds it to its origin), and nothing at all to this computer for a record imported from
 * a gallery folder (a crafted sidecar must not aim Pictor at local services).
 */
import type { TaskError, TaskRecord } from '../../../shared/domain/task-record';
import type { CredentialsProvider, ServiceCredentials } from '../../ports/credentials';
import { isLocalEndpoint } from './key-origin';

/** Why an imported record on this computer is never contacted, for its task and its images. */
export const IMPORTED_LOCAL_MESSAGE =
  'This task was imported from a gallery folder and names a service on this computer. Pictor does not contact services on this computer for imported tasks; what the folder held is kept.';

const NO_KEY_MESSAGE =
  'No API key is set for the service this task lives on. It waits until one is set.';

/** True for a record that came from a gallery folder and names a demo or loopback service. */
export function isImportedLocal(record: Pick<TaskRecord, 'imported' | 'endpoint'>): boolean {
  return record.imported === true && isLocalEndpoint(record.endpoint);
}

export type RecordCredentials =
  | { readonly ok: true; readonly credentials: ServiceCredentials }
  | { readonly ok: false; readonly error: TaskError };

/** The credentials to poll `record` with, or the sentence that says why it waits. */
export async function credentialsForRecord(
  provider: CredentialsProvider,
  record: Pick<TaskRecord, 'imported' | 'endpoint'>,
): Promise<RecordCredentials> {
  if (isImportedLocal(record)) {
    return { ok: false, error: { kind: 'config', message: IMPORTED_LOCAL_MESSAGE } };
  }
  const credentials = await provider.credentialsFor(record.endpoint);
  if (credentials) return { ok: true, credentials };
  const message = provider.missingKeyReason?.(record.endpoint) ?? NO_KEY_MESSAGE;
  return { ok: false, error: { kind: 'auth', message } };
}
