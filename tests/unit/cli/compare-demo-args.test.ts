/**
 * `compare --target demo:DIALECT`: the built-in demo speaking a provider's dialect, read as that
 * provider's target at the demo's endpoint of that dialect (`demo:fal`), each dialect named once
 * in what the command starts; plain `demo` (and `demo:pictor`) is today's contract at `demo:`.
 * A dialect the demo does not speak is refused with a sentence that lists those it does.
 */
import { describe, expect, it } from 'vitest';
import { parseCompare } from '../../../electron/cli/compare-args';
import { UsageError } from '../../../electron/core/command-line/command-line';

const env = { HOME: '/home/u', XDG_CONFIG_HOME: '/home/u/.config' };

function compare(...targets: string[]) {
  const argv = ['--prompt', 'a fox', ...targets.flatMap((t) => ['--target', t])];
  return run(argv);
}

function run(argv: string[]) {
  const command = parseCompare(argv, env);
  if (command.name !== 'compare') throw new Error('not a compare run');
  return command;
}

describe('compare’s demo targets', () => {
  it('are each dialect’s demo, started once per dialect', () => {
    const command = compare('demo', 'demo:fal', 'demo:bfl', 'demo:fal', 'demo:pictor');
    expect(command.targets).toEqual([
      { provider: 'pictor', baseUrl: 'demo:' },
      { provider: 'fal', baseUrl: 'demo:fal' },
      { provider: 'bfl', baseUrl: 'demo:bfl' },
      { provider: 'fal', baseUrl: 'demo:fal' },
      { provider: 'pictor', baseUrl: 'demo:' },
    ]);
    expect(command.demoDialects).toEqual(['pictor', 'fal', 'bfl']);
    expect(compare('demo:replicate', 'demo:dashscope').demoDialects).toEqual([
      'replicate',
      'dashscope',
    ]);
  });

  it('start no demo for real services, whose --base-url never moves a demo target', () => {
    const argv = ['--base-url', 'fal=https://gateway.example/fal'];
    const command = run(['--prompt', 'a fox', '--target', 'fal', '--target', 'demo:fal', ...argv]);
    expect(command.targets.map((target) => target.baseUrl)).toEqual([
      'https://gateway.example/fal',
      'demo:fal',
    ]);
    expect(command.demoDialects).toEqual(['fal']);
    expect(compare('fal', 'bfl').demoDialects).toEqual([]);
  });

  it('refuse a dialect the demo does not speak, naming those it does', () => {
    for (const target of ['demo:flux', 'demo:', 'demo:openai']) {
      let said = '';
      try {
        compare('demo', target);
      } catch (error) {
        if (!(error instanceof UsageError)) throw error;
        said = error.message;
      }
      expect(said, target).toBe(
        '--target demo:DIALECT names a dialect of the built-in demo: one of fal, replicate, dashscope, bfl, comfyui.',
      );
    }
  });
});
