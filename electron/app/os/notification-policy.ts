/**
 * When to tell the user, through the OS, that a task finished.
 *
 * - Only tasks seen unfinished during this run: a finished task loaded from the history, or
 *   touched again later (favourite, sidecar), is not news. One notification per finish.
 * - "Finished" means the images are on disk (a completed task still downloading is not ready).
 * - Only when the setting is on, and not while the window has focus: the user is looking at
 *   the task list, which already shows the result; a banner on top would be noise. Focus is
 *   checked when the task finishes and again when the notification would be shown.
 * - Tasks finishing within `batchWindowMs` of the first one are shown together as one summary,
 *   so a batch of ten does not stack ten banners. A lone task waits that long too.
 * - The words are in the main process's language (app/i18n) when the notification is shown.
 */
import type { TaskRecord } from '../../../shared/domain/task-record';
import { isUnfinished } from '../../../shared/domain/task-record';
import type { Clock, TimerHandle } from '../../ports/clock';
import { shownValue } from '../../../shared/text/shown-value';
import { mainList, mainSentence, mainText } from '../i18n/main-text';

export interface NotificationContent {
  readonly title: string;
  readonly body: string;
  /** The task to show when clicked; `null` for a summary (show the task list). */
  readonly localId: string | null;
}

export interface NotificationPolicyOptions {
  readonly clock: Clock;
  /** The `notifications` setting, read at each decision. */
  readonly isEnabled: () => boolean;
  readonly isWindowFocused: () => boolean;
  readonly show: (content: NotificationContent) => void;
  /** Default 2,000 ms. */
  readonly batchWindowMs?: number;
}

const DEFAULT_BATCH_WINDOW_MS = 2_000;
const PROMPT_EXCERPT_CHARS = 80;
const REASON_CHARS = 200;
const SUMMARY_PROMPTS = 3;

/** How a finished task ended, as the notification tells it. */
export interface FinishedTask {
  readonly localId: string;
  readonly ok: boolean;
  readonly images: number;
  readonly prompt: string;
  readonly reason: string;
}

/**
 * `text` on one line, cut at a word boundary near `max` characters with an ellipsis; what would
 * steer or hide text in the banner shown as such (shared/text/shown-value.ts), as in a sentence.
 */
export function excerpt(text: string, max: number): string {
  const flat = shownValue(text).replace(/\s+/g, ' ').trim();
  const chars = Array.from(flat); // code points: an emoji is never cut in half
  if (chars.length <= max) return flat;
  const cut = chars.slice(0, max - 1).join('');
  // Ends on a whole word already when the next character is a space.
  const space = chars[max - 1] === ' ' ? cut.length : cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** How a finished task ended, or `null` while the engine still works on it. */
function finishedOutcome(record: TaskRecord): FinishedTask | null {
  if (isUnfinished(record)) return null;
  const saved = record.images.filter((image) => image.state === 'saved').length;
  const base = { localId: record.localId, prompt: record.request.prompt, images: saved };
  if (record.status === 'completed' && saved > 0) return { ...base, ok: true, reason: '' };
  const failed = record.images.find((image) => image.error);
  // Stored failures read in the current language when they carry a sentence.
  const reason = record.error
    ? mainSentence(record.error)
    : failed?.error
      ? mainSentence({ message: failed.error, sentence: failed.errorSentence })
      : mainText(record.status === 'completed' ? 'notify.noImageSaved' : 'notify.noReason');
  return { ...base, ok: false, reason };
}

function single(item: FinishedTask): NotificationContent {
  if (item.ok) {
    const title = mainText('notify.imagesReady', { count: item.images });
    return { title, body: excerpt(item.prompt, PROMPT_EXCERPT_CHARS), localId: item.localId };
  }
  const body = `${excerpt(item.reason, REASON_CHARS)}\n${excerpt(item.prompt, PROMPT_EXCERPT_CHARS)}`;
  return { title: mainText('notify.generationFailed'), body, localId: item.localId };
}

function summary(items: readonly FinishedTask[]): NotificationContent {
  const ready = items.filter((item) => item.ok);
  const images = ready.reduce((sum, item) => sum + item.images, 0);
  const failed = items.length - ready.length;
  const parts: string[] = [];
  if (images > 0) parts.push(mainText('notify.summaryImages', { count: images }));
  if (failed > 0) parts.push(mainText('notify.summaryFailed', { count: failed }));
  const prompts = items
    .slice(0, SUMMARY_PROMPTS)
    .map((item) => mainText('notify.quoted', { prompt: excerpt(item.prompt, 40) }));
  const more = items.length - SUMMARY_PROMPTS;
  if (more > 0) prompts.push(mainText('notify.more', { count: more }));
  return {
    title: mainList(parts),
    body: mainList(prompts),
    localId: null,
  };
}

/** The notification for tasks that finished together. */
function notificationFor(items: readonly FinishedTask[]): NotificationContent | null {
  if (items.length === 0) return null;
  return items.length === 1 && items[0] ? single(items[0]) : summary(items);
}

export class NotificationPolicy {
  private readonly watching = new Set<string>();
  private pending: FinishedTask[] = [];
  private timer: TimerHandle | null = null;

  constructor(private readonly options: NotificationPolicyOptions) {}

  /** Every task update goes here (the engine's `subscribe`). */
  observe(record: TaskRecord): void {
    const outcome = finishedOutcome(record);
    if (!outcome) {
      this.watching.add(record.localId);
      return;
    }
    if (!this.watching.delete(record.localId)) return;
    if (!this.options.isEnabled() || this.options.isWindowFocused()) return;
    this.pending.push(outcome);
    this.timer ??= this.options.clock.setTimeout(
      () => this.flush(),
      this.options.batchWindowMs ?? DEFAULT_BATCH_WINDOW_MS,
    );
  }

  /** A task removed from the history: it will not be announced. */
  forget(localId: string): void {
    this.watching.delete(localId);
    this.pending = this.pending.filter((item) => item.localId !== localId);
  }

  /** Drops anything waiting (on quit). */
  dispose(): void {
    if (this.timer) this.options.clock.clearTimeout(this.timer);
    this.timer = null;
    this.pending = [];
  }

  private flush(): void {
    this.timer = null;
    const items = this.pending;
    this.pending = [];
    if (!this.options.isEnabled() || this.options.isWindowFocused()) return;
    const content = notificationFor(items);
    if (content) this.options.show(content);
  }
}
