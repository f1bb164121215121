/**
 * Turns whatever a handler threw into the error half of a Result: a sentence for the user and
 * the technical detail. Errors the core raises for users are {@link UserFacingError}s and carry
 * their code, sentence and detail; anything else is a bug, reported as one without leaking
 * internals into the message.
 */
import type { IpcError } from '../../shared/ipc/contract';
import { describeThrown } from '../core/errors/thrown-value';
import { UserFacingError } from '../core/errors/user-facing-error';

/** What the user reads when something failed that Pictor has no sentence for. */
const UNEXPECTED_MESSAGE =
  'Something went wrong inside Pictor. Nothing was lost; try again, and if it keeps happening, send the log file (Help › Open logs folder).';

/** The value of a Result, or its error thrown as a {@link UserFacingError} with the same shape. */
export function unwrap<T>(result: { ok: true; value: T } | { ok: false; error: IpcError }): T {
  if (!result.ok) {
    const { code, message, detail } = result.error;
    throw new UserFacingError(message, { code, detail });
  }
  return result.value;
}

export function toIpcError(error: unknown): IpcError {
  if (error instanceof UserFacingError) {
    const { code, message, detail } = error;
    return { code, message, ...(detail ? { detail } : {}) };
  }
  return { code: 'failed', message: UNEXPECTED_MESSAGE, detail: describeThrown(error) };
}
