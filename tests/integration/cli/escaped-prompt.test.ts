/**
 * A prompt of several lines, copied "as command" on Windows, reaches the service as written:
 * the printed line (`--prompt-escaped`, shared/text/prompt-escapes.ts) is read as cmd.exe and
 * PowerShell would read it (tests/support/windows-readers.ts: PowerShell's quotes, cmd.exe's `%`
 * and `^`, pictor.cmd's second reading, the C runtime's split; the real shells on the CI's
 * Windows leg, tests/unit/shared/windows-command.test.ts), and the CLI run with those words
 * submits the prompt to a real service on loopback, unchanged.
 */
import { describe, expect, it } from 'vitest';
import { generateCommand } from '../../../shared/text/shell-command';
import {
  cmdCarets,
  cmdPercents,
  powershellGives,
  runtimeArgs,
} from '../../support/windows-readers';
import { expectExit, useCliWorlds } from './cli-harness';

const newWorld = useCliWorlds();

/** The words pictor.cmd hands Pictor.exe from a printed line, as the shells read it. */
function windowsWords(line: string, shell: 'cmd' | 'powershell'): string[] {
  const typed = shell === 'cmd' ? line : powershellGives(line);
  const once = cmdCarets(cmdPercents(typed, { cd: 'C:\\Users\\u' }));
  const [program, ...words] = runtimeArgs(cmdCarets(once));
  expect(program).toBe('pictor');
  return words;
}

const PROMPTS = [
  'a lighthouse\nat dusk',
  'three\n\nparagraphs\r\nand a \\n that is text, 100% "sure" & more',
  'a tab\there, an escape \u001b[2J and a turned \u202eword',
];

describe.each(['cmd', 'powershell'] as const)('a prompt copied for %s', (shell) => {
  it('reaches the service as written, through the CLI', async () => {
    const world = await newWorld({ durationMs: 100 });
    for (const prompt of PROMPTS) {
      const target = { provider: 'pictor' as const, baseUrl: world.service.baseUrl };
      const line = generateCommand(target, { prompt, size: '48x32' }, shell);
      expect(line).toContain('--prompt-escaped=');
      const run = await world.run(windowsWords(line, shell));
      expectExit(run, 0);
    }
    const sent = world.service.submits().map((submit) => JSON.parse(submit.body).prompt);
    expect(sent).toEqual(PROMPTS);
  });
});
