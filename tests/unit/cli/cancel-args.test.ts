/** `cancel <task-id>…` as the command line reads it, before any library or service is touched. */
import { describe, expect, it } from 'vitest';
import { helpText, parseCommand } from '../../support/cli-table';
import { UsageError } from '../../../electron/core/command-line/command-line';
import { MAX_IDS_PER_BATCH } from '../../../shared/domain/limits';

const env = { HOME: '/home/ada' };

describe('cancel', () => {
  it('takes task ids, each once in its first order, and the service the key is for', () => {
    const command = parseCommand(
      ['cancel', ' a1 ', 'b2', 'a1', '--provider', 'fal', '--base-url', 'http://127.0.0.1:8080'],
      env,
    );
    expect(command).toMatchObject({
      name: 'cancel',
      targets: ['a1', 'b2'],
      service: { provider: 'fal', baseUrl: 'http://127.0.0.1:8080', baseUrlTyped: true },
    });
  });

  it("uses the provider's own address without --base-url, and none for today's contract", () => {
    expect(parseCommand(['cancel', 'x', '--provider', 'replicate'], env)).toMatchObject({
      service: { provider: 'replicate', baseUrl: 'https://api.replicate.com', baseUrlTyped: false },
    });
    expect(parseCommand(['cancel', 'x'], env)).toMatchObject({
      service: { provider: 'pictor', baseUrl: null },
    });
  });

  it.each([
    ['no id', ['cancel']],
    ['an empty id', ['cancel', 'a', '  ']],
    ['an unknown provider', ['cancel', 'a', '--provider', 'nope']],
    [
      'too many ids',
      ['cancel', ...Array.from({ length: MAX_IDS_PER_BATCH + 1 }, (_, n) => `t${n}`)],
    ],
  ])('refuses %s as a usage error', (_what, argv) => {
    expect(() => parseCommand(argv, env)).toThrow(UsageError);
  });

  it('has its help, with the providers and the exit codes it means', () => {
    expect(parseCommand(['cancel', '--help'], env)).toEqual({ name: 'help', topic: 'cancel' });
    const help = helpText('pictor', 'cancel');
    expect(help).toContain('cancel <task-id>... [--provider ID] [--base-url URL]');
    expect(help).toContain('exit 0 when every one ended');
    expect(help).toContain('fal        fal.ai');
    expect(helpText('pictor')).toContain('cancel <task-id>');
  });
});
