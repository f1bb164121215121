/**
 * Turns whatever a handler threw into the error half of a Result: a sentence for the user and
 * the technical detail. Errors the core raises for users carry their sentence; anything else is
 * a bug, reported as one without leaking internals into the message.
 */
import type { IpcError } from '../../shared/ipc/contract';
import { GalleryImageError } from '../core/gallery/gallery-images';

/** Error classes whose message is already a sentence meant for the user. */
const USER_FACING = new Set([
  'EngineInputError',
  'UrlPolicyError',
  'ServiceError',
  'HistoryError',
  'GalleryPathError',
  'KeyVaultError',
  'SettingsError',
  'UserFacingError',
]);

/** A failure that already has its IPC shape (from an adapter that returns Results). */
export class IpcFailure extends Error {
  override readonly name = 'IpcFailure';
  constructor(readonly error: IpcError) {
    super(error.message);
  }
}

/** The value of a Result, or its error thrown as an {@link IpcFailure}. */
export function unwrap<T>(result: { ok: true; value: T } | { ok: false; error: IpcError }): T {
  if (!result.ok) throw new IpcFailure(result.error);
  return result.value;
}

export function toIpcError(error: unknown): IpcError {
  if (error instanceof IpcFailure) return error.error;
  if (error instanceof GalleryImageError) return { code: 'not_found', message: error.message };
  if (error instanceof Error && error.name === 'SettingsError') {
    // A refused change names its fields; an empty list means the file could not be saved.
    const fields = (error as { fields?: readonly string[] }).fields ?? [];
    return { code: fields.length > 0 ? 'bad_input' : 'failed', message: error.message };
  }
  if (error instanceof Error && error.name === 'KeyVaultError') {
    const code = (error as { code?: string }).code === 'invalid_key' ? 'bad_input' : 'failed';
    return { code, message: error.message };
  }
  if (error instanceof Error && USER_FACING.has(error.name)) {
    const detail = (error as { detail?: unknown }).detail;
    return {
      code: 'failed',
      message: error.message,
      ...(typeof detail === 'string' && detail ? { detail } : {}),
    };
  }
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return {
    code: 'failed',
    message:
      'Something went wrong inside Pictor. Nothing was lost; try again, and if it keeps happening, send the log file (Help › Open logs folder).',
    detail,
  };
}
