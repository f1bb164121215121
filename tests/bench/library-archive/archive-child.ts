/**
 * One phase of the archive bench in a fresh process, so each peak RSS is its own:
 * `export <dataDir> <archive>` or `import <archive> <dataDir>`. Prints one JSON report: wall
 * time, bytes, the process's peak RSS (sampled every 20 ms, and the kernel's VmHWM) and its
 * baseline after a GC, before the work.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { exportLibrary } from '../../../electron/core/library/archive/export-library';
import { importLibrary } from '../../../electron/core/library/archive/import-library';
import { HISTORY_FILE } from '../../../electron/core/pictor-core';
import { galleryOffline } from '../../support/gallery-with-intake';

export interface ArchivePhaseReport {
  readonly phase: 'export' | 'import';
  readonly wallMs: number;
  readonly tasks: number;
  readonly images: number;
  readonly bytes: number;
  readonly baselineRss: number;
  readonly peakRss: number;
  readonly hwmRss: number | null;
  readonly summary: unknown;
}

function vmHwm(): number | null {
  try {
    const line = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    return line ? Number(line[1]) * 1024 : null;
  } catch {
    return null;
  }
}

async function main(): Promise<void> {
  const [phase, from, to] = process.argv.slice(2) as ['export' | 'import', string, string];
  globalThis.gc?.();
  const baselineRss = process.memoryUsage().rss;
  let peakRss = baselineRss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
  const started = performance.now();
  let report: Omit<ArchivePhaseReport, 'wallMs' | 'baselineRss' | 'peakRss' | 'hwmRss' | 'phase'>;
  if (phase === 'export') {
    const history = HistoryStore.open(join(from, HISTORY_FILE));
    const summary = await exportLibrary({
      root: join(from, 'gallery'),
      history,
      target: to,
      pictorVersion: 'bench',
    });
    history.close();
    report = {
      tasks: summary.tasks,
      images: summary.images,
      bytes: summary.bytes,
      summary: { skipped: summary.skipped.length },
    };
  } else {
    // A fresh library, as the app makes it on first start.
    mkdirSync(join(to, 'gallery', '.pictor-tmp'), { recursive: true });
    const history = HistoryStore.open(join(to, HISTORY_FILE));
    const { intake } = galleryOffline(join(to, 'gallery'));
    const summary = await importLibrary({ intake, history, source: from });
    history.close();
    const { refused, ...counts } = summary;
    report = {
      tasks: summary.addedTasks + summary.duplicateTasks,
      images: summary.addedImages,
      bytes: 0,
      summary: { ...counts, refused: refused.length },
    };
  }
  const wallMs = performance.now() - started;
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  console.log(JSON.stringify({ phase, wallMs, baselineRss, peakRss, hwmRss: vmHwm(), ...report }));
}

await main();
