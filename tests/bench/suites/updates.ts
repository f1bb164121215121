/**
 * "Task updates under load": the built renderer in headless Chromium (the chromium host) over the
 * real AppRuntime, its embedded demo service and the app's one wiring (wireApp): 200 tasks
 * submitted at once from the page, each polled every 3 s; while they poll, the task messages main
 * sends the page are counted (per second, and the busiest second) and the page's frames are
 * timed (requestAnimationFrame deltas). The same count before the tasks start is the page's own
 * noise.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { LaunchedApp } from '../../e2e/harness/app-types';
import { launchChromiumApp } from '../../e2e/harness/chromium-host';
import { acquireTestBuild } from '../../support/test-build';
import type { BenchRow, BenchSuite } from '../bench-row';
import { LONG_FRAME_MS, frames, type Frames } from '../frame-times';
import { withNameShim } from './renderer';
import { busiestSecond } from '../../support/busiest-second';

const COMMAND = 'npm run bench -- --only updates';
const TASKS = 200;
/** How long each task runs on the demo: all of them still poll through the measured window. */
const DEMO_DURATION_MS = 90_000;
/** After the submits, one poll interval and more: every task polls at its own phase by then. */
const SETTLE_MS = 6_000;
const MEASURE_MS = 30_000;
const IDLE_MS = 3_000;
const SAMPLE_MS = 25;
const TARGET_PER_SECOND = 10;
/** The control's poll interval (the most the app takes): no task polls while it is timed. */
const QUIET_POLL_MS = 60_000;
const TARGET_LONG_PCT = 2;

/** The page's frame times (rAF deltas) over `ms`. */
function pageFrames(page: Page, ms: number): Promise<number[]> {
  return page.evaluate(
    (duration) =>
      new Promise<number[]>((resolve) => {
        const deltas: number[] = [];
        let start: number | null = null;
        let previous: number | null = null;
        const frame = (now: number): void => {
          start ??= now;
          if (previous !== null) deltas.push(now - previous);
          previous = now;
          if (now - start < duration) requestAnimationFrame(frame);
          else resolve(deltas);
        };
        requestAnimationFrame(frame);
      }),
    ms,
  );
}

/**
 * A task message as it crossed to the page: a `tasks:updated` batch (an array of changes), or
 * the single record an earlier `task:updated` carried (so the same row measures either).
 */
function taskMessage(text: string): { changes: number; live: number } | null {
  if (text.startsWith('[')) {
    const changes = JSON.parse(text) as { change: string }[];
    return { changes: changes.length, live: changes.filter((c) => c.change === 'live').length };
  }
  return text.startsWith('{"record"') ? { changes: 1, live: 0 } : null;
}

/** One task message main sent: when (ms into the window) and how big. */
interface Sent {
  readonly at: number;
  readonly bytes: number;
  readonly changes: number;
  readonly live: number;
}

/** Watches what main sends the page (the harness keeps every payload) until stopped. */
function watchMessages(app: LaunchedApp): () => Sent[] {
  const start = performance.now();
  let seen = app.ipcPayloads().length;
  const stamped: { at: number; text: string }[] = [];
  const timer = setInterval(() => {
    const payloads = app.ipcPayloads();
    const at = performance.now() - start;
    for (const text of payloads.slice(seen)) stamped.push({ at, text });
    seen = payloads.length;
  }, SAMPLE_MS);
  return () => {
    clearInterval(timer);
    return stamped.flatMap(({ at, text }) => {
      const message = taskMessage(text);
      return message ? [{ at, bytes: Buffer.byteLength(text), ...message }] : [];
    });
  };
}

/** Submits the tasks from the page, ten per request as the form may (the demo, no key). */
async function submitAll(page: Page): Promise<void> {
  const failed = await page.evaluate(async (count) => {
    type Api = { invoke(channel: string, input: unknown): Promise<{ ok: boolean }> };
    const api = (window as unknown as { pictor: Api }).pictor;
    let refused = 0;
    for (let n = 0; n < count / 10; n += 1) {
      const result = await api.invoke('tasks:submit', {
        request: { prompt: `updates bench ${n}: a lighthouse in a storm`, size: '64x64' },
        target: { provider: 'pictor', endpoint: 'demo:' },
        count: 10,
      });
      if (!result.ok) refused += 1;
    }
    return refused;
  }, TASKS);
  if (failed > 0) throw new Error(`${failed} submits refused`);
}

/** Where the time went over the window: the page's main thread (CDP), this process (main). */
interface Busy {
  /** Share of the window the page's main thread ran tasks, and of that script, style, layout. */
  readonly page: { task: number; script: number; style: number; layout: number };
  /** CPU of this process (the app's main process and the demo service) over the window, cores. */
  readonly mainCores: number;
}

type Metrics = Record<string, number>;

async function pageMetrics(page: Page): Promise<() => Promise<Busy['page']>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const read = async (): Promise<Metrics> => {
    const { metrics } = (await cdp.send('Performance.getMetrics')) as {
      metrics: { name: string; value: number }[];
    };
    return Object.fromEntries(metrics.map((metric) => [metric.name, metric.value]));
  };
  const before = await read();
  const started = performance.now();
  return async () => {
    const after = await read();
    const window = (performance.now() - started) / 1000;
    const share = (name: string) => ((after[name] ?? 0) - (before[name] ?? 0)) / window;
    await cdp.detach();
    return {
      task: share('TaskDuration'),
      script: share('ScriptDuration'),
      style: share('RecalcStyleDuration'),
      layout: share('LayoutDuration'),
    };
  };
}

