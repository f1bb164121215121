/**
 * The one error type of the history store. Its message is a sentence the user can act on;
 * `detail` carries the technical reason (SQLite's message, a file path) one click away, never
 * row content.
 */
import { UserFacingError } from '../errors';

export class HistoryError extends UserFacingError {
  override readonly name = 'HistoryError';
}
