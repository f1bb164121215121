/**
 * The folder a task's images live in. Built only from the record (its date, prompt and local
 * id), never from anything the network sent, so it is safe and the same on every call.
 */
import type { TaskRecord } from '../../../shared/domain/task-record';

const SLUG_MAX = 40;
const ID_CHARS = 8;

/** `[a-z0-9-]` only, at most `max` characters, no leading or trailing dash; '' when nothing is left. */
export function slugify(text: string, max = SLUG_MAX): string {
  const flat = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '');
  return flat.slice(0, max).replace(/-+$/, '');
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

/** `YYYY/MM/YYYY-MM-DD_HHMMSS_<slug>_<id8>` in local time; see {@link Gallery.folderFor}. */
export function taskFolderName(
  record: Pick<TaskRecord, 'createdAt' | 'localId' | 'request'>,
): string {
  const date = new Date(Number.isFinite(record.createdAt) ? record.createdAt : 0);
  const year = pad(date.getFullYear(), 4);
  const month = pad(date.getMonth() + 1);
  const day = `${year}-${month}-${pad(date.getDate())}`;
  const time = `${pad(date.getHours())}${pad(date.getMinutes())}${pad(date.getSeconds())}`;
  const slug = slugify(record.request.prompt) || 'untitled';
  const id = slugify(record.localId, ID_CHARS) || 'task';
  return `${year}/${month}/${day}_${time}_${slug}_${id}`;
}
