/**
 * Every command a CLI sentence offers to paste goes through the one printer (terminal-text.ts
 * commandHint), as the resume line does: the price a hard cap lacks (`prices set --model M`, a
 * model a user or a service named) and list's next page (`list --cursor C`). A value with a
 * control hands the line to `sh -c`, so fish before 3.4 (which refuses `"$(…)"`) reads it too,
 * and every shell here gives `pictor` each value as written. On Windows a value no line carries is
 * printed as its option's name, for the user to fill in (it would be another value once pasted).
 */
import { describe, expect, it } from 'vitest';
import { capRefusalText } from '../../../electron/cli/cap-refusal-text';
import { moreLine } from '../../../electron/cli/list-paging';
import { commandHint } from '../../../electron/cli/terminal-text';
import type { CapWord } from '../../../shared/ipc/cost-contract';
import { NOT_CARRIED } from '../../../shared/text/prompt-escapes';
import { SHELLS, commandsRunBy, outsidePosixQuotes } from '../../support/shells';
import { needing } from '../../support/tools';

/** Model names a service or a user may give: controls, bidi, quotes and the shells' syntax. */
const MODELS = [
  'fal-ai/flux\u001b]52;c;ZWNobyBoaQ==\u0007',
  'owner/model\u202e2:latest',
  'm\u2028x',
  'tab\there',
  "it's $(id) `id` %self ~root",
  'back\\slash\\',
];

/** A hard cap that lacks this submit's price for `model`. */
function lacking(model: string): CapWord {
  return {
    cap: { period: 'day', unit: 'USD', provider: 'fal', kind: 'hard', micros: 1 },
    verdict: 'unpriced',
    spentMicros: 0,
    addingMicros: 0,
    service: 'fal',
    model,
    tasks: 1,
    missing: [{ service: 'fal', model, tasks: 1, of: 'submit' }],
  };
}

/** The command a sentence offers after `marker`, as printed. */
function offered(text: string, marker: string, end = '\n'): string {
  const from = text.indexOf(marker);
  expect(from, text).toBeGreaterThanOrEqual(0);
  const start = from + marker.length;
  return text.slice(start, text.indexOf(end, start));
}

const priceCommand = (model: string) =>
  offered(capRefusalText(lacking(model), '', 'pictor'), 'Set one with: ');

describe('the price a hard cap lacks', () => {
  it.each(MODELS)('is a command fish before 3.4 reads, without controls: %j', (model) => {
    const command = priceCommand(model);
    expect(outsidePosixQuotes(command)).not.toMatch(/\$\(|`/);
    expect(command).not.toMatch(NOT_CARRIED);
  });

  describe.each(SHELLS)('pasted into $name', (shell) => {
    it.skipIf(!shell.path)(needing(shell, 'gives pictor the model as written'), () => {
      for (const model of MODELS) {
        const args = ['prices', 'set', '--provider', 'fal', '--model', model];
        expect(commandsRunBy(shell, priceCommand(model))).toEqual([
          ['pictor', ...args, '--amount', 'PRICE', '--unit', 'USD'],
        ]);
      }
    });
  });
});

describe("list's next page", () => {
  const cursor = Buffer.from(JSON.stringify(['t', 1, 'x'])).toString('base64url');
  const line = moreLine('pictor', { limit: 50, cursor: null }, `-${cursor}`, 'tasks');

  describe.each(SHELLS)('pasted into $name', (shell) => {
    it.skipIf(!shell.path)(needing(shell, 'gives pictor the cursor as printed'), () => {
      const command = offered(line ?? '', 'The next ones: ', ' with the same options');
      expect(commandsRunBy(shell, command)).toEqual([['pictor', 'list', '--cursor', `-${cursor}`]]);
    });
  });
});

describe('commandHint', () => {
  it('quotes each word for the platform: PowerShell running pictor.cmd on Windows', () => {
    expect(commandHint('pictor', ['prices', 'set', '--model', 'a&b %PATH%'], 'win32')).toBe(
      'pictor prices set --model \'"a&b %%cd:~,%PATH%%cd:~,%"\'',
    );
    expect(commandHint('npm run -s cli --', ['list', '--cursor', 'abc'], 'linux')).toBe(
      'npm run -s cli -- list --cursor abc',
    );
  });

  it('prints the option’s name on Windows for a value no line there carries', () => {
    for (const model of MODELS.slice(0, 4)) {
      expect(commandHint('pictor', ['prices', 'set', '--model', model], 'win32')).toBe(
        'pictor prices set --model MODEL',
      );
    }
    expect(commandHint('pictor', ['resume', 'a\u001bb', '--data-dir', 'C:\\d\n'], 'win32')).toBe(
      'pictor resume VALUE --data-dir DATA-DIR',
    );
  });
});
