/**
 * "Copy as command" on Windows (shared/text/windows-command.ts): every word reaches `pictor` (a
 * batch file that hands its arguments on with `%*`) and `curl.exe` as written, through cmd.exe
 * and through PowerShell, whatever it holds of their syntax: quotes, `%NAME%` and `!NAME!` of a
 * variable that exists, `&|<>^()`, PowerShell's `$`, backtick, `@`, `--%` and the typographic
 * quotes it reads as its own (U+2018–U+201E); and a word no Windows line can carry (a line break,
 * a control, bidi formatting) is refused, never printed changed. Checked twice: by a model of
 * the three readers (PowerShell's single quotes, cmd.exe's `%`, `^` and quotes, a batch file's
 * second reading, the C runtime's split) on every platform, and by the real shells where they
 * are (the CI's Windows leg; skipped elsewhere, saying so).
 */
import { describe, expect, it } from 'vitest';
import { generateCommand, curlCommand } from '../../../shared/text/shell-command';
import { UnwritableCommand } from '../../../shared/text/windows-command';
import { NOT_CARRIED, unescapePrompt } from '../../../shared/text/prompt-escapes';
import { WINDOWS_SHELLS, windowsStandIns } from '../../support/shells';
import { needing } from '../../support/tools';
import {
  cmdCarets,
  cmdPercents,
  powershellGives,
  runtimeArgs,
} from '../../support/windows-readers';
import { makeTask } from '../../support/task-records';
import { resumeCommand } from '../../../electron/cli/resume-lines';
import type { HandlerContext } from '../../../electron/ipc/ipc-main-bridge';
import { taskCommandHandlers } from '../../../electron/ipc/task-command-handlers';

/** The prompts that are Windows shells' syntax, or PowerShell's and the C runtime's. */
const HOSTILE = [
  "it's a fox",
  'say "cheese" and ""',
  '%PICTOR_PROBE% and %PATH% and %% and 100%',
  '%PICTOR_PROBE',
  '!PICTOR_PROBE! and !x! and !',
  'a & b | c < d > e ^ f ( g ) ^^ ^& "& |" ^"',
  'back\\slash \\\\ and \\" and ends with \\',
  '\\',
  '"',
  '"&calc"',
  '$env:PATH $(calc) `n @args --% ; , = ~ * ? [a] #',
  "typographic ‘single’ ‚low‛ and “double” „low” ''",
  '’',
  'ünïcødé 狐狸 🦊',
  ' leading and trailing spaces ',
  '-starts with a dash',
  '',
];

const ENV = { PICTOR_PROBE: 'expanded', PATH: 'C:\\Windows', cd: 'C:\\Users\\u', x: 'y' };

/** What the program a Windows line starts gets, by the model of its readers. */
function modelRun(line: string, shell: 'cmd' | 'powershell'): string[] {
  const typed = shell === 'cmd' ? line : powershellGives(line);
  let read = cmdCarets(cmdPercents(typed, { ...ENV, SERVICE_API_KEY: 'k' }));
  const [program] = runtimeArgs(read);
  if (program === 'pictor') read = cmdCarets(read); // pictor.cmd's `%*` reads it again
  return runtimeArgs(read);
}

const request = (prompt: string) => ({
  prompt,
  model: `m/${prompt}`,
  params: { negative: prompt },
  seed: 1,
});
const generateWords = (prompt: string) => [
  'pictor',
  'generate',
  '--provider=fal',
  `--base-url=https://a.test/${prompt}`,
  `--model=m/${prompt}`,
  `--param=negative=${prompt}`,
  '--seed=1',
  `--prompt=${prompt}`,
];
const curlOf = (prompt: string, shell: 'cmd' | 'powershell') =>
  curlCommand(
    {
      method: 'POST',
      url: `https://a.test/${prompt}`,
      headers: { Authorization: `Key $SERVICE_API_KEY${prompt}` },
      body: { prompt },
    },
    shell,
  );
const curlWords = (prompt: string, key: string) => [
  'curl.exe',
  '-X',
  'POST',
  `https://a.test/${prompt}`,
  '-H',
  `Authorization: Key ${key}${prompt}`,
  '-H',
  'Content-Type: application/json',
  '-d',
];

describe.each(['cmd', 'powershell'] as const)('the lines for %s, by the model', (shell) => {
  it.each(HOSTILE)('carry every word as written: %j', (prompt) => {
    const generate = generateCommand(
      { provider: 'fal', baseUrl: `https://a.test/${prompt}` },
      request(prompt),
      shell,
    );
    expect(modelRun(generate, shell)).toEqual(generateWords(prompt));
    const curl = modelRun(curlOf(prompt, shell), shell);
    expect(curl.slice(0, -1)).toEqual(curlWords(prompt, 'k'));
    expect(JSON.parse(curl.at(-1)!)).toEqual({ prompt });
  });
});

