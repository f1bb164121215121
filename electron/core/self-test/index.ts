/**
 * The self-test module's face (electron/core/self-test/): its doors are the exports below, the only
 * names other modules and the fronts import from it. The packaged app's self-test.
 */
export { type EncryptionReport, runSelfTest, type VerifierFactory } from './self-test';
