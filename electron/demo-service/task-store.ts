import { validateGenerationRequest, type AcceptedRequest } from './request-validation';
import type { ResolvedOptions } from './options';
import type { DemoAccount, DemoTaskSnapshot } from './types';
import { hashUnit, randomHex } from './prng';

/** One generated image: what its unguessable URL token points at. */
export interface StoredImage {
  token: string;
  taskId: string;
  index: number;
  /** The task's place among the service's tasks of the same prompt: its pictures differ. */
  variant: number;
  prompt: string;
  width: number;
  height: number;
  /** When the task completed: the start of the URL's lifetime. */
  issuedAt: number;
  revoked: boolean;
}

/** A task with everything the service needs to answer about it. */
export interface StoredTask extends AcceptedRequest {
  id: string;
  account: string;
  status: 'processing' | 'completed' | 'failed';
  createdAt: number;
  completesAt: number;
  imageCount: number;
  /** Compared with the failure rate when the task finishes, so a changed rate applies to running tasks. */
  failureDraw: number;
  /** How many tasks of the same prompt the service made before this one. */
  variant: number;
  completedAt?: number;
  error?: unknown;
  /** Dialects: the error the task ends with when its time comes (a prompt trigger). */
  fateError?: unknown;
  images: StoredImage[];
}

/** What a dialect may set on a task it creates; the spec's submit sets none of it. */
export interface TaskCreation {
  /** The id the dialect hands out (its own format). */
  id?: string;
  /** Images this task makes (a request's count field); default the service's imagesPerTask. */
  imageCount?: number;
  fateError?: unknown;
  /** When the task was created; default now (a recalled task keeps its first time). */
  createdAt?: number;
  /** Bytes the caller keeps with the task besides its request (a dialect's input), counted held. */
  keptBytes?: number;
}

/** What a task's record and image tokens hold beyond its prompt, counted as held. */
const TASK_BYTES = 1024;

/**
 * About how many bytes `value` holds: strings a byte a character (as V8 keeps the text of a
 * JSON body, Latin-1; a wider character costs two), buffers their length, a fixed amount for every
 * other value (a dialect's input, as parsed from its body: a walk, no copy). Every value at any
 * depth is counted, without recursion: a body nested past any depth a walk stopped at hid what
 * lay below it from the bound, and a recursive walk of one nested a million deep overflowed.
 */
export function heldBytesOf(value: unknown): number {
  let bytes = 0;
  const left: unknown[] = [value];
  while (left.length > 0) {
    const item = left.pop();
    if (typeof item === 'string') bytes += item.length;
    else if (Buffer.isBuffer(item)) bytes += item.length;
    else if (typeof item !== 'object' || item === null) bytes += 16;
    else {
      bytes += 64;
      for (const [key, inner] of Object.entries(item)) {
        bytes += key.length;
        left.push(inner);
      }
    }
  }
  return bytes;
}

/** The error of a task that failed on its own (a failure-rate draw or failTask without one). */
const DEFAULT_TASK_ERROR = {
  code: 'generation_failed',
  message:
    'The image could not be generated because the model stopped before finishing. Try again, or change the prompt.',
};

/**
 * Accounts, credits, tasks and image tokens. Task progress is computed lazily from the clock
 * when a task is read, so no timers run.
 */
export class TaskStore {
  private readonly accountByKey = new Map<string, string>();
  private readonly credits = new Map<string, number | undefined>();
  private readonly taskById = new Map<string, StoredTask>();
  private readonly imageByToken = new Map<string, StoredImage>();
  /**
   * Per prompt, the tasks made so far (each further one of a prompt gets its own pictures) and
   * how many of them are kept: the entry goes with its last kept task.
   */
  private readonly promptCounts = new Map<string, { made: number; kept: number }>();
  /** The image a task made from its inputs (the edit models), served instead of a drawn one. */
  private readonly outputs = new Map<string, Buffer>();
  /** What each kept task holds, and all of them together (options.maxHeldBytes bounds it). */
  private readonly bytesOf = new Map<string, number>();
  private held = 0;
  /**
   * No kept task finishes before this time: a look over the tasks found none to forget, and the
   * next refused submit need not look again (each look reads every task: a submit refused while
   * running tasks hold the bound would cost the app that much).
   */
  private nothingFinishesBefore = -Infinity;

  constructor(private readonly options: ResolvedOptions) {
    for (const entry of options.accounts) this.addAccount(entry);
  }

  private addAccount(entry: DemoAccount): void {
    this.accountByKey.set(entry.key, entry.account);
    if (!this.credits.has(entry.account) || entry.credits !== undefined) {
      this.credits.set(entry.account, entry.credits);
    }
  }