/** A line break, every other control, bidi formatting and the line separators. */
const UNWRITABLE = ['two\nlines', 'cr\r', 'tab\t', 'esc\u001b[2J', 'nul\u0000', 'del\u007f'].concat(
  ['\u0085', '\u009b', '\u202e', '\u2066', '\u200f', '\u061c', '\u2028', '\u2029'].map(
    (char) => `a${char}b`,
  ),
);

describe.each(['cmd', 'powershell'] as const)('a word no %s line can carry', (shell) => {
  it.each(UNWRITABLE)('is refused outside the prompt, never printed changed: %j', (text) => {
    for (const request of [
      { prompt: 'p', model: text },
      { prompt: 'p', params: { negative: text } },
      { prompt: 'p', quality: text },
    ]) {
      expect(() => generateCommand({ provider: 'fal' }, request, shell)).toThrow(UnwritableCommand);
    }
    const sent = { method: 'POST', url: 'https://a.test/x', headers: {} };
    expect(() => curlCommand({ ...sent, url: `https://a.test/${text}` }, shell)).toThrow(
      UnwritableCommand,
    );
    // A cURL body is JSON, whose escapes carry every control as the same value.
    const curl = modelRun(curlCommand({ ...sent, body: { prompt: text } }, shell), shell);
    expect(JSON.parse(curl.at(-1)!)).toEqual({ prompt: text });
  });
});

/** Prompts of several lines, and with every character no Windows line carries. */
const ESCAPED_PROMPTS = [
  'a lighthouse\nat dusk',
  'windows ends\r\nlines so',
  'ends with a line break\n',
  '\n\nstarts with two',
  'a\\nb is a backslash and n\n\\ and \\\\ and \\u0041 and \\"',
  '"quoted"\n& 100% %PICTOR_PROBE% !x! ^ |\nit\'s ‘x’',
  '🦊 狐狸\n\u202eevil\u2066 \u2028 \u001b[2J \u0000 \u007f \u009b',
  ...UNWRITABLE,
];

/** The prompt the CLI reads from the words a Windows line gave `pictor`. */
function promptGiven(words: readonly string[]): string {
  const escaped = words.filter((word) => word.startsWith('--prompt-escaped='));
  expect(escaped, words.join(' ')).toHaveLength(1);
  expect(words.filter((word) => word.startsWith('--prompt='))).toEqual([]);
  return unescapePrompt(escaped[0]!.slice('--prompt-escaped='.length));
}

describe.each(['cmd', 'powershell'] as const)('a prompt no %s line carries', (shell) => {
  it.each(ESCAPED_PROMPTS)('is given escaped and read back as written: %j', (prompt) => {
    const line = generateCommand({ provider: 'fal' }, { prompt, seed: 2 }, shell);
    expect(line).not.toMatch(NOT_CARRIED);
    const words = modelRun(line, shell);
    expect(words.slice(0, 4)).toEqual(['pictor', 'generate', '--provider=fal', '--seed=2']);
    expect(promptGiven(words)).toBe(prompt);
  });
});

describe('the Windows lines, exactly', () => {
  it('quote for the C runtime, escape cmd.exe outside its quotes, and wrap for PowerShell', () => {
    const prompt = `50% "a&b" it's`;
    expect(generateCommand({ provider: 'pictor' }, { prompt }, 'cmd')).toBe(
      'pictor generate --provider=pictor "--prompt=50%%cd:~,% \\"a^^^&b\\" it\'s"',
    );
    expect(generateCommand({ provider: 'pictor' }, { prompt }, 'powershell')).toBe(
      `cmd /d /v:off /s /c 'pictor generate --provider=pictor "--prompt=50%%cd:~,% \\"a^^^&b\\" it''s"'`,
    );
    expect(
      curlCommand(
        {
          method: 'POST',
          url: 'https://a.test/x',
          headers: { Authorization: 'Key $SERVICE_API_KEY' },
          body: { prompt: 'a&b' },
        },
        'cmd',
      ),
    ).toBe(
      'curl.exe -X POST https://a.test/x -H "Authorization: Key %SERVICE_API_KEY%" -H "Content-Type: application/json" -d "{\\"prompt\\":\\"a^&b\\"}"',
    );
  });
});

describe.each(WINDOWS_SHELLS)('the lines, run by $name', (shell) => {
  const kind = shell.name === 'cmd' ? 'cmd' : 'powershell';
  it.skipIf(!shell.path)(
    needing(shell, 'carry every word as written, running nothing'),
    () => {
      const standIns = windowsStandIns();
      try {
        for (const prompt of HOSTILE) {
          const generate = generateCommand(
            { provider: 'fal', baseUrl: `https://a.test/${prompt}` },
            request(prompt),
            kind,
          );
          const env = { PICTOR_PROBE: 'expanded', x: 'y', SERVICE_API_KEY: 'from-the-shell' };
          expect(standIns.run(shell, generate, env), generate).toEqual(generateWords(prompt));
          const curl = standIns.run(shell, curlOf(prompt, kind), env);
          expect(['curl.exe', ...curl.slice(1, -1)]).toEqual(curlWords(prompt, 'from-the-shell'));
          expect(JSON.parse(curl.at(-1)!)).toEqual({ prompt });
        }
        for (const prompt of ESCAPED_PROMPTS) {
          const generate = generateCommand({ provider: 'fal' }, { prompt }, kind);
          expect(promptGiven(standIns.run(shell, generate, { x: 'y' })), generate).toBe(prompt);
        }
      } finally {
        standIns.remove();
      }
    },
    300_000,
  );
});

