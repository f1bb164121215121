/**
 * The service module (electron/core/service/), its face: the one file other modules and the fronts
 * import from it. The service's dialects, its client, its answers (read in a worker), the key's
 * binding to its address.
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
export { baseUrlOrRefusal, isLocalEndpoint, serviceBaseUrl, serviceLabel } from './key-binding';
export { probeAtAddress } from './key-probe-report';
export { isProfilesOwnAddress } from './providers/api-origins';
export { imageHostRefusal } from './providers/media-hosts';
export { profileOf } from './providers/profiles';
export type { ProviderProfile, SentInputs, TaskHandles } from './providers/provider-profile';
export { aspectRatio } from './providers/replicate';
export { taskAddressProblem } from './providers/task-address';
export { checkCredentials, redactError } from './request-guard';
export { ServiceClient } from './service-client';
export { type ServiceTestDeps, testServiceConnection } from './service-connection-test';
export { ServiceError, type ServiceErrorKind } from './service-error';
export { checkTaskId } from './task-id';
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
