/**
 * An answer worker that says it is ready and then never answers: the reader's time limit is what
 * ends it (tests/unit/core/service/answer-reader.test.ts).
 */
import { parentPort } from 'node:worker_threads';

parentPort?.on('message', (message: { type: string }) => {
  // Busy for ever once an answer has all arrived, as a runaway reading would be.
  if (message.type === 'end') for (;;);
});
parentPort?.postMessage({ type: 'ready' });
