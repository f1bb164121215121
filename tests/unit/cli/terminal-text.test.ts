/**
 * The terminal: text from the service or a sidecar is printed with every control,
 * escape sequence and bidi control made visible, JSON lines carry no raw U+2028/2029 or bidi, and
 * the "Resume with:" line quotes the id so a real POSIX sh reads it back as exactly one argument.
 */
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonLine, listLine } from '../../../electron/cli/cli-report';
import { problemLine, resumeCommand } from '../../../electron/cli/resume-lines';
import { jsonSafe, shellQuote, terminalSafe } from '../../../electron/cli/terminal-text';
import { newTaskRecord, type TaskRecord } from '../../../shared/domain/task-record';
import { SHELLS, argumentsIn } from '../../support/shells';
import { needing, pathOf, posixShell } from '../../support/tools';
import { cmdCarets, cmdPercents, runtimeArgs } from '../../support/windows-readers';
import {
  BIDI_CONTROLS,
  CONTROL_CHARACTERS,
  LINE_SEPARATORS,
  anyOf,
} from '../../../shared/text/control-characters';

/** A POSIX shell to read quoted words back (skipped, saying why, where there is none). */
const SH = posixShell();

/** What a terminal acts on: C0, DEL, C1, bidi controls, line and paragraph separators. */
const ACTIVE =
  // eslint-disable-next-line no-control-regex -- these are what the test looks for
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

const HOSTILE_PIECES = [
  '\u001b[2J',
  '\u001b]0;owned\u0007',
  '\u001b]8;;https://evil.test\u001b\\click\u001b]8;;\u001b\\',
  '\u001b]52;c;cm0gLXJmIH4=\u0007',
  '\u009b31m',
  '\u009d0;t\u009c',
  '\u007f',
  '\r',
  '\n',
  '\u202e',
  '\u2066',
  '\u2069',
  '\u2028',
  '\u2029',
  '\u200f',
];
const hostileText = fc
  .array(fc.oneof(fc.constantFrom(...HOSTILE_PIECES), fc.string({ maxLength: 8 })), {
    maxLength: 12,
  })
  .map((parts) => parts.join(''));

describe('terminalSafe', () => {
  it('leaves nothing a terminal acts on, and shows each as a visible escape', () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        expect(terminalSafe(text)).not.toMatch(ACTIVE);
      }),
      { numRuns: 500 },
    );
    expect(terminalSafe('a\u001b[31mb\u202ec\u009bd\u007f')).toBe('a\\x1B[31mbU+202Ec\\x9Bd\\x7F');
  });

  it('shows the Hangul fillers by code, as the window marks them; Hangul itself as it is', () => {
    // Blank letters (Lo, not format characters): `ㅤ` alone read as nothing, `calmㅤ` as `calm`.
    expect(terminalSafe('calm\u3164 \u115f\u1160 \uffa0')).toBe('calmU+3164 U+115FU+1160 U+FFA0');
    expect(terminalSafe('한국어 ㄱㅏ')).toBe('한국어 ㄱㅏ');
    const line = jsonSafe(JSON.stringify({ prompt: 'calm\u3164\uffa0' }));
    expect(line).toBe('{"prompt":"calm\\u3164\\uffa0"}');
    expect((JSON.parse(line) as { prompt: string }).prompt).toBe('calm\u3164\uffa0');
  });

  it('leaves ordinary text alone, accents and emoji included', () => {
    const text = 'Un phare au crépuscule — 夕暮れの灯台 🌅 (429) https://cdn.example/a.png?x=1&y=2';
    expect(terminalSafe(text)).toBe(text);
  });
});

