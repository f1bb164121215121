/**
 * The UI bench page: the real renderer over the in-memory fake API (the screenshot harness's
 * set-up), seeded with `?tasks=` tasks of which every `?imageEvery=`th has one saved image, and
 * in-page probes the suite drives: the history list's mount time and a steady scripted scroll
 * that records requestAnimationFrame deltas and the most <img> elements seen.
 */
import type { TaskRecord } from '../../../shared/domain/task-record';
import { type FakePictorApi } from '../../fakes/fake-pictor-api';
import { makeImage } from '../../support/task-records';
import { startHarnessPage } from '../../unit/renderer/harness/harness-page';
import { useAppStore } from '../../../renderer/store/app-store';
import type { View } from '../../../renderer/store/ui-slice';

/** Distinct thumbnail files the suite writes at `gallery/g/<n>.webp`. */
export const THUMBNAILS = 32;

/** What the in-page scroll reports. */
export interface ScrollResult {
  readonly deltas: number[];
  readonly maxImages: number;
  readonly scrolledPx: number;
}

/** The mount probe: store time of the first page, then DOM commit and paint of the first rows. */
interface MountProbe {
  dataAt: number | null;
  rowsAt: number | null;
  paintedAt: number | null;
  total: number;
}

const probe: MountProbe = { dataAt: null, rowsAt: null, paintedAt: null, total: 0 };

// Subscribed before the renderer starts: zustand calls this synchronously inside the `set` that
// stores the first page, i.e. the moment the list's data arrives in the renderer.
// The count comes in its own answer after the first page.
const unsubscribe = useAppStore.subscribe((state, previous) => {
  if (state.tasksLoaded && !previous.tasksLoaded && state.tasksTotal > 0) {
    probe.dataAt = performance.now();
  }
  if (state.tasksCounted) {
    probe.total = state.tasksTotal;
    unsubscribe();
  }
});

/** Resolves after the next frame has been produced (rAF, then a task queued after the paint). */
function afterPaint(): Promise<number> {
  return new Promise((resolve) => {
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => resolve(performance.now());
      channel.port2.postMessage(null);
    });
  });
}

const rows = new MutationObserver(() => {
  if (probe.dataAt === null || !document.querySelector('.task-list article[data-index]')) return;
  probe.rowsAt = performance.now();
  rows.disconnect();
  void afterPaint().then((at) => {
    probe.paintedAt = at;
  });
});
rows.observe(document, { childList: true, subtree: true });

function seed(fake: FakePictorApi, params: URLSearchParams): View {
  const tasks = Number(params.get('tasks') ?? 1000);
  const imageEvery = Number(params.get('imageEvery') ?? 2);
  fake.seedTasks(tasks, (index): Partial<TaskRecord> => {
    if (index % imageEvery !== 0) return { status: index % 7 === 1 ? 'failed' : 'completed' };
    const n = index % THUMBNAILS;
    return { images: [makeImage(0, { file: `g/${n}.webp`, thumbnail: `g/${n}.webp` })] };
  });
  const view = params.get('view');
  return view === 'gallery' || view === 'settings' ? view : 'tasks';
}

/**
 * Scrolls `selector` for `ms` at `pxPerSecond`, the position a function of time (a late frame
 * jumps ahead rather than slowing the scroll), reversing at either end.
 */
function scrollFor(selector: string, ms: number, pxPerSecond: number): Promise<ScrollResult> {
  const element = document.querySelector<HTMLElement>(selector);
  if (!element) return Promise.reject(new Error(`No ${selector}`));
  const deltas: number[] = [];
  let maxImages = document.images.length;
  let previous: number | null = null;
  let start: number | null = null;
  return new Promise((resolve) => {
    const frame = (now: number): void => {
      start ??= now;
      if (previous !== null) deltas.push(now - previous);
      previous = now;
      maxImages = Math.max(maxImages, document.images.length);
      const range = Math.max(1, element.scrollHeight - element.clientHeight);
      const travelled = ((now - start) / 1000) * pxPerSecond;
      const lap = travelled % (2 * range);
      element.scrollTop = lap <= range ? lap : 2 * range - lap;
      if (now - start < ms) requestAnimationFrame(frame);
      else resolve({ deltas, maxImages, scrolledPx: Math.round(travelled) });
    };
    requestAnimationFrame(frame);
  });
}

/** What {@link mountList} measured, in ms from the view change. */
export interface MountResult {
  readonly rowsInDom: number;
  readonly painted: number;
  readonly total: number;
}

/**
 * Shows the Tasks view (its first page already in the store) and times the list's mount: until
 * its first rows are in the DOM, and until the frame showing them has been painted.
 */
function mountList(): Promise<MountResult> {
  const total = useAppStore.getState().tasksTotal;
  return new Promise((resolve) => {
    let rowsAt = 0;
    const observer = new MutationObserver(() => {
      if (!document.querySelector('.task-list article[data-index]')) return;
      rowsAt = performance.now();
      observer.disconnect();
      void afterPaint().then((at) =>
        resolve({ rowsInDom: rowsAt - start, painted: at - start, total }),
      );
    });
    observer.observe(document, { childList: true, subtree: true });
    const start = performance.now();
    useAppStore.getState().setView('tasks');
  });
}

/** Loads every gallery page through the store's own paging (the grid then holds all images). */
async function loadWholeGallery(): Promise<number> {
  const store = useAppStore.getState;
  if (store().galleryStatus === 'idle') await store().galleryLoad();
  while (store().galleryNextCursor !== null) await store().galleryLoadMore();
  return store().galleryRefs.length;
}

const harness = await startHarnessPage(seed);
Object.assign(window, {
  bench: { harness, probe, scrollFor, loadWholeGallery, mountList },
});
