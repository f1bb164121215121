import { describe, expect, it } from 'vitest';
import { CLI_COMMANDS, cliArguments } from '../../../electron/cli/cli-invocation';
import { parseCommand } from '../../support/cli-table';

describe('the app started as the pictor command', () => {
  it.each(CLI_COMMANDS)('runs the CLI for "%s", packaged and from a checkout', (command) => {
    expect(cliArguments(['/opt/Pictor/pictor', command, '--json'], false)).toEqual([
      command,
      '--json',
    ]);
    expect(cliArguments(['/x/electron', '.', command], true)).toEqual([command]);
  });

  it('knows every command the CLI parses (export, import and self-test included)', () => {
    let listed = '';
    try {
      parseCommand(['frobnicate'], {});
    } catch (error) {
      listed = error instanceof Error ? error.message : '';
    }
    const parsed = /Commands: (.*)\.$/.exec(listed)?.[1]?.split(', ') ?? [];
    expect(parsed.length).toBeGreaterThan(0);
    expect([...parsed, 'help'].sort()).toEqual([...CLI_COMMANDS].sort());
  });

  it('leaves out the Chromium switches before the command (the Linux wrapper’s, a user’s)', () => {
    expect(
      cliArguments(['/opt/Pictor/pictor', '--ozone-platform=headless', 'self-test'], false),
    ).toEqual(['self-test']);
    expect(
      cliArguments(['/opt/Pictor/pictor', '--no-sandbox', 'list', '--json', 'x y'], false),
    ).toEqual(['list', '--json', 'x y']);
    expect(cliArguments(['/opt/Pictor/pictor', '--ozone-platform=headless'], false)).toBeNull();
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

describe('the CLI names itself as it was run', () => {
  it('says pictor in the help and the usage hint when run as the installed app', async () => {
    const { runCli } = await import('../../../electron/cli/main');
    const out: string[] = [];
    const io = {
      env: {},
      stdout: (text: string) => void out.push(text),
      stderr: (text: string) => void out.push(text),
      interrupt: new AbortController().signal,
      program: 'pictor',
    };
    expect(await runCli(['help'], io)).toBe(0);
    expect(out.join('')).toContain('Usage: pictor <command>');
    out.length = 0;
    expect(await runCli(['frobnicate'], io)).toBe(2);
    expect(out.join('')).toContain('Run "pictor help"');
    out.length = 0;
    expect(await runCli(['help'], { ...io, program: undefined })).toBe(0);
    expect(out.join('')).toContain('Usage: npm run -s cli -- <command>');
  });
});