  /** The account a key belongs to. */
  accountForKey(key: string): string | undefined {
    return this.accountByKey.get(key);
  }

  /**
   * The key stops working, as a key revoked at the service would: requests with it are refused as
   * an unknown key (401); its account and tasks stay.
   */
  revokeKey(key: string): void {
    if (!this.accountByKey.delete(key)) throw new Error('There is no such key.');
  }

  hasAccount(account: string): boolean {
    return this.credits.has(account);
  }

  setCredits(account: string, credits: number | undefined): void {
    if (!this.hasAccount(account)) throw new Error(`There is no account named "${account}".`);
    this.credits.set(account, credits);
  }

  /** The credits an account has left; undefined: unlimited. */
  creditsOf(account: string): number | undefined {
    return this.credits.get(account);
  }

  /** Takes one credit; false when the account has none left. Unlimited accounts always pass. */
  charge(account: string): boolean {
    const left = this.credits.get(account);
    if (left === undefined) return true;
    if (left <= 0) return false;
    this.credits.set(account, left - 1);
    return true;
  }

  /** Creates a processing task; the caller checked the request and charged the account. */
  create(account: string, request: AcceptedRequest, creation: TaskCreation = {}): StoredTask {
    const id = creation.id ?? `task_${randomHex(12)}`;
    const now = creation.createdAt ?? this.options.now();
    const { min, max } = this.options.durationMs;
    const { seed } = this.options;
    const duration =
      min + Math.floor(hashUnit(seed, 'duration', request.prompt, id) * (max - min + 1));
    const task: StoredTask = {
      ...request,
      id,
      account,
      status: 'processing',
      createdAt: now,
      completesAt: now + duration,
      imageCount: creation.imageCount ?? this.options.imagesPerTask,
      failureDraw: hashUnit(seed, 'failure', request.prompt, id),
      variant: this.promptCounts.get(request.prompt)?.made ?? 0,
      images: [],
    };
    if (creation.fateError !== undefined) task.fateError = creation.fateError;
    const counts = this.promptCounts.get(request.prompt) ?? { made: 0, kept: 0 };
    this.promptCounts.set(request.prompt, { made: counts.made + 1, kept: counts.kept + 1 });
    this.taskById.set(id, task);
    this.nothingFinishesBefore = Math.min(this.nothingFinishesBefore, task.completesAt);
    this.hold(id, TASK_BYTES + request.prompt.length + (creation.keptBytes ?? 0));
    this.forgetFinished();
    return task;
  }

  private hold(id: string, bytes: number): void {
    this.bytesOf.set(id, (this.bytesOf.get(id) ?? 0) + bytes);
    this.held += bytes;
  }

  /** Keeps the image a task made from its inputs (counted held with the task). */
  setOutput(id: string, png: Buffer): void {
    if (!this.taskById.has(id)) return;
    this.hold(id, png.length - (this.outputs.get(id)?.length ?? 0));
    this.outputs.set(id, png);
  }

  /** The image a task made from its inputs, if it made one. */
  output(id: string): Buffer | undefined {
    return this.outputs.get(id);
  }

  /** What the kept tasks hold together, about (see heldBytesOf). */
  get heldBytes(): number {
    return this.held;
  }

  /**
   * Whether the kept tasks hold more than the service's bound once every finished task it could
   * forget is forgotten (oldest first): a submit is then refused as a busy service's, until running
   * tasks finish. The service runs inside the app on a port every local user can reach, with a
   * public key: its tasks must not grow the app's memory without end.
   */
  full(): boolean {
    this.forgetFinished();
    return this.held > this.options.maxHeldBytes;
  }

  /** Forgets finished tasks, oldest first, while the kept ones hold more than the bound. */
  private forgetFinished(): void {
    if (this.held <= this.options.maxHeldBytes) return;
    if (this.options.now() < this.nothingFinishesBefore) return;
    let next = Infinity;
    for (const task of this.taskById.values()) {
      if (this.held <= this.options.maxHeldBytes) return;
      if (this.settle(task).status !== 'processing') this.forget(task);
      else next = Math.min(next, task.completesAt);
    }
    this.nothingFinishesBefore = next;
  }

  /** Forgets a task as a service that keeps results for a while does: its id and images 404. */
  private forget(task: StoredTask): void {
    this.taskById.delete(task.id);
    for (const image of task.images) this.imageByToken.delete(image.token);
    this.outputs.delete(task.id);
    this.held -= this.bytesOf.get(task.id) ?? 0;
    this.bytesOf.delete(task.id);
    const counts = this.promptCounts.get(task.prompt);
    if (counts && counts.kept > 1) counts.kept -= 1;
    else this.promptCounts.delete(task.prompt);
  }

