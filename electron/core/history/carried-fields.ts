/**
 * A newer Pictor's fields that records come with from outside the library (an import's archive:
 * library/archive/import-carried.ts), which the history keeps in a new task's row by the rule a
 * write keeps a stored record's (history-statements.ts RECORD_WITH_CARRIED).
 */
import { RECORD_WITH_CARRIED } from './history-statements';
import type { SqliteConnection } from './sqlite-connection';

/**
 * By local id: the JSON of a record holding such fields, of which only those this version does
 * not know are kept (each image's on the new image of its `index`).
 */
export type CarriedFields = ReadonlyMap<string, string>;

/** `own` (a record's text) with the fields this version does not know of `carried` merged in. */
export function textWithCarried(
  connection: SqliteConnection,
  own: string,
  carried: string | undefined,
): string {
  if (carried === undefined) return own;
  return String(connection.get(RECORD_WITH_CARRIED, [own, carried])?.['record'] ?? own);
}
