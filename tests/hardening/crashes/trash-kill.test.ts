/**
 * Undo under `kill -9`: a real child process (trash-kill-worker.ts, bundled) deletes 200 of a
 * gallery's 300 images and brings them back in one Undo; it dies by SIGKILL at a point of that Undo
 * chosen by a seeded random plan (a few milliseconds after the Undo reached the journal, or after
 * the n-th history write of at least twenty before its end; the worker counts the point in its own
 * progress and kills itself, so no pipe or busy machine moves it), then the app's replay runs in a
 * new process.
 * After every run all 300 images are in the gallery, saved, byte for byte, under their own
 * names, with their thumbnails; nothing went to the (recording) system trash, and neither the
 * trash folder nor the journal keeps anything.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFailed } from 'vitest';
import { TRASH_DIR } from '../../../electron/core/trash/gallery-trash';
import { HISTORY_FILE, HistoryStore } from '../../../electron/core/history/history-store';
import { TRASH_JOURNAL_DIR } from '../../../electron/core/trash/trash-journal';
import { seededRandom } from '../../../electron/demo-service/prng';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { makeImage } from '../../support/gallery-helpers';
import { nodeEntryArgs } from '../../support/node-entry-args';
import { makeTaskRecord } from '../../support/task-records';
import { recordReliability } from '../support/reliability-record';
import { scaled } from '../support/scale';
import { seedsToRun } from '../../support/seeds';
import { removeFolder, tempFolder } from '../../support/temp-folders';
import { memoryTempParent } from '../../support/memory-temp';
import { REPO_ROOT } from '../../support/source-files';

/** The plan's seed: 28028 under `npm test`; PICTOR_CRASH_SEED=<n> or random (tests/support/seeds.ts). */
const [SEED = 28_028] = seedsToRun(process.env['PICTOR_CRASH_SEED'], [28_028]);
const RUNS = scaled(4, 16);
const TASKS = 100;
const IMAGES_PER_TASK = 3;
const RESTORED = 200;
const FILE = 'tests/hardening/crashes/trash-kill.test.ts';

let dir = '';
const live = new Set<ChildProcess>();
afterAll(async () => {
  for (const child of live) child.kill('SIGKILL');
  if (dir) await removeFolder(dir);
});

interface Fixture {
  readonly dataDir: string;
  readonly galleryDir: string;
  readonly systemTrashDir: string;
  /** Each image's bytes, by `localId/index`. */
  readonly bytes: Map<string, Buffer>;
  readonly refs: { localId: string; index: number }[];
}

/** 100 tasks of 3 saved images each (real PNGs, thumbnails, sidecar-ready folders) in the history. */
async function gallery(): Promise<Fixture> {
  dir = await tempFolder('trash-kill', memoryTempParent());
  const dataDir = join(dir, 'data');
  const galleryDir = join(dir, 'gallery');
  const systemTrashDir = join(dir, 'system-trash');
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await mkdir(systemTrashDir);
  const bytes = new Map<string, Buffer>();
  const records: TaskRecord[] = [];
  const refs: { localId: string; index: number }[] = [];
  for (let task = 0; task < TASKS; task += 1) {
    const localId = `00000000-0000-4000-8000-${String(task).padStart(12, '0')}`;
    const folder = `2025/01/task-${String(task).padStart(3, '0')}`;
    await mkdir(join(galleryDir, folder, '.thumbs'), { recursive: true });
    const images = [];
    for (let index = 0; index < IMAGES_PER_TASK; index += 1) {
      const png = await makeImage('png', 8, 8);
      const file = `${folder}/image-${String(index + 1)}.png`;
      const thumbnail = `${folder}/.thumbs/image-${String(index + 1)}.webp`;
      await writeFile(join(galleryDir, file), png);
      await writeFile(join(galleryDir, thumbnail), await makeImage('webp', 4, 4));
      bytes.set(`${localId}/${String(index)}`, png);
      refs.push({ localId, index });
      images.push({
        index,
        url: null,
        state: 'saved' as const,
        attempts: 1,
        favourite: false,
        file,
        thumbnail,
      });
    }
    records.push(makeTaskRecord({ localId, folder, images }));
  }
  const history = HistoryStore.open(join(dataDir, HISTORY_FILE));
  history.putMany(records);
  history.close();
  return { dataDir, galleryDir, systemTrashDir, bytes, refs };
}

/** Where to kill one run: right after the Undo is journaled, or after the n-th history write. */
interface KillPlan {
  readonly after: 'journaled' | 'history';
  readonly occurrence: number;
  readonly delayMs: number;
}

/** History writes of the Undo left after the last planned kill point: the kill lands mid-Undo. */
const MARGIN = 20;

function planKill(random: () => number): KillPlan {
  const delayMs = Math.floor(random() * 4);
  if (random() < 0.2) return { after: 'journaled', occurrence: 1, delayMs };
  return { after: 'history', occurrence: 1 + Math.floor(random() * (RESTORED - MARGIN)), delayMs };
}

/** The worker's arguments for a plan (it kills itself at that point). */
function planArgs(plan: KillPlan): string[] {
  return [plan.after, String(plan.occurrence), String(plan.delayMs)];
}

/** Runs the worker; with a plan it must die by SIGKILL (its own) before it finished the Undo. */
async function runWorker(args: string[], plan: KillPlan | null): Promise<void> {
  const child = spawn(
    process.execPath,
    [...nodeEntryArgs('trash-kill-worker'), ...args, ...(plan ? planArgs(plan) : [])],
    { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  live.add(child);
  let finished = false;
  let stderr = '';
  let pending = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop() ?? '';
    if (lines.includes('finished')) finished = true;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const [code, signal] = (await once(child, 'close')) as [number | null, NodeJS.Signals | null];
  live.delete(child);
  if (plan) {
    expect(signal, `worker ended with ${String(code)} before its kill: ${stderr}`).toBe('SIGKILL');
    expect(finished, 'a kill that found the Undo already finished').toBe(false);
  } else {
    expect(code, stderr).toBe(0);
  }
}

/** Every file under `root`, relative, sorted. */
async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => !entry.isDirectory())
    .map((entry) => join(entry.parentPath, entry.name).slice(root.length + 1))
    .sort();
}

