/**
 * CSV as RFC 4180 writes it, read strictly enough to report damage by line and leniently where
 * the files people share differ from the RFC the way Python's `csv` module reads them (A1111 and
 * InvokeAI both read styles with it): records end at CRLF, LF or a lone CR; a field in double
 * quotes may hold commas, line breaks and doubled quotes (`""` is one `"`); spaces after a comma
 * are skipped (A1111 reads with `skipinitialspace`), so `a, "b, c"` is two fields; a quote inside
 * a field that did not start with one is a plain character; lines that hold nothing are skipped.
 *
 * What is refused: text after a closing quote (`"a"b`), reported for its line and the record
 * skipped, and a quote that never closes, which ends the reading (the records before it stand).
 * The caller's `maxRecords` bounds what is kept: a file of a million empty-ish lines stops at one
 * past it, with `overflow` set. Nothing here is evaluated: fields are strings, nothing more.
 */

import { csvLine } from '../base';

/** One record and the line (1-based) it starts on. */
export interface CsvRecord {
  readonly line: number;
  readonly fields: readonly string[];
}

export interface CsvRead {
  readonly records: CsvRecord[];
  /** Lines whose record had text after a closing quote; those records are skipped. */
  readonly afterQuote: number[];
  /** The line of a quote that never closes: nothing from it on was read. */
  readonly unclosedQuoteAt?: number;
  /** More records than `maxRecords`: reading stopped at one past it. */
  readonly overflow: boolean;
}

const LINE_BREAK = /\r\n|\r|\n/g;
const UNQUOTED = /[^,\r\n]*/y;
const SPACES = / */y;

function lineBreaks(text: string): number {
  return text.match(LINE_BREAK)?.length ?? 0;
}

interface Cursor {
  at: number;
  line: number;
}

type FieldEnd = 'comma' | 'record' | 'afterQuote' | 'unclosed';

/** After a field: a comma, the end of its record (a line break or the text's end), or damage. */
function endOfField(text: string, cursor: Cursor): FieldEnd {
  const next = text[cursor.at];
  if (next === undefined) return 'record';
  if (next === ',') {
    cursor.at += 1;
    return 'comma';
  }
  if (next === '\r' || next === '\n') {
    cursor.at += next === '\r' && text[cursor.at + 1] === '\n' ? 2 : 1;
    cursor.line += 1;
    return 'record';
  }
  return 'afterQuote';
}

/** A quoted field from its opening quote; null when the quote never closes. */
function quotedField(text: string, cursor: Cursor): string | null {
  let value = '';
  let at = cursor.at + 1;
  for (;;) {
    const close = text.indexOf('"', at);
    if (close < 0) return null;
    const piece = text.slice(at, close);
    value += piece;
    cursor.line += lineBreaks(piece);
    if (text[close + 1] !== '"') {
      cursor.at = close + 1;
      return value;
    }
    value += '"';
    at = close + 2;
  }
}

/** One field at the cursor, and how it ended. */
function field(text: string, cursor: Cursor): { value: string; end: FieldEnd } {
  SPACES.lastIndex = cursor.at;
  SPACES.test(text);
  cursor.at = SPACES.lastIndex;
  if (text[cursor.at] === '"') {
    const value = quotedField(text, cursor);
    if (value === null) return { value: '', end: 'unclosed' };
    return { value, end: endOfField(text, cursor) };
  }
  UNQUOTED.lastIndex = cursor.at;
  const value = UNQUOTED.exec(text)?.[0] ?? '';
  cursor.at += value.length;
  return { value, end: endOfField(text, cursor) };
}

/** Skips the rest of a damaged record's line. */
function skipLine(text: string, cursor: Cursor): void {
  LINE_BREAK.lastIndex = cursor.at;
  const found = LINE_BREAK.exec(text);
  cursor.at = found ? found.index + found[0].length : text.length;
  cursor.line += found ? 1 : 0;
}

type RecordRead =
  | { readonly kind: 'record'; readonly fields: string[] }
  | { readonly kind: 'afterQuote' }
  | { readonly kind: 'unclosed' };

function record(text: string, cursor: Cursor): RecordRead {
  const fields: string[] = [];
  for (;;) {
    const { value, end } = field(text, cursor);
    if (end === 'unclosed') return { kind: 'unclosed' };
    if (end === 'afterQuote') {
      skipLine(text, cursor);
      return { kind: 'afterQuote' };
    }
    fields.push(value);
    if (end === 'record') return { kind: 'record', fields };
  }
}

/** The records of `text` (see the file's comment), at most `maxRecords` kept. */
export function readCsv(text: string, maxRecords: number): CsvRead {
  const records: CsvRecord[] = [];
  const afterQuote: number[] = [];
  const cursor: Cursor = { at: 0, line: 1 };
  while (cursor.at < text.length) {
    const line = cursor.line;
    const read = record(text, cursor);
    if (read.kind === 'unclosed')
      return { records, afterQuote, unclosedQuoteAt: line, overflow: false };
    if (read.kind === 'afterQuote') {
      afterQuote.push(line);
      continue;
    }
    if (read.fields.every((value) => value === '')) continue;
    if (records.length === maxRecords) return { records, afterQuote, overflow: true };
    records.push({ line, fields: read.fields });
  }
  return { records, afterQuote, overflow: false };
}

/**
 * Records as CSV text, each cell by the one cell writer of Pictor's CSVs (core/base/csv-cell.ts:
 * inert for a spreadsheet, quoted where it must be): CRLF after every record, the last one
 * included (Python's `csv` writes so).
 */
export function writeCsv(rows: readonly (readonly string[])[]): string {
  return rows.map(csvLine).join('');
}