  /** The task as of now, or undefined. */
  get(id: string): StoredTask | undefined {
    const task = this.taskById.get(id);
    if (task) this.settle(task);
    return task;
  }

  /**
   * A task an earlier run of this service made, made again from what the host remembers of it
   * (options.recall), under `account`: created when it first was, with the same id, so its
   * duration and failure draw are the ones it had and it finishes when it would have. Undefined
   * when there is no recall, the host does not know the id, or what it remembers is no request
   * this service would accept.
   */
  recall(id: string, account: string): StoredTask | undefined {
    const recalled = this.options.recall?.(id);
    if (recalled === undefined || this.taskById.has(id)) return undefined;
    const { prompt, model, size, quality, createdAt } = recalled;
    const checked = validateGenerationRequest(
      { prompt, model, size, quality },
      this.options.maxImageSide,
    );
    if (!checked.ok || !Number.isFinite(createdAt)) return undefined;
    this.create(account, checked.request, {
      id,
      createdAt: Math.min(createdAt, this.options.now()),
    });
    return this.get(id);
  }

  /** Every task as of now, oldest first. */
  all(): StoredTask[] {
    return [...this.taskById.values()].map((task) => this.settle(task));
  }

  private settle(task: StoredTask): StoredTask {
    if (task.status !== 'processing' || this.options.now() < task.completesAt) return task;
    if (task.fateError !== undefined) this.finishFailed(task, task.fateError, task.completesAt);
    else if (task.failureDraw < this.options.failureRate)
      this.finishFailed(task, DEFAULT_TASK_ERROR, task.completesAt);
    else this.finishCompleted(task, task.completesAt);
    return task;
  }

  private processing(id: string): StoredTask {
    const task = this.get(id);
    if (!task) throw new Error(`There is no task with id "${id}".`);
    if (task.status !== 'processing')
      throw new Error(
        `Task "${id}" has already ${task.status === 'completed' ? 'completed' : 'failed'}.`,
      );
    return task;
  }

  /** Completes a processing task now. */
  complete(id: string): void {
    const task = this.processing(id);
    task.completesAt = this.options.now();
    this.nothingFinishesBefore = -Infinity;
    this.finishCompleted(task, task.completesAt);
  }

  /** Fails a processing task now. */
  fail(id: string, error: unknown = DEFAULT_TASK_ERROR): void {
    const task = this.processing(id);
    task.completesAt = this.options.now();
    this.nothingFinishesBefore = -Infinity;
    this.finishFailed(task, error, task.completesAt);
  }

  private finishCompleted(task: StoredTask, at: number): void {
    task.status = 'completed';
    task.completedAt = at;
    for (let index = 0; index < task.imageCount; index += 1) {
      const image: StoredImage = {
        token: randomHex(20),
        taskId: task.id,
        index,
        variant: task.variant,
        prompt: task.prompt,
        width: task.width,
        height: task.height,
        issuedAt: at,
        revoked: false,
      };
      task.images.push(image);
      this.imageByToken.set(image.token, image);
    }
  }

  private finishFailed(task: StoredTask, error: unknown, at: number): void {
    task.status = 'failed';
    task.completedAt = at;
    task.error = error;
  }

  /** The image a URL token points at, or undefined for an unknown token. */
  image(token: string): StoredImage | undefined {
    return this.imageByToken.get(token);
  }

  /** Whether an image URL no longer works (revoked, or its lifetime has passed). */
  isExpired(image: StoredImage): boolean {
    const ttl = this.options.imageUrlTtlMs;
    return image.revoked || (ttl !== null && this.options.now() >= image.issuedAt + ttl);
  }

  /** Every image URL issued so far stops working. */
  revokeAllImages(): void {
    for (const image of this.imageByToken.values()) image.revoked = true;
  }

  /** The URL a client gets for an image. */
  imageUrl(baseUrl: string, image: StoredImage): string {
    return this.options.redirectImages
      ? `${baseUrl}/r/${image.token}`
      : `${baseUrl}/files/${image.token}.png`;
  }

  /** A copy of a task for tests and the control API. */
  snapshot(task: StoredTask, baseUrl: string): DemoTaskSnapshot {
    return {
      id: task.id,
      account: task.account,
      status: task.status,
      prompt: task.prompt,
      model: task.model,
      size: task.size,
      quality: task.quality,
      createdAt: task.createdAt,
      completesAt: task.completesAt,
      imageUrls: task.images.map((image) => this.imageUrl(baseUrl, image)),
    };
  }
}
