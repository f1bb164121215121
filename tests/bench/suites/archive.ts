/**
 * The library archive: export a library of 10,000 images to one ZIP, then import it
 * into a fresh library, then import it again (every task and image already there). Each phase
 * runs in a fresh process (archive-child.ts) so its peak RSS is its own. No target is set by the
 * issue: the rows report throughput and memory.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchRow, BenchSuite, JudgedFigure } from '../bench-row';
import { runJsonChild } from '../json-child';
import type { ArchivePhaseReport } from '../library-archive/archive-child';
import { buildArchiveLibrary } from '../library-archive/archive-fixture';

const TASKS = Number(process.env.PICTOR_BENCH_ARCHIVE_TASKS ?? 10_000);
const MB = 1024 * 1024;
const COMMAND = 'npm run bench -- --only archive';
const CHILD = 'tests/bench/library-archive/archive-child.ts';

function phase(args: string[], name: string): Promise<ArchivePhaseReport> {
  return runJsonChild<ArchivePhaseReport>(CHILD, args, { timeoutMs: 30 * 60_000, name });
}

/** A phase's reported figures: its wall time and its peak RSS. */
function reported(report: ArchivePhaseReport): JudgedFigure[] {
  return [
    { name: 'time', value: report.wallMs / 1000, unit: ' s', digits: 1 },
    { name: 'peak RSS', value: report.peakRss / MB, unit: ' MB', digits: 0 },
  ];
}

function figures(report: ArchivePhaseReport, bytes: number): string {
  const seconds = report.wallMs / 1000;
  const hwm =
    report.hwmRss === null ? '' : `, kernel high-water ${(report.hwmRss / MB).toFixed(0)} MB`;
  return (
    `${seconds.toFixed(1)} s, ${(bytes / MB / seconds).toFixed(1)} MB/s (archive size over wall time), ` +
    `${(report.tasks / seconds).toFixed(0)} tasks/s handled; peak RSS ${(report.peakRss / MB).toFixed(0)} MB ` +
    `(+${((report.peakRss - report.baselineRss) / MB).toFixed(0)} MB over the process at rest${hwm})`
  );
}

export const suite: BenchSuite = {
  name: 'archive',
  async run(): Promise<BenchRow[]> {
    const dir = await mkdtemp(join(tmpdir(), 'pictor-bench-archive-'));
    try {
      const from = join(dir, 'from');
      const to = join(dir, 'to');
      const archive = join(dir, 'library.zip');
      const { imageBytes } = await buildArchiveLibrary(from, TASKS);
      const exported = await phase(['export', from, archive], 'archive export');
      const archiveBytes = (await stat(archive)).size;
      const imported = await phase(['import', archive, to], 'archive import');
      const again = await phase(['import', archive, to], 'archive re-import');
      const scenario = `${TASKS.toLocaleString('en')} tasks, one ${(imageBytes / TASKS / 1024).toFixed(0)} KB noise PNG each (${(imageBytes / MB).toFixed(0)} MB of images); archive ${(archiveBytes / MB).toFixed(0)} MB`;
      const note =
        "Each phase in a fresh Node process (the CLI's path: HistoryStore + core/library/archive). Import writes every task folder in .pictor-tmp, flushes each file and renames the folder into place, and puts one history record per task; " +
        "re-import reads no image (the manifest's SHA-256 matches the files already there) but hashes the library's own files.";
      return [
        {
          row: 'Library export',
          scenario: `${scenario}; exported to one ZIP (images stored, sidecars deflated, SHA-256 manifest)`,
          target: 'none (reported)',
          measured: `${figures(exported, archiveBytes)}; ${exported.images} images`,
          pass: null,
          judged: reported(exported),
          command: COMMAND,
          note,
        },
        {
          row: 'Library import',
          scenario: `${scenario}; imported into a fresh library`,
          target: 'none (reported)',
          measured: `${figures(imported, archiveBytes)}; ${JSON.stringify(imported.summary)}`,
          pass: null,
          judged: reported(imported),
          command: COMMAND,
        },
        {
          row: 'Library re-import',
          scenario: `${scenario}; the same archive imported again (all duplicates)`,
          target: 'none (reported)',
          measured: `${figures(again, archiveBytes)}; ${JSON.stringify(again.summary)}`,
          pass: null,
          judged: reported(again),
          command: COMMAND,
        },
      ];
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};
