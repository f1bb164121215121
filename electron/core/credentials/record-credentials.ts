/**
 * What the engine may send for a stored record: the key only through the credentials provider
 * (which binds it to its base URL), and nothing at all to this computer for a record imported from
 * a gallery folder (a crafted sidecar must not aim Pictor at local services).
 */
import { providerOf } from '../../../shared/domain/providers';
import type { TaskError, TaskRecord } from '../../../shared/domain/task-record';
import type { CredentialsProvider, ServiceCredentials } from '../../ports/credentials';
import { englishText, sentence, type Sentence } from '../../../shared/i18n/sentence';
import { isLocalEndpoint } from '../service';

/** Why an imported record on this computer is never contacted, for its task and its images. */
export const IMPORTED_LOCAL_SENTENCE = sentence('error.settings.importedLocal');
/**
 * {@link IMPORTED_LOCAL_SENTENCE} in English (an image's `error`, beside its `errorSentence`).
 * Made when first needed: the English catalogue is not built at every start of the CLI.
 */
export const importedLocalMessage = (): string => englishText(IMPORTED_LOCAL_SENTENCE);

const NO_KEY_SENTENCE = sentence('error.settings.taskNoKeyGeneric');

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
  record: Pick<TaskRecord, 'imported' | 'endpoint' | 'provider'>,
): Promise<RecordCredentials> {
  if (isImportedLocal(record)) {
    return { ok: false, error: taskError('config', IMPORTED_LOCAL_SENTENCE) };
  }
  const credentials = await provider.credentialsFor(record.endpoint);
  // A key goes only with tasks of the kind of service it was entered for: another profile
  // would send it in another header, or read another service's words as this one's.
  if (credentials && providerOf(credentials) !== providerOf(record)) {
    return { ok: false, error: taskError('config', sentence('error.service.wrongProviderKey')) };
  }
  if (credentials) return { ok: true, credentials };
  return {
    ok: false,
    error: taskError(
      'auth',
      provider.missingKeyReason?.(record.endpoint, record.imported === true) ?? NO_KEY_SENTENCE,
    ),
  };
}

/** A task error from a catalogue sentence, or from the English text a provider gave (the CLI). */
function taskError(kind: TaskError['kind'], said: Sentence | string): TaskError {
  return typeof said === 'string'
    ? { kind, message: said }
    : { kind, message: englishText(said), sentence: said };
}
