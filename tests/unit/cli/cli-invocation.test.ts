import { describe, expect, it } from 'vitest';
import { CLI_COMMANDS, cliArguments } from '../../../electron/cli/cli-invocation';

describe('the app started as the pictor command', () => {
  it.each(CLI_COMMANDS)('runs the CLI for "%s", packaged and from a checkout', (command) => {
    expect(cliArguments(['/opt/Pictor/pictor', command, '--json'], false)).toEqual([
      command,
      '--json',
    ]);
    expect(cliArguments(['/x/electron', '.', command], true)).toEqual([command]);
  });

  it.each([
    [['/opt/Pictor/pictor'], false],
    [['/Applications/Pictor.app/Contents/MacOS/Pictor', '-psn_0_12345'], false],
    [['/opt/Pictor/pictor', '--no-sandbox'], false],
    [['/opt/Pictor/pictor', '/home/ada/image.png'], false],
    [['/opt/Pictor/pictor', 'List'], false],
    [['/x/electron', '.'], true],
    [['/x/electron', 'list'], true],
  ] as const)('starts the app for %j', (argv, defaultApp) => {
    expect(cliArguments(argv, defaultApp)).toBeNull();
  });
});
