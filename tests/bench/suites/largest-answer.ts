/**
 * The "Largest answer" row: the largest answer a service may send of each shape (one inline
 * image of the whole 64 MiB cap, 16 inline images, a listing at the entry cap, a 1 MiB failure
 * message, and a running task listing 29 million entries, which is refused), served from this
 * process over loopback and read by a child bundled as the app's main process is
 * (engine/largest-answer-child.ts), a fresh one per run: the main thread's longest stall and the
 * process's RSS growth while it reads one. `npm run bench -- --only largest-answer`.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { MAX_ANSWER_ENTRIES } from '../../../electron/core/service/answer-limits';
import { DOWNLOAD_MAX_IMAGE_BYTES } from '../../../shared/domain/limits';
import type { BenchRow, BenchSuite } from '../bench-row';
import { bundleChild } from '../bundled-child';
import { FETCH_ONLY, type LargestAnswerReport } from '../engine/largest-answer-report';
import { runJsonChild } from '../json-child';

const CHILD = fileURLToPath(new URL('../engine/largest-answer-child.ts', import.meta.url));
const COMMAND = 'npm run bench -- --only largest-answer';
const MIB = 1024 * 1024;
const MB = 1e6;
/** Fresh processes per shape; a shape's figures are its median run's. */
const RUNS = 3;
const TARGET_STALL_MS = 100;
const TARGET_GROWTH_MB = 256;

/** Each shape's answer, and what it is called in the row. */
function shapes(): { name: string; label: string; body: Buffer }[] {
  const done = (entries: string) => `{"status":"completed","output":{"data":[${entries}]}}`;
  const inline64 = done(
    `{"b64_json":"${randomBytes(DOWNLOAD_MAX_IMAGE_BYTES).toString('base64')}"}`,
  );
  const sixteen = Array.from({ length: 16 }, (_, i) => {
    const data = randomBytes(4 * MIB).toString('base64');
    return i % 2 === 0 ? `{"url":"data:image/png;base64,${data}"}` : `{"b64_json":"${data}"}`;
  });
  const longUrl = (i: number) => `https://cdn.example.com/${String(i).padStart(4000, 'x')}.png`;
  const atCap = Array.from({ length: MAX_ANSWER_ENTRIES }, (_, i) => `{"url":"${longUrl(i)}"}`);
  const words = 'The model could not finish this image. '.repeat(Math.floor((MIB - 100) / 39));
  const entries = Buffer.alloc(29_000_000 * 3 - 1, '{},');
  return [
    { name: 'inline-64', label: '64 MiB inline image', body: Buffer.from(inline64) },
    {
      name: 'inline-16',
      label: '16 inline images of 4 MiB',
      body: Buffer.from(done(sixteen.join(','))),
    },
    {
      name: 'entry-cap',
      label: `${MAX_ANSWER_ENTRIES} entries (the cap) of 4 KB addresses`,
      body: Buffer.from(done(atCap.join(','))),
    },
    {
      name: 'failure-1mib',
      label: '1 MiB failure message',
      body: Buffer.from(JSON.stringify({ status: 'failed', error: { message: words } })),
    },
    {
      name: 'entries-29m',
      label: '29 million entries, running (refused)',
      body: Buffer.concat([
        Buffer.from('{"status":"processing","output":{"data":['),
        entries,
        Buffer.from(']}}'),
      ]),
    },
  ];
}

function serve(bodies: ReadonlyMap<string, Buffer>): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const body = bodies.get(/^\/v1\/tasks\/([^/?]+)/.exec(req.url ?? '')?.[1] ?? '');
    if (!body) return res.writeHead(404).end();
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': body.length,
      connection: 'close',
    });
    res.end(body);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      resolve({ server, url: `http://127.0.0.1:${port}` });
    });
  });
}

const growth = (run: LargestAnswerReport) => (run.peakRss - run.baselineRss) / MB;
const highWater = (run: LargestAnswerReport) =>
  run.highWaterRss === null ? null : (run.highWaterRss - run.baselineRss) / MB;

function median(runs: readonly LargestAnswerReport[]): LargestAnswerReport {
  const sorted = [...runs].sort((a, b) => a.stallMs - b.stallMs);
  const middle = sorted[Math.floor(sorted.length / 2)];
  if (!middle) throw new Error('no largest-answer run');
  return middle;
}

