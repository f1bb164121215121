/**
 * A stand-in image worker for the "Download memory" control run: it answers every check at once
 * with a 1×1 PNG header and a 16-byte thumbnail, decoding nothing, so the run measures the
 * downloader's own memory and speed beside the real pipeline's.
 */
import { parentPort } from 'node:worker_threads';

parentPort?.postMessage({ type: 'ready', library: 'no decoding (control)' });
parentPort?.on('message', ({ id }: { id: number }) => {
  parentPort?.postMessage({
    type: 'done',
    id,
    value: {
      header: { format: 'png', width: 1, height: 1, orientedWidth: 1, orientedHeight: 1 },
      thumbnail: new Uint8Array(16),
    },
  });
});
