/**
 * The control-character table is declared once (shared/text/control-characters.ts) and every
 * place that refuses or neutralises such characters reads it: each one is checked here against
 * every member of the sets it uses, so a place that keeps its own, narrower copy (C0 without C1,
 * overrides without marks) fails.
 */
import { describe, expect, it } from 'vitest';
import { cleanText } from '../../../shared/service/wire';
import {
  BIDI_CONTROLS,
  C0_CONTROLS,
  CONTROL_CHARACTERS,
  DEL_AND_C1_CONTROLS,
  LINE_SEPARATORS,
  anyOf,
} from '../../../shared/text/control-characters';
import { jsonSafe, terminalSafe } from '../../../electron/cli/terminal-text';
import { DEFAULT_ARCHIVE_LIMITS } from '../../../electron/core/library/archive/archive-limits';
import { pathRefusal } from '../../../electron/core/library/archive/entry-path';
import { keyTextProblem } from '../../../electron/core/secrets/key-text';
import { suggestedFileName } from '../../../electron/app/os/save-name';
import { checkExternalUrl } from '../../../electron/app/protocol/external-url';
import { parseRequestPath } from '../../../electron/app/protocol/request-path';
import { checkTaskId } from '../../../electron/core/service/task-id';
import { TASK_ID_CONTROL } from '../../../shared/domain/limits';
import { parseTaskRecord, plainTaskRecord } from '../../../shared/domain/record-check';
import { taskRecordSchema } from '../../../shared/domain/task-record';
import { makeTaskRecord } from '../../support/task-records';
import { releaseNotesText } from '../../../electron/app/updates/release-notes';

/** The characters of a set, found by asking its class about every BMP code unit. */
function members(set: string): string[] {
  const pattern = anyOf([set]);
  const found: string[] = [];
  for (let code = 0; code <= 0xffff; code += 1) {
    const char = String.fromCharCode(code);
    if (pattern.test(char)) found.push(char);
  }
  return found;
}

