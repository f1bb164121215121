/**
 * The key a task's image links take, for a service whose images are routes of its own server
 * (its profile's `imagesTakeKey`: a proxied ComfyUI's `/view`): the key of the task's own address
 * and provider, the account that made the task, bound to that address as every key is (its origin
 * and path prefix, key-binding.ts). Every other service's images are fetched without a key.
 */
import { providerOf } from '../../../shared/domain/providers';
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { CredentialsProvider } from '../../ports/credentials';
import type { KeyedImages } from '../download';
import { profileOf, serviceBaseUrl } from '../service';

export async function imageKeyFor(
  record: TaskRecord,
  credentials: Pick<CredentialsProvider, 'credentialsFor'>,
): Promise<KeyedImages | undefined> {
  const profile = profileOf(record.provider);
  if (profile.imagesTakeKey !== true) return undefined;
  const found = await credentials.credentialsFor(record.endpoint).catch(() => null);
  if (!found || found.key === '' || providerOf(found) !== providerOf(record)) return undefined;
  if (record.account !== found.keyFingerprint) return undefined;
  const baseUrl = serviceBaseUrl(found.baseUrl);
  if (baseUrl === null) return undefined;
  return { baseUrl, headers: profile.authHeaders(found.key) };
}