describe('jsonSafe', () => {
  it('writes U+2028/2029, bidi and C1 controls as \\u escapes; the JSON reads back the same', () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        const line = jsonSafe(JSON.stringify({ prompt: text }));
        expect(line).not.toMatch(ACTIVE);
        expect((JSON.parse(line) as { prompt: string }).prompt).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  it('writes the invisibles as \\u escapes too (ZWSP, BOM, tag characters), the joiners kept', () => {
    const tagged = `calm${String.fromCodePoint(0xe0041)}`;
    const text = `ca\u200blm \ufeff\u2060 ${tagged} \u00ad 👨\u200d👩 می\u200cخواهم`;
    const line = jsonSafe(JSON.stringify({ prompt: text }));
    expect(line).not.toMatch(/[\u00ad\u200b\u2060\ufeff]|\u{e0041}/u);
    expect(line).toContain('\\udb40\\udc41');
    expect(line).toContain('👨\u200d👩');
    expect(line).toContain('می\u200cخواهم');
    expect((JSON.parse(line) as { prompt: string }).prompt).toBe(text);
  });
});

const HOSTILE_IDS = [
  '$(touch x)',
  '`touch x`',
  'a;touch x',
  "it's",
  '"quoted"',
  'line\nbreak',
  '$HOME',
  '\\',
  "'",
  "''",
  'a b',
  '-rf',
  '*',
  '~',
  '#comment',
  '!',
  '\u2019curly\u2018',
  '@splat',
  'a,b',
];
const idArb = fc.oneof(
  fc.constantFrom(...HOSTILE_IDS),
  fc.string({ minLength: 1, maxLength: 30 }).filter((id) => !id.includes('\u0000')),
);

/**
 * What a real POSIX shell makes of `words` as the arguments of one `printf`: each argument it
 * got, in order (printed NUL-terminated: an id holds any character but NUL). One shell for many
 * words: a shell per word made this test a hundred process starts, past its limit under load.
 */
function shellPrints(words: readonly string[]): string[] {
  const script = `printf '%s\\0' ${words.join(' ')}`;
  return execFileSync(pathOf(SH), ['-c', script], { encoding: 'utf8' }).split('\0').slice(0, -1);
}

/**
 * An independent reader of one PowerShell single-quoted string (about_Quoting_Rules: nothing
 * expands inside; a quote mark — ASCII or typographic — written twice stands for one).
 * @returns the value, or null when `word` is not exactly one such string (or a bare plain word).
 */
function readPowerShellWord(word: string): string | null {
  const quotes = ["'", '\u2018', '\u2019', '\u201a', '\u201b'];
  if (!quotes.includes(word[0] ?? ''))
    return /^[A-Za-z0-9_][A-Za-z0-9_./:=+-]*$/.test(word) ? word : null;
  let value = '';
  for (let i = 1; i < word.length; i += 1) {
    const char = word[i]!;
    if (!quotes.includes(char)) value += char;
    else if (quotes.includes(word[i + 1] ?? '')) {
      value += word[i + 1];
      i += 1;
    } else return i === word.length - 1 ? value : null;
  }
  return null;
}

describe.each(SHELLS)('shellQuote, pasted into $name', (shell) => {
  it.skipIf(!shell.path)(needing(shell, 'reads back every id as one word, a backslash too'), () => {
    const ids = [...HOSTILE_IDS, 'a\\', "a\\'b", '\\\\', '\u001b[2J\u202e', 'tab\there'];
    expect(argumentsIn(shell, ids.map((id) => shellQuote(id, 'linux')).join(' '))).toEqual(ids);
    fc.assert(
      fc.property(fc.array(idArb, { minLength: 1, maxLength: 20 }), (some) => {
        const line = some.map((id) => shellQuote(id, 'darwin')).join(' ');
        expect(argumentsIn(shell, line)).toEqual(some);
      }),
      { numRuns: 3 },
    );
  });
});

/** Paths and ids that are cmd.exe's syntax. */
const WINDOWS_IDS = ['C:\\a&b', 'C:\\100%\\%x%', 'C:\\My Data\\', 'a^b|c<d>e(f)', '!x! %%', "it's"];

describe('shellQuote and the "Resume with:" line', () => {
  it.skipIf(!SH.path)(needing(SH, 'POSIX: sh prints exactly the id, whatever it holds'), () => {
    // Several ids on one command line: each quoted id is exactly one word, none runs into the next.
    fc.assert(
      fc.property(fc.array(idArb, { minLength: 1, maxLength: 20 }), (ids) => {
        expect(shellPrints(ids.map((id) => shellQuote(id, 'linux')))).toEqual(ids);
      }),
      { numRuns: 6 },
    );
    for (const platform of ['linux', 'darwin'] as const) {
      expect(shellPrints(HOSTILE_IDS.map((id) => shellQuote(id, platform)))).toEqual(HOSTILE_IDS);
    }
  });

  it('Windows: one PowerShell single-quoted word that reaches pictor.cmd’s program as the id', () => {
    const env = { PATH: 'C:\\Windows', cd: 'C:\\Users\\u', x: 'y' };
    const controlOrQuote = anyOf([CONTROL_CHARACTERS, BIDI_CONTROLS, LINE_SEPARATORS, '"']);
    fc.assert(
      fc.property(fc.oneof(idArb, fc.constantFrom(...WINDOWS_IDS)), (id) => {
        const value = readPowerShellWord(shellQuote(id, 'win32'));
        // PowerShell hands it to the batch file as it is; cmd.exe reads it, then %* again.
        if (controlOrQuote.test(id) || value === id) expect(value).toBe(id);
        else expect(runtimeArgs(cmdCarets(cmdCarets(cmdPercents(value!, env))))).toEqual([id]);
      }),
      { numRuns: 500 },
    );
    expect(shellQuote("it's", 'win32')).toBe(`'"it''s"'`);
    expect(shellQuote('C:\\a&b %x%\\', 'win32')).toBe(`'"C:\\a&b %%cd:~,%x%%cd:~,%\\\\"'`);
    expect(shellQuote('task-123_a.b', 'win32')).toBe('task-123_a.b');
  });

  it.skipIf(!SH.path)(needing(SH, 'the resume command is one argument per value under sh'), () => {
    const command = resumeCommand({
      target: '$(touch x);`id`',
      dataDir: "/tmp/it's data",
      galleryDir: '/tmp/gal $HOME',
      baseUrl: 'https://api.example/$(id)',
      platform: 'linux',
    });
    const args = command.slice('npm run -s cli -- '.length);
    const printed = execFileSync(pathOf(SH), ['-c', `printf '%s\\n' ${args}`], {
      encoding: 'utf8',
    });
    expect(printed.split('\n').slice(0, -1)).toEqual([
      'resume',
      '$(touch x);`id`',
      '--base-url',
      'https://api.example/$(id)',
      '--data-dir',
      "/tmp/it's data",
      '--gallery-dir',
      '/tmp/gal $HOME',
    ]);
  });
});

function record(fields: Partial<TaskRecord>): TaskRecord {
  const base = newTaskRecord(
    {
      localId: '00000000-0000-4000-8000-000000000001',
      taskId: 'task-1',
      origin: 'submitted',
      endpoint: 'https://api.example.test',
      account: 'fp',
      request: { prompt: 'a lighthouse' },
    },
    Date.UTC(2026, 0, 1),
  );
  return { ...base, ...fields };
}

describe('CLI report lines', () => {
  it('carry no escape sequence from a hostile prompt, id, error or image error', () => {
    fc.assert(
      fc.property(hostileText, hostileText, (text, other) => {
        const hostile = record({
          taskId: `t${other}`,
          status: 'completed',
          request: { prompt: `p${text}` },
          error: { kind: 'protocol', message: text, detail: other },
          images: [
            {
              index: 0,
              url: `https://x/${text}`,
              state: 'invalid',
              attempts: 1,
              favourite: false,
              error: other,
            },
          ],
        });
        const lines = [
          listLine(hostile),
          problemLine(hostile, { command: 'npm run -s cli -- resume x', serviceNamed: true }) ?? '',
          problemLine({ ...hostile, error: null }, { command: 'x', serviceNamed: false }) ?? '',
          jsonLine(hostile, (relative) => `/g/${relative}${text}`),
        ];
        for (const line of lines) expect(line).not.toMatch(ACTIVE);
      }),
      { numRuns: 300 },
    );
  });
});
