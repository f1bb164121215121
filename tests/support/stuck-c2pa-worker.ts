/**
 * A Content Credentials worker that says it is ready and then never answers: the verifier's time
 * limit is what ends it (tests/unit/core/content-credentials).
 */
import { parentPort } from 'node:worker_threads';

parentPort?.postMessage({ kind: 'ready' });
parentPort?.on('message', () => {
  // Busy for ever, as a hostile manifest could keep the library.
  for (;;);
});
