/**
 * The ledger as CSV (RFC 4180, CRLF lines), one row per task, for a spreadsheet: the CLI's
 * `costs --csv` and the app's export. Ids and model names come from services and prompts from
 * anyone who shares one, so every cell goes through the one cell writer of Pictor's CSVs
 * (core/base/csv-cell.ts): one starting with `=`, `+`, `-`, `@`, a tab or a carriage return (what
 * a spreadsheet would run as a formula) gets a leading apostrophe, and is quoted like any cell
 * holding a comma, a quote or a line break.
 *
 * A task kept under an id that carries a key the user holds (stored before ids were checked) is
 * cleaned in the ledger by the app's sweep (app/kept-key-sweep.ts), which may not have reached its
 * row when the user exports: the page is guarded at the wiring (app/kept-id-page.ts), a file is
 * not. So while a key is held, each entry of a page whose task id carries one is written with the
 * key scrubbed from every cell, as the sweep will leave its row; the ids of a page are searched at
 * once (secrets' held-key scrubber, `carriers`: core/secrets/held-key-scrub.ts, whose rule says
 * when the keys are known), and an export without a held key searches nothing.
 */
import type { LedgerEntry } from '../../../shared/domain/cost-ledger';
import { ledgerServiceOf } from '../../../shared/domain/service-id';
import { countedCost, formatMicros } from '../../../shared/domain/task-cost';
import { csvLine } from '../base';
import { localDay } from './local-periods';

export { csvCell } from '../base';

const LEDGER_CSV_HEADER = [
  'local_date',
  'created_at',
  'provider',
  'model',
  'prompt',
  'task_id',
  'local_id',
  'status',
  'source',
  'amount',
  'unit',
  'detail',
  'in_history',
] as const;

/** Where a cost came from, in a word or two: the field or header, or the price's basis. */
function detailOf(entry: LedgerEntry): string {
  const { cost } = entry;
  if (cost.source === 'reported') return cost.field;
  if (cost.source === 'estimated') return `per ${cost.basis}`;
  return '';
}

function rowOf(entry: LedgerEntry, timeZone: string): string[] {
  const counted = countedCost(entry.cost);
  return [
    localDay(entry.createdAt, timeZone),
    new Date(entry.createdAt).toISOString(),
    ledgerServiceOf(entry),
    entry.model ?? '',
    entry.prompt,
    entry.taskId ?? '',
    entry.localId,
    entry.status,
    entry.cost.source,
    counted ? formatMicros(counted.micros) : '',
    counted?.unit ?? '',
    detailOf(entry),
    entry.inHistory ? 'yes' : 'no',
  ];
}

/** The CSV's header line (with its CRLF). */
export function csvHeader(): string {
  return `${LEDGER_CSV_HEADER.join(',')}\r\n`;
}

/** One task's line (with its CRLF). */
export function csvRow(entry: LedgerEntry, timeZone: string): string {
  return csvLine(rowOf(entry, timeZone));
}

/**
 * The scrubber of the keys the process holds, read once for an export: `carriers` says which of
 * `texts` (by index) carry one, in any encoding the key finder knows; a call scrubs them from a
 * text (core/secrets' KeyScrubber, made by pictor-core.ts under secrets' one rule).
 */
export type HeldKeyScrub = ((text: string) => string) & {
  readonly carriers: (texts: readonly string[]) => readonly number[];
};

/**
 * The lines of a page of tasks; while a key is held (`held` not null), those of the tasks whose
 * id carries one with the key scrubbed from every cell (see the module comment).
 */
export function csvRows(
  entries: readonly LedgerEntry[],
  timeZone: string,
  held: HeldKeyScrub | null,
): string {
  const carriers = new Set(held?.carriers(entries.map((entry) => entry.taskId ?? '')));
  return entries
    .map((entry, n) => {
      const cells = rowOf(entry, timeZone);
      return csvLine(held && carriers.has(n) ? cells.map((cell) => held(cell)) : cells);
    })
    .join('');
}
