/**
 * An answer worker that crashes on the first answer of the process and is the real one after
 * that (tests/unit/core/service/answer-reader.test.ts): the file named by
 * PICTOR_TEST_ANSWER_CRASHED is made by the crash, and a worker that finds it runs the real one.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';

const marker = process.env['PICTOR_TEST_ANSWER_CRASHED'] ?? '';

if (marker !== '' && existsSync(marker)) {
  await import('../../electron/core/service/answer-worker');
} else {
  parentPort?.on('message', (message: { type: string }) => {
    if (message.type !== 'chunk') return;
    if (marker !== '') writeFileSync(marker, 'crashed');
    // As a worker out of memory or killed by a defect ends: at once, mid-answer.
    process.exit(3);
  });
  parentPort?.postMessage({ type: 'ready' });
}
