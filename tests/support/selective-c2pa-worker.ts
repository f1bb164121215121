/**
 * A stand-in for the Content Credentials worker (c2pa-worker.ts) that never loads the library: a
 * store holding a crowded assertion (tests/support/c2pa-crowded.ts) keeps it busy for ever, as
 * c2pa-rs is kept for about 50 s by 8,000 signed assertions; any other image is answered at once
 * with `SELECTIVE_VERDICT` (c2pa-crowd-label.ts). So a test sees which stores reached a worker, and that an honest
 * one was answered while a hostile one ran.
 */
import { parentPort } from 'node:worker_threads';
import type {
  C2paMessage,
  C2paRequest,
} from '../../electron/core/content-credentials/c2pa-protocol';
import { CROWD_LABEL, SELECTIVE_VERDICT } from './c2pa-crowd-label.ts';

const crowded = Buffer.from(CROWD_LABEL, 'latin1');

parentPort?.postMessage({ kind: 'ready' } satisfies C2paMessage);
parentPort?.on('message', (request: C2paRequest) => {
  if (Buffer.from(request.bytes).includes(crowded)) {
    // Busy for ever: only the verifier's limit ends it.
    for (;;);
  }
  parentPort?.postMessage({
    kind: 'verdict',
    id: request.id,
    verdict: SELECTIVE_VERDICT,
    trapped: false,
  } satisfies C2paMessage);
});
