/**
 * Child process of the "Largest answer" row, bundled as the app's main process is
 * (bundled-child.ts: the answer worker's bundle beside it) and run as
 * `node --expose-gc child.js <origin> <shape>`. It reads one answer of `shape` (served at
 * `<origin>/v1/tasks/<shape>`) through the real ServiceClient, its answer worker and the CLI's
 * fetch (or, for `fetch-only:<shape>`, through that fetch alone: the control), once the worker is up (as it is in the app after its first poll), and prints one JSON
 * line: the main thread's longest stall while it did (`monitorEventLoopDelay`, 10 ms
 * resolution), the process's RSS growth (sampled every 10 ms, and the kernel's high-water mark),
 * and what the answer was.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createNodeFetch } from '../../../electron/adapters/node-fetch';
import { highWater, resetHighWater } from './high-water';
import { sharedAnswerReader } from '../../../electron/core/service/answer-reader';
import { ServiceClient } from '../../../electron/core/service/service-client';
import { ServiceError } from '../../../electron/core/service/service-error';
import { FETCH_ONLY, type LargestAnswerReport } from './largest-answer-report';

async function fetchOnly(url: string): Promise<{ status: string }> {
  const response = await createNodeFetch()(url);
  const reader = response.body?.getReader();
  let bytes = 0;
  for (;;) {
    const read = await reader?.read();
    if (!read || read.done) break;
    bytes += read.value.byteLength;
  }
  return { status: `read by the fetch alone (${bytes} bytes)` };
}

function describe(result: unknown): string {
  if (result instanceof ServiceError) return `refused: ${result.sentence?.key ?? result.message}`;
  const task = result as { status: string; imageUrls?: unknown[]; inlineImages?: object };
  const inline = Object.keys(task.inlineImages ?? {}).length;
  return task.status === 'completed'
    ? `completed, ${task.imageUrls?.length ?? 0} images (${inline} inline)`
    : task.status;
}

async function main(): Promise<void> {
  const [origin = '', shape = '', bytes = '0'] = process.argv.slice(2);
  const client = new ServiceClient({ fetch: createNodeFetch(), requestTimeoutMs: 300_000 });
  const credentials = { baseUrl: origin, key: 'sk-bench-largest-0123456789', keyFingerprint: 'a' };
  await sharedAnswerReader().ready('query');
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const baselineRss = process.memoryUsage().rss;
  const canReset = resetHighWater();
  let peakRss = baselineRss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 10);
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const started = performance.now();
  const result = await (shape.startsWith(FETCH_ONLY)
    ? fetchOnly(`${origin}/v1/tasks/${shape.slice(FETCH_ONLY.length)}`)
    : client.getTask(credentials, shape).catch((error: unknown) => error));
  const wallMs = performance.now() - started;
  delay.disable();
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  const report: LargestAnswerReport = {
    shape,
    bytes: Number(bytes),
    stallMs: delay.max / 1e6,
    baselineRss,
    peakRss,
    highWaterRss: canReset ? highWater() : null,
    wallMs,
    outcome: describe(result),
  };
  console.log(JSON.stringify(report));
  await sharedAnswerReader().dispose();
}

await main();
