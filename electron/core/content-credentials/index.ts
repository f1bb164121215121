/**
 * The content-credentials module (electron/core/content-credentials/), its face: the one file other
 * modules and the fronts import from it. C2PA verification (a worker, fair across services).
 */
export { C2paVerifier, VerifierUnavailableError } from './c2pa-verifier';
export { FairVerifier } from './fair-verifier';
export { JUMBF_PROBE_BYTES, boxHeader, opensC2paStore } from './jumbf-box';
export { RendererCredentialVerifier, type RendererJobRunner } from './renderer-verifier';
export { BUNDLED_TRUST_ANCHORS_FILE, certificateCount, readTrustAnchors } from './trust-anchors';