interface Measured {
  readonly sent: Sent[];
  readonly busy: Frames;
  readonly idle: Frames;
  readonly load: Busy;
}

async function measure(app: LaunchedApp): Promise<Measured> {
  const { page } = app;
  await page.locator('main').first().waitFor();
  const idle = frames(await pageFrames(page, IDLE_MS));
  await submitAll(page);
  await page.waitForTimeout(SETTLE_MS);
  const stop = watchMessages(app);
  const pageBusy = await pageMetrics(page);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const busy = frames(await pageFrames(page, MEASURE_MS));
  const used = process.cpuUsage(cpu);
  const mainCores = (used.user + used.system) / 1000 / (performance.now() - started);
  return { sent: stop(), busy, idle, load: { page: await pageBusy(), mainCores } };
}

const percent = (share: number): string => `${(100 * share).toFixed(1)}%`;

function row(run: Measured, quiet: Measured): BenchRow {
  const seconds = MEASURE_MS / 1000;
  const perSecond = run.sent.length / seconds;
  const busiest = busiestSecond(run.sent.map((message) => message.at));
  const changes = run.sent.reduce((sum, message) => sum + message.changes, 0);
  const live = run.sent.reduce((sum, message) => sum + message.live, 0);
  const kb = run.sent.reduce((sum, message) => sum + message.bytes, 0) / 1000;
  const { busy, idle } = run;
  const describe = (f: Frames) =>
    `${f.pct.toFixed(1)}% long frames (${f.long}/${f.frames} > 16.7 ms; p95 ${f.p95.toFixed(1)} ms, max ${f.max.toFixed(0)} ms)`;
  return {
    row: 'Task updates under load',
    scenario: `${TASKS} tasks polling every 3 s on the embedded demo service, the real core and wiring, the built renderer showing the Tasks view: the task messages main sends the page and the page's frames, over ${seconds} s while they poll`,
    target: `≤ ${TARGET_PER_SECOND} messages/s (batches) in the busiest second; < ${TARGET_LONG_PCT}% long frames`,
    measured:
      `${perSecond.toFixed(1)} messages/s, busiest second ${busiest} (${run.sent.length} messages, ${changes} task changes, ${live} of them live parts, ${(kb / seconds).toFixed(1)} KB/s); ` +
      `${describe(busy)}; page before the tasks: ${describe(idle)}; the same tasks with no poll: ${describe(quiet.busy)}, page main thread busy ${percent(quiet.load.page.task)}, ${quiet.sent.length} messages; ` +
      `page main thread busy ${percent(run.load.page.task)} (script ${percent(run.load.page.script)}, style ${percent(run.load.page.style)}, layout ${percent(run.load.page.layout)}); main process ${run.load.mainCores.toFixed(2)} cores`,
    pass: run.sent.length > 0 && busiest <= TARGET_PER_SECOND && busy.pct < TARGET_LONG_PCT,
    judged: [
      { name: 'messages', value: run.sent.length, unit: '', digits: 0, bound: { atLeast: 1 } },
      {
        name: 'busiest second',
        value: busiest,
        unit: ' messages',
        digits: 0,
        bound: { atMost: TARGET_PER_SECOND },
      },
      {
        name: 'long frames',
        value: busy.pct,
        unit: '%',
        digits: 1,
        bound: { below: TARGET_LONG_PCT },
      },
    ],
    command: COMMAND,
    note:
      `Messages: every task message main handed to the page (the chromium host keeps each payload as the JSON that crossed), counted from ${SETTLE_MS / 1000} s after the ${TASKS / 10} submits of ten, when every task polls at its own phase of the 3 s interval (about ${Math.round(TASKS / 3)} polls a second), timestamped by sampling every ${SAMPLE_MS} ms. A live part is a poll that moved only the bookkeeping (count, time, live state), sent without the record and its prompt. ` +
      `Frames: rAF deltas in the page over the same window; a frame is long above ${LONG_FRAME_MS} ms (timer coarsened to 0.1 ms, so a 16.67 ms frame reads up to 16.8 ms). "Page before the tasks" is the same count over ${IDLE_MS / 1000} s with no task. ` +
      'Built renderer in headless Chromium (chromium host, --disable-gpu, software raster, 1280x800); the harness hands each message to the page with a DevTools call (page.evaluate), which Electron’s IPC does not need; the main process runs in the bench’s own Node process.',
  };
}

/** One app on a fresh library: `env` says how often its tasks poll. */
async function runApp(root: string, name: string, env: Record<string, string>): Promise<Measured> {
  const data = join(root, name, 'data');
  mkdirSync(data, { recursive: true });
  const app = await launchChromiumApp({
    userDataDir: data,
    galleryDir: join(root, name, 'gallery'),
    env: { PICTOR_DEMO_DURATION_MS: String(DEMO_DURATION_MS), ...env },
    guardNavigation: false,
  });
  try {
    return await measure(app);
  } finally {
    await app.close();
  }
}

export const suite: BenchSuite = {
  name: 'updates',
  run: async () => {
    const acquired = await acquireTestBuild();
    console.error(`bench: updates: ${acquired.line}`);
    const root = mkdtempSync(join(tmpdir(), 'pictor-bench-updates-'));
    try {
      return await withNameShim(async () => {
        const polling = await runApp(root, 'polling', {});
        // The same page and tasks with no poll in the window: what drawing them costs alone.
        const quiet = await runApp(root, 'quiet', {
          PICTOR_POLL_INTERVAL_MS: String(QUIET_POLL_MS),
        });
        return [row(polling, quiet)];
      });
    } finally {
      rmSync(root, { recursive: true, force: true });
      await acquired.release();
    }
  },
};