const CONTROLS = members(CONTROL_CHARACTERS);
const BIDI = members(BIDI_CONTROLS);
const SEPARATORS = members(LINE_SEPARATORS);
const ALL = [...CONTROLS, ...BIDI, ...SEPARATORS];
const ANY = anyOf([CONTROL_CHARACTERS, BIDI_CONTROLS, LINE_SEPARATORS]);
const name = (char: string) => `U+${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

describe('the control-character table', () => {
  it('holds C0, DEL and C1, the bidi formatting characters and the two separators', () => {
    expect(members(C0_CONTROLS)).toHaveLength(32);
    expect(members(DEL_AND_C1_CONTROLS)).toHaveLength(33);
    expect(CONTROLS).toHaveLength(65);
    expect(BIDI.map(name)).toEqual(
      ['061c', '200e', '200f', '202a', '202b', '202c', '202d', '202e']
        .concat(['2066', '2067', '2068', '2069'])
        .map((hex) => `U+${hex}`),
    );
    expect(SEPARATORS.map(name)).toEqual(['U+2028', 'U+2029']);
  });

  it('is written out visibly for a terminal and a JSON line', () => {
    for (const char of ALL) {
      expect(terminalSafe(`a${char}b`), name(char)).not.toMatch(ANY);
      expect(jsonSafe(JSON.stringify(`a${char}b`)), name(char)).not.toMatch(ANY);
    }
  });

  it('never reaches a service message, a suggested file name or release notes', () => {
    // A NUL is dropped, not spaced: a UTF-16 echo (a NUL between letters) stays one word that the
    // key scrubber reads as it was sent (wire.ts's cleanText).
    for (const char of CONTROLS) {
      expect(cleanText(`a${char}b`), name(char)).toBe(char === '\0' ? 'ab' : 'a b');
    }
    for (const char of ALL) {
      expect(suggestedFileName(`fox${char}gnp.exe`, 0, 'x.png'), name(char)).not.toMatch(ANY);
    }
    // Notes are shown as text in the page, where a line separator is only a space, by the rule
    // for shown values (shared/text/shown-value.ts): the directional marks stay (right-to-left
    // notes need them, and they steer no embedding); every other one is shown as U+FFFD.
    const MARKS = ['\u061c', '\u200e', '\u200f'];
    for (const char of [...CONTROLS, ...BIDI]) {
      const notes = (releaseNotesText(`one${char}two`) ?? '').replace(/\n/g, '');
      if (MARKS.includes(char)) expect(notes, name(char)).toBe(`one${char}two`);
      else expect(notes, name(char)).not.toMatch(ANY);
    }
    expect(releaseNotesText('one\ntwo')).toBe('one\ntwo');
  });

  it('is refused in a task id, a key, a gallery request path, a link and an archive entry', () => {
    for (const char of CONTROLS) {
      expect(() => checkTaskId(`task${char}id`), name(char)).toThrow();
      expect(keyTextProblem(`sk-abc${char}def`)?.key, name(char)).toBe(
        'error.settings.keyWhitespace',
      );
      const encoded = encodeURIComponent(char);
      expect(
        parseRequestPath(`pictor-gallery://gallery/a${encoded}b.png`, 'pictor-gallery', 'gallery')
          .ok,
        name(char),
      ).toBe(false);
      expect(checkExternalUrl(`https://example.com/a${char}b`).ok, name(char)).toBe(false);
    }
    for (const char of ALL) {
      // NUL is the gallery's own rule ('empty'); every other one is 'tricky'.
      const rule = pathRefusal(`folder/a${char}b.png`, DEFAULT_ARCHIVE_LIMITS);
      expect(rule, name(char)).toBe(char === '\0' ? 'empty' : 'tricky');
    }
  });

  it('refuses in a task id every character that draws nothing, wherever the id comes from', () => {
    // What the brief of session 43's attack named, each drawn as nothing or reordering its
    // neighbours: soft hyphen, CGJ, ALM, Hangul fillers, Mongolian vowel separator and free
    // variation selector, zero-width space, word joiner, invisible operators, the isolates,
    // variation selectors, BOM, interlinear annotation, musical format, tag characters.
    const NAMED = [0xad, 0x34f, 0x61c, 0x115f, 0x1160, 0x17b4, 0x180b, 0x180e, 0x200b, 0x200c]
      .concat([0x200d, 0x2028, 0x2029, 0x2060, 0x2064, 0x2065, 0x2066, 0x2069, 0x206f, 0x3164])
      .concat([0xfe00, 0xfe0f, 0xfeff, 0xffa0, 0xfff0, 0xfff9, 0xfffb, 0x1bca0, 0x1d173])
      .concat([0xe0001, 0xe0041, 0xe007f, 0xe0100, 0xe01ef, 0xe0fff]);
    // And every member of the classes those belong to, by Unicode's own tables.
    const ALL_INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}\u2028\u2029]/u;
    const every: number[] = [];
    for (let code = 0; code <= 0x10ffff; code += 1) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      if (ALL_INVISIBLE.test(String.fromCodePoint(code))) every.push(code);
    }
    for (const code of NAMED) expect(every, code.toString(16)).toContain(code);
    const base = makeTaskRecord({ taskId: 'task-1' });
    const hex = (code: number) => `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
    for (const code of every) {
      const id = `task${String.fromCodePoint(code)}id`;
      expect(TASK_ID_CONTROL.test(id), hex(code)).toBe(true);
    }
    // Each place that keeps or sends an id, tried on the named ones and a sample of the rest.
    const sample = [...NAMED, ...every.filter((_, at) => at % 97 === 0)];
    for (const code of sample) {
      const id = `task${String.fromCodePoint(code)}id`;
      expect(() => checkTaskId(id), hex(code)).toThrow();
      const record = { ...base, taskId: id };
      expect(taskRecordSchema().safeParse(record).success, hex(code)).toBe(false);
      expect(plainTaskRecord(record), hex(code)).toBeUndefined();
      expect(parseTaskRecord(record), hex(code)).toBeUndefined();
    }
    // A plain id, and one in another script, still pass everywhere.
    for (const id of ['task-1', 'ünïcødé-任务', 'مهمة-١']) {
      expect(checkTaskId(id)).toBe(id);
      expect(parseTaskRecord({ ...base, taskId: id })?.taskId).toBe(id);
    }
  });
});
