/**
 * `pictor.json`, the small file beside each task's images that lets the library be rebuilt
 * from the gallery folder alone. It is read back from a folder the user can edit, so it is
 * parsed with the record schema, never trusted.
 */
import { z } from 'zod';
import { lazySchema } from '../../../shared/domain/lazy-schema';
import { taskRecordSchema, type TaskRecord } from '../../../shared/domain/task-record';
import type { MainParams } from '../../../shared/i18n/main-catalogue';
import type { MainMessageKey } from '../../../shared/i18n/main-messages';
import { englishText, sentence, type Sentence } from '../../../shared/i18n/sentence';
import { withoutFileWords } from './file-words';
import { triageNotes } from './triage-notes';
import { shownIssue } from '../../../shared/text/shown-name';

/** The format this version writes; a sidecar of a later one is a newer Pictor's. */
export const SIDECAR_VERSION = 1;
/** The file's `app`: Pictor's (the app's name, not a service's). */
export const SIDECAR_APP = 'pictor';
/**
 * Far above any real sidecar (a few kilobytes) and above one whose record has every field at
 * its limit in plain text (shared/domain/limits.ts; tested); stops reading junk.
 */
export const MAX_SIDECAR_BYTES = 1024 * 1024;

/** The file's shape: `{ "app": "pictor", "version": 1, "record": TaskRecord }`. */
export interface Sidecar {
  readonly app: typeof SIDECAR_APP;
  readonly version: typeof SIDECAR_VERSION;
  readonly record: TaskRecord;
}

/** Built on first use (shared/domain/lazy-schema.ts): only a sidecar read needs it. */
const envelopeSchema = lazySchema(() =>
  z.object({
    app: z.literal(SIDECAR_APP),
    version: z.number().int().positive(),
    record: z.unknown(),
  }),
);

/**
 * The sidecar's text: indented for a person to read, unless indenting would take it past the
 * reader's cap. Indenting multiplies a deeply nested value: a ComfyUI workflow of 455 KB (within
 * an import's 512 KiB) became a 4.2 MB `pictor.json` that a rebuild from the folder then refused;
 * written compact, a record within the limits stays readable.
 */
export function sidecarText(record: TaskRecord): string {
  const sidecar: Sidecar = { app: SIDECAR_APP, version: SIDECAR_VERSION, record };
  const indented = `${JSON.stringify(sidecar, null, 2)}\n`;
  if (Buffer.byteLength(indented) <= MAX_SIDECAR_BYTES) return indented;
  return `${JSON.stringify(sidecar)}\n`;
}

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'it does not match the expected shape';
  const { where, problem } = shownIssue(issue);
  return `${where ?? 'the record'}: ${problem}`;
}

/**
 * Why a sidecar cannot be used: a catalogue sentence (the window's lists show it in their
 * language) and its English text (the CLI, the log).
 */
export interface SidecarRefusal {
  readonly ok: false;
  readonly reason: string;
  readonly reasonSentence: Sentence;
}

function refused(key: MainMessageKey, params?: MainParams): SidecarRefusal {
  const said = sentence(key, params);
  return { ok: false, reason: englishText(said), reasonSentence: said };
}

function parseJson(text: string): { ok: true; json: unknown } | SidecarRefusal {
  try {
    return { ok: true, json: JSON.parse(text) as unknown };
  } catch {
    return refused('error.library.sidecarNotJson');
  }
}

/** The record in a sidecar's text, or the reason it cannot be used. */
export function parseSidecar(
  text: string,
): { ok: true; record: TaskRecord; notes: string[] } | SidecarRefusal {
  const parsed = parseJson(text);
  if (!parsed.ok) return parsed;
  const envelope = envelopeSchema().safeParse(parsed.json);
  if (!envelope.success) return refused('error.library.notASidecar');
  if (envelope.data.version > SIDECAR_VERSION)
    return refused('error.library.sidecarNewer', { format: String(envelope.data.version) });
  const record = taskRecordSchema().safeParse(envelope.data.record);
  if (!record.success)
    return refused('error.library.recordInvalid', { detail: describeIssue(record.error) });
  // A sidecar is read only from folders and archives anyone could write: its facts, not its words.
  return {
    ok: true,
    record: withoutFileWords(record.data),
    notes: triageNotes(envelope.data.record, record.data),
  };
}

/** What choosing one sidecar per task needs (see rebuild.ts): read without the full schema. */
export interface SidecarSummary {
  readonly localId: string;
  readonly updatedAt: number;
  readonly folder: string | null;
}

/** Built on first use, with the record's schema (shared/domain/lazy-schema.ts). */
const summarySchema = lazySchema(() =>
  z.object({
    app: z.literal(SIDECAR_APP),
    version: z.literal(SIDECAR_VERSION),
    record: z.object({
      localId: taskRecordSchema().shape.localId,
      updatedAt: taskRecordSchema().shape.updatedAt,
      folder: taskRecordSchema().shape.folder,
    }),
  }),
);

/**
 * The three fields that pick one sidecar per task, checked by the record schema's own rules for
 * them, or the sentence {@link parseSidecar} gives for a sidecar it refuses. The rest of the record
 * is not validated here (its full parse comes when the record is used), which keeps a scan of
 * 100,000 sidecars from building 100,000 validated records it then drops.
 */
export function summariseSidecar(
  text: string,
): { ok: true; summary: SidecarSummary } | SidecarRefusal {
  const parsed = parseJson(text);
  if (!parsed.ok) return parsed;
  const summary = summarySchema().safeParse(parsed.json);
  if (summary.success) {
    const { localId, updatedAt, folder } = summary.data.record;
    return { ok: true, summary: { localId, updatedAt, folder: folder ?? null } };
  }
  const full = parseSidecar(text);
  if (!full.ok) return full;
  return refused('error.library.unreadable', { what: 'sidecar', code: 'none' });
}
