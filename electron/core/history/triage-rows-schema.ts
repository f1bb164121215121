/**
 * v16 of the history's schema: triage in its own rows. From this version an image's rating, flag,
 * star, tags, boards and time of triage, and the task's star, are stored only in the rows
 * (triage-schema.ts's columns and tables, with what they lacked added here), never in the task's
 * record JSON: a rating is an update of one image row, not a rewrite of the record, and a write
 * of the record (the engine's) leaves the triage of the images it already had alone. Reads put
 * the rows' triage back into the records (triage-compose.ts).
 *
 * Added: `images.triaged_at`, each tag's and board's place in the image's list (`pos`), the
 * board's path as the image names it (`image_boards.path`), and `task_triage`: the time of a
 * task's last change of triage alone, in a row of its own (a few bytes), so a rating need not
 * rewrite the task's row, whose record makes it large (the task's star stays in its column). Existing libraries keep every value:
 * their rows already hold rating, flag, star, tags and boards (v10 kept them with every write);
 * the time, the order and the paths are read once from the records here. Records are not
 * rewritten (their triage is ignored from now on, and dropped at their next write).
 */
import type { DatabaseSync } from 'node:sqlite';
import { boardKey, foldName } from '../../../shared/domain/triage';

/** Only records whose images carry a list or a time (the rest have nothing to read). */
const HAS_LISTS = `(instr(record, '"tags":') > 0 OR instr(record, '"boards":') > 0
  OR instr(record, '"triagedAt":') > 0) AND json_valid(record)`;

interface RawImage {
  readonly tags?: unknown;
  readonly boards?: unknown;
  readonly triagedAt?: unknown;
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((entry) => typeof entry === 'string') : [];

export function addTriageRows(db: DatabaseSync): void {
  db.exec(`
    ALTER TABLE images ADD COLUMN triaged_at INTEGER;
    ALTER TABLE image_tags ADD COLUMN pos INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE image_boards ADD COLUMN pos INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE image_boards ADD COLUMN path TEXT NOT NULL DEFAULT '';
    UPDATE image_boards SET path = COALESCE((SELECT path FROM boards WHERE key = board_key), '');
    CREATE TABLE task_triage (
      local_id TEXT PRIMARY KEY,
      updated_at INTEGER NOT NULL
    ) WITHOUT ROWID;
  `);
  const time = db.prepare('UPDATE images SET triaged_at = ? WHERE local_id = ? AND idx = ?');
  const tag = db.prepare(
    'UPDATE image_tags SET pos = ? WHERE local_id = ? AND idx = ? AND tag_key = ?',
  );
  const board = db.prepare(
    'UPDATE image_boards SET pos = ?, path = ? WHERE local_id = ? AND idx = ? AND board_key = ?',
  );
  const rows = db.prepare(`SELECT local_id, record FROM tasks WHERE ${HAS_LISTS}`).iterate();
  for (const row of rows) {
    const localId = String(row['local_id']);
    const images = (JSON.parse(String(row['record'])) as { images?: unknown }).images;
    if (!Array.isArray(images)) continue;
    images.forEach((image: RawImage, idx) => {
      if (typeof image.triagedAt === 'number') time.run(image.triagedAt, localId, idx);
      strings(image.tags).forEach((name, pos) => tag.run(pos, localId, idx, foldName(name)));
      strings(image.boards).forEach((path, pos) =>
        board.run(pos, path, localId, idx, boardKey(path)),
      );
    });
  }
}