function shapeText(label: string, runs: readonly LargestAnswerReport[]): string {
  const run = median(runs);
  const hwm = highWater(run);
  return (
    `${label} (${(run.bytes / MIB).toFixed(1)} MiB, ${run.outcome}): stall ${run.stallMs.toFixed(0)} ms ` +
    `(runs ${runs.map((r) => r.stallMs.toFixed(0)).join(', ')}), growth +${growth(run).toFixed(0)} MB` +
    `${hwm === null ? '' : ` (kernel high-water +${hwm.toFixed(0)} MB)`}, read in ${(run.wallMs / 1000).toFixed(1)} s`
  );
}

export const suite: BenchSuite = {
  name: 'largest-answer',
  async run(): Promise<BenchRow[]> {
    const all = shapes();
    const { server, url } = await serve(new Map(all.map((shape) => [shape.name, shape.body])));
    // The control: the largest body read by the fetch alone, what the transport costs this
    // machine now (nothing parsed or decoded), run between the shapes' runs.
    const control = { name: `${FETCH_ONLY}inline-64`, label: 'control', body: all[0]?.body };
    const bundle = await bundleChild(CHILD);
    const results: { label: string; runs: LargestAnswerReport[] }[] = [];
    const controls: LargestAnswerReport[] = [];
    const child = (name: string, bytes: number) =>
      runJsonChild<LargestAnswerReport>(bundle.file, [url, name, String(bytes)], {
        timeoutMs: 300_000,
        name: 'largest-answer child',
        bundled: true,
      });
    try {
      for (const shape of all) {
        const runs: LargestAnswerReport[] = [];
        for (let i = 0; i < RUNS; i += 1) runs.push(await child(shape.name, shape.body.length));
        results.push({ label: shape.label, runs });
        controls.push(await child(control.name, control.body?.length ?? 0));
      }
    } finally {
      server.close();
      await bundle.dispose();
    }
    const medians = results.map(({ runs }) => median(runs));
    const worstStall = Math.max(...medians.map((run) => run.stallMs));
    const worstGrowth = Math.max(...medians.map(growth));
    return [
      {
        row: 'Largest answer',
        scenario:
          'the largest answer a service may send of each shape (one inline image of the 64 MiB cap, 16 inline images, a listing at the entry cap, a 1 MiB failure message; and a running task listing 29 million entries, refused), served over loopback and read by the real ServiceClient, its answer worker and the CLI’s fetch in a child bundled as the app’s main process is; a fresh process per run, the worker already up; median of 3 runs per shape',
        target: `main-thread longest stall ≤ ${TARGET_STALL_MS} ms; RSS growth ≤ ${TARGET_GROWTH_MB} MB`,
        measured:
          `worst shape: stall ${worstStall.toFixed(0)} ms, growth +${worstGrowth.toFixed(0)} MB; ` +
          results.map(({ label, runs }) => shapeText(label, runs)).join('; ') +
          `; control, the 64 MiB inline answer read by the fetch alone: ${shapeText('', controls).replace(/^ \(/, '(')}`,
        pass: worstStall <= TARGET_STALL_MS && worstGrowth <= TARGET_GROWTH_MB,
        judged: [
          {
            name: 'worst stall',
            value: worstStall,
            unit: ' ms',
            digits: 0,
            bound: { atMost: TARGET_STALL_MS },
          },
          {
            name: 'worst growth',
            value: worstGrowth,
            unit: ' MB',
            digits: 0,
            bound: { atMost: TARGET_GROWTH_MB },
          },
        ],
        command: COMMAND,
        note:
          'Stall: the largest delay of the main thread’s event loop while the answer was read ' +
          '(`monitorEventLoopDelay`, 10 ms resolution), from the request to the typed answer. ' +
          'Growth: the whole process’s RSS (the answer worker is a thread of it), sampled every ' +
          '10 ms, over its RSS after a GC with the worker up; MB is 10^6 bytes. The main thread only ' +
          'moves the body’s chunks to the worker (core/service/answer-reader.ts); the worker bounds ' +
          'the answer’s structure as it arrives, decodes inline images into buffers it then moves ' +
          'back, and parses and searches for the key only the rest of the answer, at most 1 MiB. ' +
          'The control reads the largest body with the fetch alone, nothing parsed, once after each ' +
          'shape’s runs: what receiving that many bytes costs the main thread on this machine at ' +
          'that moment (its stall is load and the transport’s, not the reader’s).',
      },
    ];
  },
};
