/**
 * The one CSV cell writer (electron/core/base/csv-cell.ts): a cell a spreadsheet would run as a
 * formula is written inert (a leading apostrophe, quoted), every other cell as it is; what a
 * Python-`csv` reader such as A1111's gets is the text written, and Pictor's own reading takes off
 * exactly the apostrophe added, for any text (property-tested from a fixed seed; PICTOR_FC_SEED
 * replays another).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvCell, csvLine, readCsvCell } from '../../../../electron/core/base/csv-cell';
import { readCsv } from '../../../../electron/core/templates/csv-rows';

const SEED = Number(process.env['PICTOR_FC_SEED'] ?? 20_261_128);
const STARTS = ['=', '+', '-', '@', '\t', '\r'];

/** The first cell of `line` as a Python-`csv` reader (A1111's) gets it: quotes undone, no more. */
function readBack(line: string): string {
  const [record] = readCsv(line, 2).records;
  return record?.fields[0] ?? '';
}

describe('csvCell', () => {
  it.each(STARTS)('writes a cell starting with %j inert: an apostrophe first, quoted', (start) => {
    expect(csvCell(`${start}HYPERLINK("x")`)).toBe(`"'${start}HYPERLINK(""x"")"`);
    expect(readBack(csvLine([`${start}1+1`, 'b']))).toBe(`'${start}1+1`);
  });

  it('writes any other cell as it is, quoted only for a quote, a comma, a line break or an edge space', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell("it's")).toBe("it's");
    expect(csvCell('a = b')).toBe('a = b');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
    expect(csvCell(' lead')).toBe('" lead"');
    expect(csvCell('trail ')).toBe('"trail "');
    expect(csvCell('')).toBe('');
  });

  it('adds one more apostrophe to apostrophes before a formula, so the one added can come off', () => {
    expect(csvCell("'=x")).toBe(`"''=x"`);
    expect(readCsvCell(readBack(csvLine(["'=x", 'b'])))).toBe("'=x");
    // An apostrophe before anything else is text, written and read as it is.
    expect(csvCell("'x")).toBe("'x");
    expect(readCsvCell("'x")).toBe("'x");
  });

  it('csvLine ends a record with CRLF', () => {
    expect(csvLine(['a', '=b', 'c,d'])).toBe(`a,"'=b","c,d"\r\n`);
  });
});

describe('any text, through a Python-csv reader and through Pictor’s own', () => {
  const text = fc.oneof(
    fc.string({ maxLength: 40, unit: 'grapheme' }),
    fc.string({ maxLength: 12, unit: 'binary' }),
    fc
      .tuple(
        fc.string({ maxLength: 3, unit: fc.constant("'") }),
        fc.constantFrom(...STARTS),
        fc.string({ maxLength: 10 }),
      )
      .map((parts) => parts.join('')),
  );

  it('is never read as a formula, and Pictor reads it back exactly', () => {
    fc.assert(
      fc.property(text, (value) => {
        const raw = readBack(csvLine([value, 'next']));
        expect(/^[=+\-@\t\r]/.test(raw)).toBe(false);
        expect(readCsvCell(raw)).toBe(value);
        // What a spreadsheet or A1111 gets is the text, or the text after one apostrophe.
        expect([value, `'${value}`]).toContain(raw);
      }),
      { seed: SEED, numRuns: 2_000 },
    );
  });
});
