/**
 * The "Gallery rebuild" row: a gallery folder of 100,000 tasks, laid out as the app
 * writes it (a folder per task with its `pictor.json` sidecar, a real PNG and its WebP
 * thumbnail), built once and cached under the system's temp folder, then `pictor rebuild` run on
 * it as a user would, in a fresh process with an empty library. The command line is bundled the
 * way the app's main process is (esbuild, dependencies external) and run by Node, as the packaged
 * app runs it in Electron's Node. Wall time and the process's peak RSS (the kernel's high-water
 * mark, VmHWM, read from /proc every 25 ms until it exits).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import sharp from 'sharp';
import { mainBuildOptions } from '../../electron/build/build-electron';
import { imageNames } from '../../electron/core/gallery/gallery-layout';
import { sidecarText } from '../../electron/core/gallery/sidecar';
import type { TaskRecord } from '../../shared/domain/task-record';
import { benchRecord } from './history-fixture';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Bump when the layout written below changes, so an old cache is not reused. */
const LAYOUT_VERSION = 1;

export interface RebuildFigures {
  readonly tasks: number;
  readonly built: boolean;
  readonly buildMs: number;
  readonly wallMs: number;
  readonly peakRss: number | null;
  readonly exitCode: number | null;
  readonly output: string;
}

/** The record as the app leaves it: one saved image in the task's own folder. */
function galleryRecord(n: number): TaskRecord {
  const base = benchRecord(n);
  const folder = `${2020 + (n % 5)}/${String(1 + (n % 12)).padStart(2, '0')}/task-${n}`;
  const names = imageNames(0, 'png');
  return {
    ...base,
    folder,
    images: [
      {
        index: 0,
        url: `https://cdn.example.test/${n}/0.png`,
        state: 'saved',
        file: `${folder}/${names.image}`,
        thumbnail: `${folder}/${names.thumbnail}`,
        width: 16,
        height: 16,
        bytes: 0,
        mime: 'image/png',
        attempts: 1,
        savedAt: base.createdAt + 6_000,
        favourite: false,
      },
    ],
  };
}

/** A gallery folder of `tasks` tasks, from the cache when one of this size and layout exists. */
async function cachedGallery(tasks: number): Promise<{ root: string; built: boolean; ms: number }> {
  const root = join(tmpdir(), `pictor-bench-gallery-${tasks}`);
  const marker = join(root, '.complete');
  const expected = `${LAYOUT_VERSION}:${tasks}`;
  if (existsSync(marker) && readFileSync(marker, 'utf8') === expected) {
    return { root, built: false, ms: 0 };
  }
  const started = performance.now();
  rmSync(root, { recursive: true, force: true });
  const png = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#468' } })
    .png()
    .toBuffer();
  const webp = await sharp(png).webp().toBuffer();
  const names = imageNames(0, 'png');
  for (let n = 0; n < tasks; n += 1) {
    const record = galleryRecord(n);
    const folder = join(root, record.folder ?? '');
    mkdirSync(join(folder, '.thumbs'), { recursive: true });
    const image = record.images[0];
    writeFileSync(join(folder, names.image), png);
    writeFileSync(join(folder, names.thumbnail), webp);
    writeFileSync(
      join(folder, 'pictor.json'),
      sidecarText({ ...record, images: image ? [{ ...image, bytes: png.length }] : [] }),
    );
  }
  writeFileSync(marker, expected);
  return { root, built: true, ms: performance.now() - started };
}

function highWater(pid: number): number | null {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? null : Number(kb) * 1024;
  } catch {
    return null;
  }
}

/**
 * The CLI bundled like the main process (electron/build/build-electron.ts's options), written
 * under node_modules/.cache so its dependencies resolve from the project's node_modules.
 */
async function bundleCli(): Promise<string> {
  const outDir = join(ROOT, 'node_modules', '.cache', 'pictor-bench');
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  const options = mainBuildOptions({ rootDir: ROOT, outDir }, manifest.dependencies ?? {});
  await build({
    ...options,
    entryPoints: { 'pictor-cli': join(ROOT, 'electron', 'cli', 'main.ts') },
    outExtension: { '.js': '.mjs' },
  });
  return join(outDir, 'pictor-cli.mjs');
}

/** Builds (or reuses) the folder and runs `pictor rebuild` on it with an empty library. */
export async function measureRebuild(tasks: number): Promise<RebuildFigures> {
  const cli = await bundleCli();
  const gallery = await cachedGallery(tasks);
  const dataDir = await mkdtemp(join(tmpdir(), 'pictor-bench-rebuild-data-'));
  try {
    const started = performance.now();
    const child = spawn(
      process.execPath,
      [cli, 'rebuild', '--data-dir', dataDir, '--gallery-dir', gallery.root],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    let peakRss: number | null = null;
    const sample = () => {
      if (child.pid === undefined) return;
      const now = highWater(child.pid);
      if (now !== null) peakRss = Math.max(peakRss ?? 0, now);
    };
    const sampler = setInterval(sample, 25);
    const exitCode = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    clearInterval(sampler);
    const wallMs = performance.now() - started;
    return {
      tasks,
      built: gallery.built,
      buildMs: gallery.ms,
      wallMs,
      peakRss,
      exitCode,
      output: `${output.trim()}${errors ? `\n${errors.trim().slice(0, 500)}` : ''}`,
    };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
