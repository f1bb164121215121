/**
 * The self-test module (electron/core/self-test/), its face: the one file other modules and the
 * fronts import from it. The packaged app's self-test.
 */
export { type EncryptionReport, runSelfTest, type VerifierFactory } from './self-test';
