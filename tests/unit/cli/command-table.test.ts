/**
 * The command table (command-table.ts) and its dispatcher (cli-dispatch.ts): a command's file is
 * loaded only when that command runs or shows its help, so `pictor --version` loads none and
 * `pictor list --help` loads list's alone (not even the core: list reads the history alone); the
 * name is found after leading options; a name the table lacks is a usage error that lists the
 * table.
 */
import { describe, expect, it, vi } from 'vitest';

const loads = vi.hoisted(() => [] as string[]);

/** Records that `file` was loaded, then loads it. */
function recorded(file: string) {
  return async (original: () => Promise<unknown>) => {
    loads.push(file);
    return await original();
  };
}

vi.mock('../../../electron/cli/generate-command', recorded('generate-command'));
vi.mock('../../../electron/cli/resume-command', recorded('resume-command'));
vi.mock('../../../electron/cli/track-command', recorded('track-command'));
vi.mock('../../../electron/cli/cancel-command', recorded('cancel-command'));
vi.mock('../../../electron/cli/list-command', recorded('list-command'));
vi.mock('../../../electron/cli/compare-command', recorded('compare-command'));
vi.mock('../../../electron/cli/edit-command', recorded('edit-command'));
vi.mock('../../../electron/cli/models-command', recorded('models-command'));
vi.mock('../../../electron/cli/library-commands', recorded('library-commands'));
vi.mock('../../../electron/cli/self-test-command', recorded('self-test-command'));
vi.mock('../../../electron/cli/info-command', recorded('info-command'));
vi.mock('../../../electron/cli/costs-command', recorded('costs-command'));
vi.mock('../../../electron/cli/triage-command', recorded('triage-command'));
vi.mock('../../../electron/cli/template-command', recorded('template-command'));
vi.mock('../../../electron/core/pictor-core', recorded('pictor-core'));

const { runCli } = await import('../../../electron/cli/main');
const { readCommandLine } = await import('../../../electron/cli/cli-dispatch');
const { COMMAND_NAMES } = await import('../../../electron/cli/command-table');
const { UsageError } = await import('../../../electron/core/command-line/command-line');

async function printed(argv: string[], version?: string) {
  let out = '';
  let err = '';
  loads.length = 0;
  const code = await runCli(argv, {
    env: {},
    program: 'pictor',
    ...(version === undefined ? {} : { version }),
    stdout: (text) => (out += text),
    stderr: (text) => (err += text),
    interrupt: new AbortController().signal,
  });
  return { code, out, err, loaded: [...loads] };
}

describe('the command table', () => {
  it('answers --version with no command loaded, nor the core', async () => {
    expect(await printed(['--version'], '1.2.3')).toEqual({
      code: 0,
      out: '1.2.3\n',
      err: '',
      loaded: [],
    });
  });

  it("loads only the command whose help is asked for, and shows that command's help alone", async () => {
    const { code, out, loaded } = await printed(['list', '--help']);
    expect(code).toBe(0);
    // list reads the history alone (library-reader.ts): not even the core comes with it.
    expect(loaded).toEqual(['list-command']);
    expect(out).toMatch(/^Usage: pictor list \[options\]\n\n {2}list \[--provider ID\]/);
    expect(out).toContain('Exit codes and every command: pictor help');
    expect(out).not.toContain('rebuild');
  });

  it('loads only the command that runs (models: not even the core)', async () => {
    const { code, loaded } = await printed(['models', '--provider', 'fal']);
    expect(code).toBe(0);
    expect(loaded).toEqual(['models-command']);
  });

  it('finds the name after leading options, and hands the command every other word', async () => {
    expect(await readCommandLine(['--data-dir', '/d', 'list', '--limit', '3'])).toEqual({
      kind: 'run',
      name: 'list',
      args: ['--data-dir', '/d', '--limit', '3'],
    });
    expect(await readCommandLine(['--json', '--help'])).toEqual({ kind: 'help' });
    expect(await readCommandLine(['generate', '--', '--help'])).toEqual({
      kind: 'run',
      name: 'generate',
      args: ['--', '--help'],
    });
  });

  it('refuses a name the table lacks, listing the table', async () => {
    const read = readCommandLine(['frobnicate']);
    await expect(read).rejects.toThrow(UsageError);
    await expect(read).rejects.toThrow(`Commands: ${COMMAND_NAMES.join(', ')}.`);
    const { code, err, loaded } = await printed(['frobnicate', 'sk-live-secret']);
    expect(code).toBe(2);
    expect(err).toContain('Run "pictor help" for the commands and options.');
    expect(err).not.toContain('secret');
    expect(loaded).toEqual([]);
  });
});
