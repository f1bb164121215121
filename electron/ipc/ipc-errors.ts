/**
 * Turns whatever a handler threw into the error half of a Result: a sentence for the user and
 * the technical detail. Errors the core raises for users are {@link UserFacingError}s and carry
 * their code, sentence and detail; anything else is a bug, reported as one without leaking
 * internals into the message.
 */
import type { IpcError } from '../../shared/ipc/contract';
import { englishText, sentence } from '../../shared/i18n/sentence';
import { describeThrown, SpendingCapError, UserFacingError } from '../core/errors';

/** What the user reads when something failed that Pictor has no sentence for. */
const UNEXPECTED = sentence('error.unexpected');

/** The value of a Result, or its error thrown as a {@link UserFacingError} with the same shape. */
export function unwrap<T>(result: { ok: true; value: T } | { ok: false; error: IpcError }): T {
  if (!result.ok) {
    const { code, message, detail, sentence } = result.error;
    throw new UserFacingError(sentence ?? message, { code, detail });
  }
  return result.value;
}

export function toIpcError(error: unknown): IpcError {
  if (error instanceof UserFacingError) {
    const { code, message, detail, sentence } = error;
    // A spending cap's refusal goes as data too: the window says it in its words, with links.
    const refusal = error instanceof SpendingCapError ? error.refusal : undefined;
    return {
      code,
      message,
      ...(detail ? { detail } : {}),
      ...(sentence ? { sentence } : {}),
      ...(refusal ? { capRefusal: { ...refusal, missing: [...refusal.missing] } } : {}),
    };
  }
  return {
    code: 'failed',
    message: englishText(UNEXPECTED),
    sentence: UNEXPECTED,
    detail: describeThrown(error),
  };
}
