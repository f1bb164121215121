/**
 * The service module's face (electron/core/service/): its doors are the exports below, the only
 * names other modules and the fronts import from it. The service's dialects, its client, its
 * answers (read in a worker), the key's binding to its address.
 *
 * A service's answers are read off the main thread. The service client
 * (`core/service/service-client.ts`) sends requests and streams each answer's body as it arrives,
 * what arrives in one turn in one message (`merged-pieces.ts`: an answer sent a byte at a time
 * costs what its bytes cost), to the answer worker, one worker thread of the main process for
 * every client (`core/service/answer-reader.ts`; `answer-worker.ts`, bundled beside `main.js` by
 * `electron/build/build-electron.ts` with the Content Credentials worker, from `mainWorkerEntries`;
 * from source under tsx in tests and `npm run cli`). The worker bounds the answer's structure as it
 * arrives (`answer-scan.ts`: at most the usual 1 MiB besides inline images, 12,000 levels of
 * nesting, 256 entries a list; `answer-limits.ts`), decodes large inline images as they arrive
 * (`inline-stream.ts`), then parses what is left, runs the provider's profile, the key checks and
 * the normalisation (`answer-jobs.ts`), and an error status's body is scrubbed of the key there
 * too. What comes back is the typed answer and the images' bytes, moved, not copied: the main
 * thread moves bytes and nothing else (the "Largest answer" row of docs/PERFORMANCE.md). A request
 * is sent only once a worker is up; a worker that crashes, runs out of its capped heap or overruns
 * its time fails the answers it was reading with a sentence and is replaced.
 */
export { hasHiddenDotSegment, isUnderBase, normalisePercentEncoding } from './base-url-path';
export { type ConnectionReport, reportSaying, type StoredKeyFor } from './connection-report';
export { type ConnectionTestDeps, type KeyCheckRecorder, testConnection } from './connection-test';
export {
  DEMO_ENDPOINT,
  DEMO_KEY,
  demoProviderOf,
  isDemoEndpoint,
  isUnknownDemoEndpoint,
} from './demo-endpoint';
export { discardBody, parseJson, raceAbort, readBodyText } from './http-response';
export {
  baseUrlOrRefusal,
  isLocalEndpoint,
  serviceAddress,
  serviceBaseUrl,
  serviceLabel,
  serviceNameAt,
} from './key-binding';
export { probeAtAddress } from './key-probe-report';
export {
  checkConnection,
  gateReadsOwners,
  guardLocalServers,
  guardPinnedLocalServers,
  type LocalServerGate,
  localServerAddress,
} from './local-server-gate';
export { pinsHere } from './local-reach';
export { hostOf, isProfilesOwnAddress } from './providers/api-origins';
export { imageHostRefusal } from './providers/media-hosts';
export { profileOf } from './providers/profiles';
export type { ProviderProfile, SentInputs, TaskHandles } from './providers/provider-profile';
export { aspectRatio } from './providers/replicate';
export { taskAddressProblem } from './providers/task-address';
export { keysToFind } from './client-parts';
export { checkCredentials, redactError } from './request-guard';
export { fetchPublishedSchema, type SchemaReach } from './published-schema';
export { commandText, requestCurl } from './request-command';
export type { AnswerReader } from './answer-reader';
export { ServiceClient } from './service-client';
export { ServiceReach } from './service-reach';
export { type ServiceTestDeps, testServiceConnection } from './service-connection-test';
export { parseRetryAfter, retryAfterNow } from './retry-after';
export { ServiceError, type ServiceErrorKind } from './service-error';
export { checkTypedTaskId } from './task-id';
export {
  type AddressClassifier,
  checkBaseUrl,
  checkImageUrl,
  checkResolvedAddresses,
  isLocalhostName,
  isLoopbackHost,
  isNonPublicAddress,
  UrlPolicyError,
} from './url-policy';
