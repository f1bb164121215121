/**
 * The one cell writer of every CSV Pictor writes (the costs ledger, templates exported as an
 * A1111 `styles.csv`), and the reading that undoes it on Pictor's own imports.
 *
 * A cell's text may come from anyone: a service's ids and model names, a prompt or a style name
 * someone shared. A spreadsheet runs a cell that starts with `=`, `+`, `-`, `@`, a tab or a
 * carriage return as a formula, so such a cell is written with a leading apostrophe (`'=1+1`),
 * which spreadsheets show as text, and quoted. So that the apostrophe can be taken off again
 * exactly, a cell whose text is apostrophes before one of those characters (`'=x`) gets one more
 * too. Every other cell is written as it is: quoted (RFC 4180, `""` for a quote) when it holds a
 * quote, a comma or a line break, or starts or ends with a space (A1111 reads with Python's
 * `skipinitialspace`, which would drop a leading one).
 *
 * What a reader gets: Python's `csv` (A1111, InvokeAI) and spreadsheets read every cell as
 * written, the apostrophe included where one was added (a style named `=x` reads `'=x` there);
 * Pictor's own template import takes off exactly the apostrophe this writer adds
 * ({@link readCsvCell}), so what it exported comes back as it was.
 */

/** The characters a spreadsheet starts a formula with. */
const FORMULA_START = /^'*[=+\-@\t\r]/;
/** A cell this writer made inert: apostrophes, then a formula's first character. */
const MADE_INERT = /^'+[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]|^ | $/;

/** One cell, inert for a spreadsheet and quoted for CSV where it must be (see the file comment). */
export function csvCell(value: string): string {
  const inert = FORMULA_START.test(value) ? `'${value}` : value;
  const quoted = inert !== value || NEEDS_QUOTES.test(inert);
  return quoted ? `"${inert.replaceAll('"', '""')}"` : inert;
}

/** One record: its cells, comma-separated, and CRLF (RFC 4180; Python's `csv` writes so). */
export function csvLine(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/**
 * A cell's text as read from a CSV (quotes already undone) with the apostrophe {@link csvCell}
 * adds taken off: one apostrophe, only before apostrophes and a formula's first character.
 */
export function readCsvCell(text: string): string {
  return MADE_INERT.test(text) ? text.slice(1) : text;
}
