/**
 * The target a submit carries (shared/domain/submit-target.ts), checked before anything is stored
 * or sent. It may come from a compromised page, a crafted record submitted again, or a record of
 * a service whose address has changed since: the key goes only where the credentials provider
 * binds it (the address it was entered for, the one service there), and only with tasks of the
 * service it was entered for. A target Pictor would send nothing to is refused with a sentence
 * that says nothing was sent; it never falls back to another service or another key.
 */
import { providerOf } from '../../../shared/domain/providers';
import type { SubmitTarget } from '../../../shared/domain/submit-target';
import { sentence } from '../../../shared/i18n/sentence';
import type { CredentialsProvider, ServiceCredentials } from '../../ports/credentials';
import {
  baseUrlOrRefusal,
  demoProviderOf,
  isDemoEndpoint,
  isUnknownDemoEndpoint,
  serviceLabel,
  UrlPolicyError,
} from '../service';
import { EngineInputError } from './engine-types';

/** A checked target: the endpoint its tasks are recorded with, and the key that goes there. */
export interface CheckedTarget {
  /** The demo's (`demo:`, `demo:fal`, …), or the normalised base URL. */
  readonly endpoint: string;
  readonly credentials: ServiceCredentials;
}

/**
 * The endpoint as records keep it: the demo's, or the normalised base URL. A demo speaks one
 * dialect: `demo:fal` takes fal's tasks only, and `demo:` today's contract's; a `demo:…` that
 * names no dialect, or another provider's, is refused (never read as an address).
 */
function endpointOf(target: SubmitTarget): string {
  const dialect = demoProviderOf(target.endpoint);
  if (dialect === target.provider) return target.endpoint;
  if (dialect !== null || isUnknownDemoEndpoint(target.endpoint)) {
    throw new EngineInputError(
      sentence('error.submit.demoDialect', { endpoint: target.endpoint.slice(0, 40) }),
    );
  }
  const baseUrl = baseUrlOrRefusal(target.endpoint);
  // An address Pictor sends nothing to: the URL policy's own sentence says why.
  if (baseUrl instanceof UrlPolicyError) throw new EngineInputError(baseUrl.sentence);
  return baseUrl;
}

/**
 * `target` checked against the credentials: its endpoint and the key for it.
 * @throws EngineInputError with the sentence that says why nothing can be sent there.
 */
export async function checkTarget(
  credentials: CredentialsProvider,
  target: SubmitTarget,
): Promise<CheckedTarget> {
  const endpoint = endpointOf(target);
  const found = await credentials.credentialsFor(endpoint);
  const host = serviceLabel(endpoint);
  if (!found) {
    throw new EngineInputError(
      isDemoEndpoint(endpoint)
        ? sentence('error.submit.demoNotRunning')
        : sentence('error.submit.noKeyThere', { host }),
    );
  }
  // The key there was entered for another kind of service (or the demo named for one): its
  // profile would send the key in another header, or read another service's words as this one's.
  if (providerOf(found) !== target.provider) {
    throw new EngineInputError(sentence('error.submit.otherService', { host }));
  }
  return { endpoint, credentials: found };
}