/** What one run left, counted before the checks that fail on it. */
interface RunCounts {
  /** Images saved with their own bytes and thumbnail. */
  back: number;
  /** Image files in the gallery besides those: second copies, or images still held. */
  others: number;
  sentToSystemTrash: number;
  journalFilesLeft: number;
  heldFilesLeft: number;
}

async function checkAllBack(f: Fixture): Promise<RunCounts> {
  const history = HistoryStore.open(join(f.dataDir, HISTORY_FILE));
  const counts: RunCounts = {
    back: 0,
    others: 0,
    sentToSystemTrash: 0,
    journalFilesLeft: 0,
    heldFilesLeft: 0,
  };
  try {
    const expected: string[] = [];
    for (const ref of f.refs) {
      const image = history.get(ref.localId)?.images.find((each) => each.index === ref.index);
      const name = `${ref.localId}/${String(ref.index)}`;
      const [file, thumbnail] = [image?.file, image?.thumbnail];
      const intact =
        image?.state === 'saved' &&
        typeof file === 'string' &&
        typeof thumbnail === 'string' &&
        existsSync(join(f.galleryDir, thumbnail)) &&
        (await readFile(join(f.galleryDir, file)).catch(() => Buffer.alloc(0))).equals(
          f.bytes.get(name)!,
        );
      if (intact) counts.back += 1;
      expect(image?.state, name).toBe('saved');
      expect(image?.file, name).toBe(
        `${history.get(ref.localId)!.folder!}/image-${String(ref.index + 1)}.png`,
      );
      expect((await readFile(join(f.galleryDir, image!.file!))).equals(f.bytes.get(name)!)).toBe(
        true,
      );
      expect(existsSync(join(f.galleryDir, image!.thumbnail!)), `${name} thumbnail`).toBe(true);
      expected.push(image!.file!, image!.thumbnail!);
    }
    const images = (await filesUnder(f.galleryDir)).filter((file) => !file.endsWith('pictor.json'));
    counts.others = images.filter((file) => !expected.includes(file)).length;
    expect(images, 'no other file in the gallery (no second copy, nothing left held)').toEqual(
      expected.sort(),
    );
  } finally {
    history.close();
  }
  const trashLog = join(f.systemTrashDir, 'log');
  counts.sentToSystemTrash = existsSync(trashLog)
    ? (await readFile(trashLog, 'utf8')).split('\n').filter(Boolean).length
    : 0;
  const journal = await readdir(join(f.dataDir, TRASH_JOURNAL_DIR));
  const held = await readdir(join(f.galleryDir, TRASH_DIR));
  counts.journalFilesLeft = journal.length;
  counts.heldFilesLeft = held.length;
  expect(existsSync(trashLog), 'sent to the system trash').toBe(false);
  expect(journal).toEqual([]);
  expect(held).toEqual([]);
  return counts;
}

describe('Undo of a 200-image delete under SIGKILL', () => {
  it(`brings back all 300 images after ${String(RUNS)} kills at random points of the Undo`, async () => {
    onTestFailed(() => console.error(`trash-kill seed: ${SEED} (PICTOR_CRASH_SEED=${SEED})`));
    const random = seededRandom(SEED);
    const f = await gallery();
    const refsFile = join(dir, 'refs.json');
    const kills: Record<string, number> = {};
    const total: RunCounts & { lost: number } = {
      back: 0,
      others: 0,
      sentToSystemTrash: 0,
      journalFilesLeft: 0,
      heldFilesLeft: 0,
      lost: 0,
    };
    for (let run = 0; run < RUNS; run += 1) {
      // A different 200 of the 300 each run.
      const chosen = [...f.refs]
        .map((ref) => ({ ref, key: random() }))
        .sort((a, b) => a.key - b.key)
        .slice(0, RESTORED)
        .map(({ ref }) => ref);
      await writeFile(refsFile, JSON.stringify(chosen));
      const plan = planKill(random);
      const base = [f.dataDir, f.galleryDir, f.systemTrashDir];
      await runWorker([...base, 'cycle', refsFile], plan);
      await runWorker([...base, 'replay'], null);
      const counts = await checkAllBack(f);
      for (const key of Object.keys(counts) as (keyof RunCounts)[]) total[key] += counts[key];
      total.lost += f.refs.length - counts.back;
      const at = plan.after === 'journaled' ? 'as the Undo was journaled' : 'mid-Undo';
      kills[`SIGKILL ${at}`] = (kills[`SIGKILL ${at}`] ?? 0) + 1;
    }
    recordReliability({
      file: FILE,
      section: 'crashes',
      row: 'Undo of a 200-image delete killed with SIGKILL',
      load: `${String(TASKS * IMAGES_PER_TASK)} images, ${String(RESTORED)} deleted and brought back per run, ${String(RUNS)} runs`,
      injected: kills,
      outcome: {
        'images found intact after replay (all runs)': total.back,
        'other image files in the gallery': total.others,
        'sent to the system trash': total.sentToSystemTrash,
        'journal files left': total.journalFilesLeft,
        'held files left': total.heldFilesLeft,
        seed: SEED,
      },
      lost: total.lost,
      duplicated: total.others,
      leaked: total.journalFilesLeft + total.heldFilesLeft,
    });
  });
});
