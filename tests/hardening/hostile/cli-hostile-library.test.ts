/**
 * Every command that prints what a library holds, with a library whose records were written by
 * another hand (an imported archive, a hostile service's answers): a prompt, a model, a size, an
 * option, a service id, an error and its detail, a tag and a board holding terminal sequences
 * (OSC 52 sets the clipboard, CSI clears the screen, a C1 CSI, a bidi override, a line separator,
 * a zero-width space). Text output shows each as a visible escape; `--json` stays one valid line
 * per value, every text whole.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BIDI_CONTROLS,
  DEL_AND_C1_CONTROLS,
  LINE_SEPARATORS,
  anyOf,
} from '../../../shared/text/control-characters';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { HISTORY_FILE } from '../../../electron/core/pictor-core';
import { addTask, offlineGallery } from '../../unit/core/library/archive/library-fixture';
import { expectExit, useCliWorlds } from '../../integration/cli/cli-harness';
import { describeRun, type CliRun } from '../../integration/cli/run-cli';

const newWorld = useCliWorlds();

/** Sequences a terminal obeys, and characters that reorder or hide. */
const HOSTILE = 'a\u001b]52;c;cm0gLXJmIH4K\u0007b\u001b[2J\u009b31mc\u202ed\u2028e\u200bf';
/**
 * What no text output may hold raw: C0 but line feed (and CR before one: the CSV's line end), DEL,
 * C1, bidi, separators, invisibles.
 */
const RAW_CHARACTERS = anyOf(
  [
    '\\u0000-\\u0009\\u000b\\u000c\\u000e-\\u001f',
    DEL_AND_C1_CONTROLS,
    BIDI_CONTROLS,
    LINE_SEPARATORS,
    '\\u061c\\u200b\\u200e\\u200f\\ufeff',
  ],
  'u',
);
const LONE_CR = /\r(?!\n)/;

function expectSafe(run: CliRun, what: string): void {
  for (const [stream, text] of [
    ['stdout', run.stdout],
    ['stderr', run.stderr],
  ] as const) {
    const at = RAW_CHARACTERS.exec(text) ?? LONE_CR.exec(text);
    expect(
      at,
      `${what} ${stream} holds U+${at?.[0].codePointAt(0)?.toString(16)}: ${describeRun(run)}`,
    ).toBeNull();
  }
}

/** Every JSON line of stdout read back; a line that is no JSON fails. */
function jsonOf(run: CliRun): unknown[] {
  return run.stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);
}

describe('a library written by another hand, printed by the CLI', () => {
  it('shows every hostile text as visible escapes, and keeps every JSON line valid and whole', async () => {
    const world = await newWorld();
    expectExit(await world.run(['list']), 0);
    const history = HistoryStore.open(join(world.dataDir, HISTORY_FILE));
    let id = '';
    try {
      const root = join(world.dataDir, 'gallery');
      const library = { dir: world.dataDir, root, history, ...offlineGallery(root) };
      const done = await addTask(library, ['png'], {
        taskId: 'hostile-done',
        request: {
          prompt: HOSTILE,
          model: `m${HOSTILE}`,
          quality: `q${HOSTILE}`,
          params: { negative_prompt: HOSTILE },
        },
      });
      id = done.taskId!;
      await addTask(library, [], {
        taskId: 'hostile-failed',
        status: 'failed',
        request: { prompt: HOSTILE, model: `m${HOSTILE}` },
        error: { kind: 'task_failed', message: HOSTILE, detail: HOSTILE, httpStatus: 500 },
      });
    } finally {
      history.close();
    }
    expectExit(await world.run(['tag', 'add', 'calm', `${id}#1`]), 0);
    const tasks = jsonOf(await world.run(['list', '--json'])) as {
      taskId: string;
      images: { path: string }[];
    }[];
    const image = tasks.find((task) => task.taskId === id)?.images[0]?.path ?? '';

    const texts: [string, readonly string[]][] = [
      ['list', ['list']],
      ['list --all', ['list', '--all']],
      ['info', ['info', image]],
      ['costs', ['costs']],
      ['costs --csv', ['costs', '--csv']],
      ['board ls', ['board', 'ls']],
      ['smart ls', ['smart', 'ls']],
      ['caps list', ['caps', 'list']],
      ['prices list', ['prices', 'list']],
      ['resume', ['resume', 'hostile-failed']],
    ];
    const shown: string[] = [];
    for (const [what, args] of texts) {
      const run = await world.run(args);
      expectSafe(run, what);
      if (/\\x1B\]52/.test(run.stdout + run.stderr)) shown.push(what);
    }
    // The hostile text reached these outputs, shown as escapes (not left out).
    expect(shown).toEqual(expect.arrayContaining(['list', 'list --all', 'resume']));
    const jsons: [string, readonly string[]][] = [
      ['list --json', ['list', '--json']],
      ['info --json', ['info', image, '--json']],
      ['costs --json', ['costs', '--json']],
    ];
    for (const [what, args] of jsons) {
      const run = await world.run(args);
      expectSafe(run, what);
      const lines = jsonOf(run);
      expect(lines.length, `${what}: ${describeRun(run)}`).toBeGreaterThan(0);
    }
    const listed = jsonOf(await world.run(['list', '--json'])) as { prompt?: string }[];
    expect(listed.map((task) => task.prompt)).toEqual([HOSTILE, HOSTILE]);
  });
});
