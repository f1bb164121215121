/**
 * The page's `window.pictor` over the real wiring (tests/support/wired-api.ts) behind the
 * interceptor made from the contract (tests/support/contract-interceptor.ts): main's real
 * handlers over the real core on a temporary library and the demo service on loopback, with a
 * test's faults (a delayed, failed or held request, one answered in main's place, an injected
 * event) on any channel.
 */
import type { PictorApi } from '../../shared/ipc/api';
import { events, requests } from '../../shared/ipc/contract';
import { interceptBridge, type BridgeLike, type Interceptor } from './contract-interceptor';
import { startWiredApi, type WiredApi, type WiredApiOptions } from './wired-api';

/** The app's contract, as the interceptor reads it. */
const APP_CONTRACT = { requests, events };

/** A wired API whose page side goes through the interceptor. */
export interface InterceptedApi extends WiredApi {
  /**
   * The controls: `intercept.request['tasks:submit'].fail(…)`, `….reply(…)`, `….handle(…)`,
   * `intercept.event[…].inject(…)`.
   */
  readonly intercept: Interceptor<typeof APP_CONTRACT>;
}

/**
 * `wired` (a test's own main or the file's shared one), its `api` behind a fresh interceptor: the
 * controls start plain, so a shared main needs nothing undone after a test.
 */
export function interceptWired(wired: WiredApi): InterceptedApi {
  const intercept = interceptBridge(wired.api as unknown as BridgeLike, APP_CONTRACT);
  const api = { galleryBase: wired.api.galleryBase, ...intercept.api } as unknown as PictorApi;
  return Object.assign(Object.create(null) as object, wired, { api, intercept });
}

/** {@link startWiredApi}, its `api` behind the contract's interceptor. */
export async function startInterceptedApi(options: WiredApiOptions = {}): Promise<InterceptedApi> {
  return interceptWired(await startWiredApi(options));
}
