/**
 * The one error type of the history store. Its message is a sentence the user can act on;
 * `detail` carries the technical reason (SQLite's message, a file path) one click away.
 */
export class HistoryError extends Error {
  override readonly name = 'HistoryError';
  /** Technical detail for the "details" disclosure; never row content. */
  readonly detail: string | undefined;

  constructor(message: string, options?: { detail?: string; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.detail = options?.detail;
  }
}

/** The message of anything thrown, for a `detail` field. */
export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