/** Folders that are cmd.exe's syntax, in the CLI's "Resume with:" hint. */
const WINDOWS_DIRS = [
  'C:\\a&b',
  'C:\\100%\\%PICTOR_PROBE%',
  'C:\\My Data\\',
  "C:\\it's ‘x’",
  'C:\\a^b (c) |d| <e>',
  'C:\\!PICTOR_PROBE!',
];

describe.each(WINDOWS_SHELLS.filter((shell) => shell.name !== 'cmd'))(
  'the CLI’s resume hint, run by $name',
  (shell) => {
    it.skipIf(!shell.path)(
      needing(shell, 'reaches pictor.cmd’s program with every folder as written'),
      () => {
        const standIns = windowsStandIns();
        try {
          for (const dataDir of WINDOWS_DIRS) {
            const galleryDir = `${dataDir}\\g`;
            const where = { dataDir, galleryDir, program: 'pictor', platform: 'win32' as const };
            const line = resumeCommand({ ...where, target: 'task-1' });
            expect(standIns.run(shell, line, { PICTOR_PROBE: 'expanded' }), line).toEqual([
              'pictor',
              'resume',
              'task-1',
              '--data-dir',
              dataDir,
              '--gallery-dir',
              galleryDir,
            ]);
          }
        } finally {
          standIns.remove();
        }
      },
      300_000,
    );
  },
);

describe('Copy as command on Windows (tasks:copyCommand)', () => {
  const copyOn = (
    prompt: string,
    model = 'fal-ai/flux/dev',
    params?: Record<string, string | number | boolean>,
  ) => {
    const copied: string[] = [];
    const record = makeTask({
      provider: 'fal',
      endpoint: 'https://queue.fal.run',
      request: { prompt, model, ...(params ? { params } : {}) },
    });
    const handlers = taskCommandHandlers({
      engine: { get: () => record },
      copyText: (text) => copied.push(text),
      addressOf: () => '',
      shell: 'powershell',
    });
    // The handler reads no sender: the page's window is not part of what it copies.
    const context = {} as HandlerContext;
    const copy = () => handlers['tasks:copyCommand']({ localId: record.localId }, context);
    return { copied, copy };
  };

  it('copies a prompt of several lines escaped, read back as written', async () => {
    const prompt = 'a fox\nat dusk\r\n\tunder 100% & a "moon"';
    const { copied, copy } = copyOn(prompt);
    await copy();
    expect(copied).toHaveLength(1);
    const [generate, curl] = copied[0]!.split('\n');
    expect(promptGiven(modelRun(generate!, 'powershell'))).toBe(prompt);
    expect(JSON.parse(modelRun(curl!, 'powershell').at(-1)!)).toMatchObject({ prompt });
  });

  it('copies PowerShell’s lines, the key as cmd.exe’s variable', async () => {
    const { copied, copy } = copyOn('a "fox" at 100% & more');
    await copy();
    expect(copied).toHaveLength(1);
    const [generate, curl] = copied[0]!.split('\n');
    expect(modelRun(generate!, 'powershell')).toEqual([
      'pictor',
      'generate',
      '--provider=fal',
      '--model=fal-ai/flux/dev',
      '--prompt=a "fox" at 100% & more',
    ]);
    expect(modelRun(curl!, 'powershell').slice(0, 6)).toEqual([
      'curl.exe',
      '-X',
      'POST',
      'https://queue.fal.run/fal-ai/flux/dev',
      '-H',
      'Authorization: Key k',
    ]);
  });

  it.each([
    ['a model', 'fal-ai/flux\ndev', undefined],
    ['an option', 'fal-ai/flux/dev', { negative_prompt: 'blur\tnoise' }],
  ])(
    'refuses %s no Windows line carries with a sentence naming it, copying nothing',
    async (_, model, params) => {
      const { copied, copy } = copyOn('a fox\nat dusk', model, params);
      const refused = await Promise.resolve(copy()).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refused).toMatchObject({
        name: 'UserFacingError',
        code: 'bad_input',
        sentence: { key: 'error.library.commandHasControls' },
      });
      // The prompt (several lines here) is carried escaped: the sentence names what is not.
      const said = (refused as Error).message;
      expect(said).toMatch(/model’s name or an option/);
      expect(said).not.toMatch(/Copy the prompt/);
      expect(copied).toEqual([]);
    },
  );
});
