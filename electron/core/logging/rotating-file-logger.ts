/**
 * The app's log: JSON lines appended to `pictor.log` in the logs folder, rotated by size
 * (`pictor.log` → `pictor.1.log` → … → `pictor.<keep>.log`, the oldest dropped), so a user can
 * send a useful bug report and the folder never grows without bound.
 *
 * Calls never block and never throw: lines are queued and one writer appends them in order.
 * When the file cannot be written (read-only folder, full disk) the logger says so once on the
 * fallback stream (stderr) and sends every later line there instead; the app keeps running.
 */
import { constants } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { dirname, extname, join } from 'node:path';
import type { LogFields, Logger } from '../../ports/logger';
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE, ensurePrivateFolderBelow } from '../fs';
import type { LogLevel } from './log-line';
import { formatLogLine, isLoggable } from './log-line';
import type { Redactor } from './redaction';
import { systemErrorCode } from '../errors';

const LOG_FILE_NAME = 'pictor.log';
const DEFAULT_MAX_LOG_BYTES = 1024 * 1024;
const DEFAULT_KEPT_LOGS = 3;

/** Append, create owner-only, and never write through a link planted at the log's name. */
const OPEN_FLAGS =
  constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0);

export interface RotatingFileLoggerOptions {
  /** The logs folder (created when missing). In the app: `app.getPath('logs')`. */
  readonly dir: string;
  readonly fileName?: string;
  /** A file is rotated before a line would take it past this size. Default 1 MiB. */
  readonly maxBytes?: number;
  /** Rotated files kept beside the current one. Default 3. */
  readonly keep?: number;
  /** Default `info`. */
  readonly minimumLevel?: LogLevel;
  readonly now?: () => number;
  /** Where lines go when the file cannot be written. Default: stderr. */
  readonly fallback?: (text: string) => void;
  /**
   * Hold every line, as it was logged, until the first {@link RotatingFileLogger.setRedactor}
   * call: the app's keys are read from the vault (the OS's cipher may take seconds to answer)
   * while the app is already starting, resuming tasks and logging them, and a line formatted
   * before the key's text is known would be written with the key in it (a task kept under an id
   * that carries it, an uncaught error quoting a service). Default false.
   */
  readonly awaitRedactor?: boolean;
}

/**
 * The app's log's own options (host/app-log.ts): lines wait for the keys' redactor, since the keys
 * are read after the log opens and the app logs meanwhile.
 */
export const APP_LOG_OPTIONS = {
  awaitRedactor: true,
} as const satisfies Partial<RotatingFileLoggerOptions>;

/** Lines held until the redactor is set; past it the oldest are dropped (and counted). */
const MAX_HELD_LINES = 2_000;

/** A line as it was logged, formatted once the redactor is known. */
interface HeldLine {
  readonly time: number;
  readonly level: LogLevel;
  readonly message: string;
  readonly fields: LogFields | undefined;
}

export class RotatingFileLogger implements Logger {
  /** The current log file. */
  readonly path: string;
  private readonly maxBytes: number;
  private readonly keep: number;
  private readonly now: () => number;
  private readonly fallback: (text: string) => void;
  private minimumLevel: LogLevel;
  private redactor: Redactor | null = null;
  private queue: string[] = [];
  private draining: Promise<void> | null = null;
  private handle: FileHandle | null = null;
  private size = 0;
  private failed = false;
  /** Lines logged before the first redactor (awaitRedactor), or `null` once it is set. */
  private held: HeldLine[] | null;
  private droppedHeld = 0;

  constructor(private readonly options: RotatingFileLoggerOptions) {
    this.path = join(options.dir, options.fileName ?? LOG_FILE_NAME);
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_LOG_BYTES;
    this.keep = Math.max(0, options.keep ?? DEFAULT_KEPT_LOGS);
    this.now = options.now ?? Date.now;
    this.fallback = options.fallback ?? ((text) => void process.stderr.write(text));
    this.minimumLevel = options.minimumLevel ?? 'info';
    this.held = options.awaitRedactor === true ? [] : null;
  }

  debug(message: string, fields?: LogFields): void {
    this.log('debug', message, fields);
  }
  info(message: string, fields?: LogFields): void {
    this.log('info', message, fields);
  }
  warn(message: string, fields?: LogFields): void {
    this.log('warn', message, fields);
  }
  error(message: string, fields?: LogFields): void {
    this.log('error', message, fields);
  }

  /**
   * Replaces text on top of the built-in patterns in every later line: the app sets one built
   * from the current key ({@link secretRedactor}) whenever the key changes, `null` when cleared.
   */
  setRedactor(redact: Redactor | null): void {
    this.redactor = redact;
    this.releaseHeld();
  }

  /**
   * The held lines (awaitRedactor) formatted with the redactor set so far (none: the patterns
   * alone), and written; every later line is written as it comes. Called by setRedactor, by
   * close, and when the app cannot start (its last words must reach the file).
   */
  releaseHeld(): void {
    const held = this.held;
    if (held === null) return;
    this.held = null;
    if (this.droppedHeld > 0) {
      const fields = { count: this.droppedHeld };
      this.write('warn', 'Log lines dropped while the key was being read.', fields, this.now());
    }
    for (const line of held) this.write(line.level, line.message, line.fields, line.time);
  }

