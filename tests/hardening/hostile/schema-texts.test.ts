/**
 * Text a hostile schema puts where `pictor models show` prints it: a text option's default, and
 * its choices. A terminal obeys what it is sent (ESC and C1 sequences set the clipboard, rewrite
 * the title, hide a link; bidi controls print a line backwards from how it reads; a line
 * separator breaks one), and the schema's reader kept a text default whatever it held while
 * `models show` printed each option's line, and its `--json`, as they came. Through the real CLI:
 * the options fetched with `--refresh` from a fal-compatible service of the user's own on
 * loopback, the options of a schema file the user imports, and a kept options file written by
 * another hand (whose entry holding such a text is left out). Nothing printed holds such a
 * character raw; the options are still shown, and an option whose default was unusable is shown
 * without it.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeServers, serve } from '../../support/http-servers';
import { runCliHere } from '../../integration/cli/run-cli';
import { removeFolder, tempFolder } from '../../support/temp-folders';

/** What a terminal would act on: C0 (but the line break), DEL, C1, line separators, bidi. */
function obeyed(code: number): boolean {
  return (
    (code < 0x20 && code !== 0x0a) ||
    (code >= 0x7f && code <= 0x9f) ||
    [0x200e, 0x200f, 0x2028, 0x2029].includes(code) ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

/** Texts a hostile schema writes, each with what a terminal would do with it. */
const HOSTILE = [
  '\u001b]52;c;cm0gLXJmIH4K\u0007', // OSC 52: puts `rm -rf ~` on the clipboard
  '\u001b]0;pwned\u0007', // rewrites the window's title
  '\u009b2J', // C1 CSI: clears the screen
  'safe\u202etxt.exe', // prints backwards
  'one\u2028two', // a line break to some readers
  '\u001b]8;;https://evil.example\u0007here\u001b]8;;\u0007', // a hidden link
];

/** The options of the hostile schema: text options defaulting to each text, and a choice of them. */
function properties(): Record<string, unknown> {
  return {
    ...Object.fromEntries(
      HOSTILE.map((text, i) => [`style_${i}`, { type: 'string', maxLength: 200, default: text }]),
    ),
    mood: { enum: ['calm', ...HOSTILE], default: 'calm' },
    steps: { type: 'integer', minimum: 1, maximum: 50, default: 20 },
  };
}

let home = '';
beforeAll(async () => {
  home = await tempFolder('schema-texts');
});
afterAll(async () => {
  await removeFolder(home);
});
afterEach(closeServers);

function expectShownSafely(stdout: string): void {
  expect([...stdout].find((char) => obeyed(char.codePointAt(0) ?? 0))).toBeUndefined();
}

describe('a hostile schema’s texts on the terminal', () => {
  it.each([false, true])('fetched with --refresh (--json: %s)', async (json) => {
    const document = JSON.stringify({
      paths: {
        '/acme/texts': {
          post: {
            requestBody: {
              content: {
                'application/json': { schema: { type: 'object', properties: properties() } },
              },
            },
          },
        },
      },
    });
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(document);
    });
    const args = ['models', 'show', 'acme/texts', '--provider', 'fal', '--refresh'];
    const run = await runCliHere(
      [...args, '--base-url', server.origin, ...(json ? ['--json'] : [])],
      { home },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(server.requests.length).toBe(1);
    expectShownSafely(run.stdout);
    expectShownSafely(run.stderr);
    expect(run.stdout).toContain('steps');
    if (!json) expect(run.stdout).toContain('  steps: whole number from 1 to 50; default 20\n');
  });

  it.each([false, true])('from a schema file the user imports (--json: %s)', async (json) => {
    const file = join(home, `texts-${json}.json`);
    await writeFile(file, JSON.stringify({ type: 'object', properties: properties() }));
    const dataDir = join(home, `data-${json}`);
    const imported = await runCliHere(
      ['models', 'import-schema', file, '--model', 'own-texts', '--data-dir', dataDir],
      { home },
    );
    expect(imported.code, imported.stderr).toBe(0);
    expectShownSafely(imported.stdout);
    const show = await runCliHere(
      [
        'models',
        'show',
        'own-texts',
        '--provider',
        'pictor',
        '--data-dir',
        dataDir,
        ...(json ? ['--json'] : []),
      ],
      { home },
    );
    expect(show.code, show.stderr).toBe(0);
    expectShownSafely(show.stdout);
    expect(show.stdout).toContain('style_0');
  });

  it.each([false, true])('from a kept file written by another hand (--json: %s)', async (json) => {
    // The book's own file is read by the same rule on its texts (model-params.ts's
    // shownOptionText): an entry holding such a text is left out, and nothing of it is printed.
    const dataDir = join(home, `kept-${json}`);
    await mkdir(dataDir, { recursive: true });
    const params = Object.fromEntries(
      HOSTILE.map((text, i) => [`style_${i}`, { type: 'string', maxLength: 200, default: text }]),
    );
    const entry = { provider: 'pictor', model: 'kept-texts', origin: 'file', at: 1, params };
    await writeFile(
      join(dataDir, 'model-options.json'),
      JSON.stringify({ version: 1, models: [entry] }),
    );
    const show = await runCliHere(
      ['models', 'show', 'kept-texts', '--provider', 'pictor', '--data-dir', dataDir].concat(
        json ? ['--json'] : [],
      ),
      { home },
    );
    expect(show.code, show.stdout).toBe(2);
    expect(show.stderr).toContain('Pictor knows no options of that model on that service');
    expectShownSafely(show.stdout);
    expectShownSafely(show.stderr);
  });
});
