/** `pictor models`: the models by provider, and with --capabilities what each image model takes. */
import { describe, expect, it } from 'vitest';
import { models } from '../../../electron/cli/models-command';
import type { CliIo } from '../../../electron/cli/cli-io';
import { UsageError } from '../../../electron/core/command-line/command-line';
import { MODEL_CAPABILITIES } from '../../../shared/domain/model-capabilities';
import { PROVIDER_IDS } from '../../../shared/domain/providers';

const parseModels = (argv: string[]) => models.parse(argv, {});

/** `models ARGV` through its declaration: its exit code and what it printed. */
function printed(argv: string[]): { code: number; out: string } {
  let out = '';
  const io: CliIo = {
    env: {},
    stdout: (text) => (out += text),
    stderr: (text) => (out += text),
    interrupt: new AbortController().signal,
  };
  const code = models.run(parseModels(argv), io);
  if (typeof code !== 'number')
    throw new Error('models prints what Pictor knows: nothing to wait for');
  return { code, out };
}

describe('models', () => {
  it('--capabilities --json: one line per image model of every provider, the table itself', () => {
    const { code, out } = printed(['--capabilities', '--json']);
    expect(code).toBe(0);
    const rows = out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const expected = PROVIDER_IDS.flatMap((provider) =>
      Object.entries(MODEL_CAPABILITIES[provider]).map(([model, capabilities]) => ({
        provider,
        model,
        capabilities,
      })),
    );
    const key = (row: Record<string, unknown>) => `${String(row.provider)} ${String(row.model)}`;
    const byKey = (a: Record<string, unknown>, b: Record<string, unknown>) =>
      key(a).localeCompare(key(b));
    expect(rows.sort(byKey)).toEqual(
      expected.sort(byKey).map((row) => expect.objectContaining(row) as unknown),
    );
  });

  it('--provider keeps one provider; without --capabilities its text models come too', () => {
    const rows = printed(['--provider', 'bfl', '--json'])
      .out.trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { provider: string; model: string; default: boolean });
    expect(new Set(rows.map((row) => row.provider))).toEqual(new Set(['bfl']));
    expect(rows.find((row) => row.default)?.model).toBe('flux-pro-1.1');
    expect(rows.map((row) => row.model)).toContain('flux-pro-1.0-fill');
  });

  it('says in words the mask convention, the upload’s public links and its lifetime', () => {
    const fal = printed(['--capabilities', '--provider', 'fal']).out;
    expect(fal).toMatch(/fal-ai\/flux-pro\/v1\/fill .*fill\n.*mask white-edit/);
    expect(fal).toMatch(/public links: anyone with the link/);
    const dashscope = printed(['--capabilities', '--provider', 'dashscope']).out;
    expect(dashscope).toMatch(/private links, usable for 48 h/);
    expect(dashscope).toMatch(/upscale ×2, ×4/);
    const pictor = printed(['--capabilities', '--provider', 'pictor']).out;
    expect(pictor).toMatch(/demo-edit .*\n.*mask alpha-edit \(RGBA PNG, alpha 0 = edit\)/);
  });

  it('refuses an argument and an unknown provider', () => {
    expect(() => parseModels(['fal'])).toThrow(UsageError);
    expect(() => parseModels(['--provider', 'nope'])).toThrow(UsageError);
  });
});