  setMinimumLevel(level: LogLevel): void {
    this.minimumLevel = level;
  }

  /** The rotated file `n` (1 is the newest): `pictor.1.log`. */
  rotatedPath(n: number): string {
    const name = this.options.fileName ?? LOG_FILE_NAME;
    const ext = extname(name);
    return join(this.options.dir, `${name.slice(0, name.length - ext.length)}.${n}${ext}`);
  }

  /**
   * Resolves when every line logged so far is written (or handed to the fallback); lines held
   * for the redactor (awaitRedactor) are not, until it is set.
   */
  async flush(): Promise<void> {
    while (this.draining) await this.draining;
  }

  /** Flushes and closes the file (on quit). A later line opens it again. */
  async close(): Promise<void> {
    // Never set (the keys could not be read): what was held is written as the patterns leave it.
    this.releaseHeld();
    await this.flush();
    await this.closeHandle();
  }

  private log(level: LogLevel, message: string, fields: LogFields | undefined): void {
    if (!isLoggable(level, this.minimumLevel)) return;
    if (this.held !== null) {
      if (this.held.length >= MAX_HELD_LINES) {
        this.held.shift();
        this.droppedHeld += 1;
      }
      this.held.push({ time: this.now(), level, message, fields: fields && { ...fields } });
      return;
    }
    this.write(level, message, fields, this.now());
  }

  private write(level: LogLevel, message: string, fields: LogFields | undefined, time: number) {
    let line: string;
    try {
      line = formatLogLine(time, level, message, fields, this.redactor);
    } catch {
      // A redactor that throws must not take a secret-bearing line through unredacted.
      line = formatLogLine(time, level, 'A log line could not be redacted.', {}, null);
    }
    if (this.failed) {
      this.fallback(line);
      return;
    }
    this.queue.push(line);
    this.kick();
  }

  private kick(): void {
    if (this.draining) return;
    this.draining = this.drain().finally(() => {
      this.draining = null;
      if (this.queue.length > 0) this.kick();
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0 && !this.failed) {
      const lines = this.queue.splice(0);
      await this.writeLines(lines);
    }
  }

  /** Appends `lines` in order, rotating between lines when the next one would not fit. */
  private async writeLines(lines: string[]): Promise<void> {
    let pending = lines;
    try {
      await this.ensureOpen();
      let chunk = '';
      let chunkBytes = 0;
      for (const [index, line] of lines.entries()) {
        const bytes = Buffer.byteLength(line);
        if (this.size + chunkBytes > 0 && this.size + chunkBytes + bytes > this.maxBytes) {
          await this.append(chunk, chunkBytes);
          pending = lines.slice(index);
          chunk = '';
          chunkBytes = 0;
          await this.rotate();
        }
        chunk += line;
        chunkBytes += bytes;
      }
      await this.append(chunk, chunkBytes);
    } catch (error) {
      await this.fail(error, pending);
    }
  }

  private async ensureOpen(): Promise<void> {
    if (this.handle) return;
    // A real folder (the data folder's `logs` in the app): a link left there while the folder
    // above was open to others is refused, never followed (the log names prompts and paths).
    // The folders above are trusted as they are: made when missing, never changed.
    await mkdir(this.options.dir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
    await ensurePrivateFolderBelow(dirname(this.options.dir), this.options.dir);
    const handle = await open(this.path, OPEN_FLAGS, PRIVATE_FILE_MODE);
    try {
      const info = await handle.stat();
      // A log an older version left readable by others is tightened (lines can name prompts).
      if (process.platform !== 'win32' && (info.mode & 0o077) !== 0)
        await handle.chmod(PRIVATE_FILE_MODE);
      this.size = info.size;
    } catch (error) {
      await handle.close();
      throw error;
    }
    this.handle = handle;
  }

  private async append(text: string, bytes: number): Promise<void> {
    if (bytes === 0 || !this.handle) return;
    await this.handle.appendFile(text, 'utf8');
    this.size += bytes;
  }

  private async rotate(): Promise<void> {
    await this.closeHandle();
    await rm(this.rotatedPath(this.keep), { force: true });
    for (let n = this.keep - 1; n >= 1; n -= 1) {
      await renameIfPresent(this.rotatedPath(n), this.rotatedPath(n + 1));
    }
    if (this.keep > 0) await renameIfPresent(this.path, this.rotatedPath(1));
    else await rm(this.path, { force: true });
    await this.ensureOpen();
  }

  private async fail(error: unknown, unwritten: string[]): Promise<void> {
    this.failed = true;
    await this.closeHandle();
    const reason = systemErrorCode(error) ?? String(error);
    this.fallback(
      formatLogLine(
        this.now(),
        'warn',
        'Pictor cannot write its log file; log lines go to stderr from now on.',
        { path: this.path, reason },
        this.redactor,
      ),
    );
    for (const line of [...unwritten, ...this.queue.splice(0)]) this.fallback(line);
  }

  private async closeHandle(): Promise<void> {
    const handle = this.handle;
    this.handle = null;
    await handle?.close().catch(() => undefined);
  }
}

async function renameIfPresent(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    if (systemErrorCode(error) !== 'ENOENT') throw error;
  }
}
