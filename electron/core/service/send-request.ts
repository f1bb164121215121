/**
 * The last steps of a request to the service: what must never be sent is refused here (an address
 * the key may not go to, a port `fetch` never connects to), then the transport is asked, and every
 * failure but the caller's abort becomes the {@link ServiceError} it means, "not sent" or "may have
 * reached the service" (network-errors.ts).
 */
import { sentence } from '../../../shared/i18n/sentence';
import { FetchRejection, type FetchLike } from '../../ports/http';
import { blockedPortOf } from './blocked-ports';
import { discardBody, raceAbort } from './http-response';
import { errorForBlockedPort, errorForTransport } from './network-errors';
import { hostOf, keyMayGoTo } from './providers/api-origins';
import { ServiceError } from './service-error';
import type { ServiceOperation } from './status-errors';

/**
 * Refuses `url` when the key may not go there, or when its port is one `fetch` never connects to.
 * The paths built, the addresses a service gave and the redirects followed are checked before,
 * so this is the last line, not the first.
 * @throws ServiceError of kind `config`; nothing sent.
 */
export function refuseUnsendable(url: string, baseUrl: string, regional: readonly string[]): void {
  if (!keyMayGoTo(url, baseUrl, regional)) {
    // Today only a task id varies in a path, and checkTaskId refuses the ids that could leave.
    throw new ServiceError({
      kind: 'config',
      message: sentence('error.service.taskIdDots'),
      mayHaveReachedService: false,
    });
  }
  const port = blockedPortOf(url);
  if (port !== null) throw errorForBlockedPort(new URL(url).hostname, port);
}

/**
 * `fetch(url, init)` raced against `init.signal`: its response, or the ServiceError its failure
 * means; an abort rethrown as it came (a late answer's body discarded).
 */
export async function fetchAnswer(
  fetch: FetchLike,
  op: ServiceOperation,
  url: string,
  init: RequestInit & { readonly signal: AbortSignal },
): Promise<Response> {
  let pending: Promise<Response>;
  try {
    pending = Promise.resolve(fetch(url, init));
  } catch (error) {
    // A fetch that throws before it returns has sent nothing.
    throw errorForTransport(op, new FetchRejection('unsent', error), hostOf(url));
  }
  try {
    return await raceAbort(pending, init.signal);
  } catch (error) {
    if (init.signal.aborted) {
      pending.then(discardBody, () => undefined);
      throw error;
    }
    // A refusal before sending (local-server-gate.ts: another user's loopback server) says so.
    if (error instanceof ServiceError) throw error;
    throw errorForTransport(op, error, hostOf(url));
  }
}
