/**
 * The one way core code reaches the network: the WHATWG `fetch` signature. In the app it is
 * Electron's `net.fetch` (system proxy settings honoured); in the CLI Node's fetch with a proxy
 * agent; in tests the real thing against loopback, or a fake that injects faults.
 */
export type FetchLike = (url: string, init?: RequestInit) => Promise<Response>;
