/**
 * Whether each service answers, as the calls Pictor makes anyway find it (submits, polls, result
 * reads, "Test connection": every call of the service client goes through {@link watch}): the
 * origin of a service's saved address is unreachable from a call of that service that could not
 * reach its host while the computer is online (no such host, connection refused, a TLS failure,
 * no route: nothing was sent), and reachable again at the next answer to one of its calls,
 * whatever its status. The host a call went to may be another than the saved address's (BFL
 * polls the region that took the task, `api.eu.bfl.ai` for `api.bfl.ai`): the window tells the
 * service at the address the user saved, so that is the origin told. Never a call of its own: nothing asks a
 * service more often than the engine's polls do. The page shows it beside each service
 * (renderer/store/use-service-key-state.ts); only origins (scheme, host, port) are told, never a
 * key, a path or what a host said.
 */
import { Emitter, type Event } from '../../ports/event';
import type { FetchLike } from '../../ports/http';
import { silentLogger, type Logger } from '../../ports/logger';
import { ServiceError } from './service-error';
import { readTransportFailure } from './transport-reading';

/** The origin of an address, or null for one that has none. */
function originOf(url: string): string | null {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/**
 * A fetch's rejection that says its service could not be reached, the computer being online:
 * nothing was sent. Not Pictor's own refusal before sending (a ServiceError: local-server-gate).
 */
function isUnreached(error: unknown): boolean {
  if (error instanceof ServiceError) return false;
  const reading = readTransportFailure(error);
  return reading.unsent && !reading.offline;
}

export class ServiceReach {
  readonly #unreachable = new Set<string>();
  readonly #changed: Emitter<string[]>;

  constructor(logger: Logger = silentLogger) {
    this.#changed = new Emitter({ name: 'service reach changed', logger });
  }

  /** The origins whose last call could not reach them, sorted. */
  unreachable(): string[] {
    return [...this.#unreachable].sort();
  }

  /**
   * `fetch` for a service saved at `address`, each call's end told here for `address`'s origin,
   * whatever host the call went to: an answer, or a failure to reach that host.
   */
  watch(fetch: FetchLike, address: string): FetchLike {
    return async (url, init) => {
      try {
        const response = await fetch(url, init);
        this.#set(address, false);
        return response;
      } catch (error) {
        // An abort (the caller's, or the request's time limit) says nothing of the service.
        if (init?.signal?.aborted !== true && isUnreached(error)) this.#set(address, true);
        throw error;
      }
    };
  }

  /** Called with every origin unreachable now, whenever that changes. */
  readonly onDidChange: Event<string[]> = (listener) => this.#changed.event(listener);

  #set(url: string, unreachable: boolean): void {
    const origin = originOf(url);
    if (origin === null || this.#unreachable.has(origin) === unreachable) return;
    if (unreachable) this.#unreachable.add(origin);
    else this.#unreachable.delete(origin);
    this.#changed.fire(this.unreachable());
  }
}
