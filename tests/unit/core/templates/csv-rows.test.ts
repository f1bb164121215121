/**
 * The CSV reader and writer of template files (electron/core/templates/csv-rows.ts): RFC 4180
 * quoting (commas, doubled quotes, line breaks inside quotes), CRLF, LF and lone CR, the line each
 * record starts on, Python's leniencies (spaces after a comma, a quote inside an unquoted field),
 * damage reported by line (text after a closing quote, a quote never closed), the record bound;
 * and whatever the writer writes, the reader reads back as it was.
 */
import { describe, expect, it } from 'vitest';
import { readCsv, writeCsv } from '../../../../electron/core/templates/csv-rows';

const fieldsOf = (text: string) => readCsv(text, 100).records.map((record) => record.fields);

describe('reading', () => {
  it.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
    ['CR', '\r'],
  ])('ends records at %s, with or without a last line break', (_, end) => {
    const text = ['name,prompt', 'a,b', 'c,d'].join(end);
    expect(fieldsOf(text)).toEqual([
      ['name', 'prompt'],
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(fieldsOf(text + end)).toEqual(fieldsOf(text));
  });

  it('reads quoted commas, doubled quotes and line breaks of every kind inside quotes', () => {
    const text = 'n,p\r\n"a, b","say ""hi""\r\nthen\nmore\rend",x\r\n';
    expect(fieldsOf(text)).toEqual([
      ['n', 'p'],
      ['a, b', 'say "hi"\r\nthen\nmore\rend', 'x'],
    ]);
  });

  it('says on which line each record starts, counting the line breaks inside quotes', () => {
    const text = 'h\n"one\ntwo\r\nthree"\nnext\n\n"x\ry"\nlast';
    expect(readCsv(text, 100).records.map((record) => record.line)).toEqual([1, 2, 5, 7, 9]);
  });

  it('keeps empty fields, and an empty quoted field, and skips lines that hold nothing', () => {
    expect(fieldsOf('a,,c\n\n\r\n,,\n"",b\n')).toEqual([
      ['a', '', 'c'],
      ['', 'b'],
    ]);
  });

  it('skips spaces after a comma (A1111 reads so), so a quote after them opens a field', () => {
    expect(fieldsOf('a, "b, c" ,d\n')).toEqual([]);
    expect(fieldsOf('a,  "b, c",  d  \n')).toEqual([['a', 'b, c', 'd  ']]);
  });

  it('reads a quote inside an unquoted field as a plain character, as Python does', () => {
    expect(fieldsOf('a "quoted" word,b\n')).toEqual([['a "quoted" word', 'b']]);
  });

  it('reports text after a closing quote by line, skips that record and reads on', () => {
    const read = readCsv('h\n"a"b,c\nok,1\n"x\ny"z\nfine\n', 100);
    expect(read.afterQuote).toEqual([2, 4]);
    expect(read.records.map((record) => [record.line, ...record.fields])).toEqual([
      [1, 'h'],
      [3, 'ok', '1'],
      [6, 'fine'],
    ]);
  });

  it('stops at a quote never closed, keeping the records before it', () => {
    const read = readCsv('h\nok\nbad,"never closed\nmore,lines\n', 100);
    expect(read.unclosedQuoteAt).toBe(3);
    expect(read.records.map((record) => record.fields)).toEqual([['h'], ['ok']]);
  });

  it('keeps at most the records asked for, and says when there were more', () => {
    expect(readCsv('a\nb\nc\n', 3)).toMatchObject({ overflow: false });
    const read = readCsv('a\nb\nc\nd\n', 3);
    expect(read.overflow).toBe(true);
    expect(read.records).toHaveLength(3);
  });
});

describe('writing', () => {
  const awkward = [
    'plain',
    '',
    'comma, inside',
    'quote " inside',
    '"',
    '""',
    'line\nbreak',
    'crlf\r\nbreak',
    'lone\rcr',
    ' leading space',
    'trailing space ',
    'ünïcödé 🌊',
    '{prompt}, [prompt]',
  ];

  it('writes CRLF after every record, quoting only what needs it', () => {
    expect(
      writeCsv([
        ['name', 'prompt'],
        ['a', 'b, c'],
      ]),
    ).toBe('name,prompt\r\na,"b, c"\r\n');
  });

  it('writes what the reader reads back unchanged, for every awkward field', () => {
    const rows = awkward.map((value, index) => [`row ${index}`, value, value.toUpperCase()]);
    expect(fieldsOf(writeCsv(rows))).toEqual(rows);
  });
});
