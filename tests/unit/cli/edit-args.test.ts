/** `edit` and `upscale` as the command line reads them, before any file, library or service. */
import { describe, expect, it } from 'vitest';
import { helpText, parseCommand } from '../../support/cli-table';
import { parseImageCommand } from '../../../electron/cli/edit-args';
import { UsageError } from '../../../electron/core/command-line/command-line';

const env = { HOME: '/home/ada' };

describe('edit', () => {
  it('takes the image, the prompt, the mask, repeated references and the way inputs go', () => {
    const command = parseImageCommand(
      'edit',
      [
        'photo.png',
        '--prompt',
        ' make it night ',
        '--provider',
        'fal',
        '--model',
        'fal-ai/flux-pro/v1/fill',
        '--mask',
        'm.png',
        '--ref',
        'a.png',
        '--ref',
        'abc#2',
        '--inputs',
        'UPLOAD',
        '--allow-public-upload',
        '--json',
      ],
      env,
    );
    expect(command).toMatchObject({
      name: 'edit',
      source: 'photo.png',
      prompt: 'make it night',
      model: 'fal-ai/flux-pro/v1/fill',
      mask: 'm.png',
      references: ['a.png', 'abc#2'],
      route: 'upload',
      allowPublicUpload: true,
      service: { provider: 'fal', baseUrl: 'https://queue.fal.run', baseUrlTyped: false },
      common: { json: true },
    });
  });

  it('goes inline or by upload as the model allows unless --inputs says (auto), with no mask or ref', () => {
    const command = parseImageCommand(
      'edit',
      ['ID#1', '--prompt', 'p', '--provider', 'bfl', '--base-url', 'http://127.0.0.1:9/'],
      env,
    );
    expect(command).toMatchObject({
      route: 'auto',
      references: [],
      allowPublicUpload: false,
      service: { provider: 'bfl', baseUrl: 'http://127.0.0.1:9/', baseUrlTyped: true },
    });
    expect(command).not.toHaveProperty('mask');
    expect(command).not.toHaveProperty('model');
  });

  it('runs on the built-in demo with --provider demo', () => {
    expect(
      parseImageCommand('edit', ['a.png', '--prompt', 'p', '--provider', 'demo'], env),
    ).toMatchObject({
      service: { provider: 'pictor', baseUrl: null, builtInDemo: true },
    });
  });

  it.each([
    ['no image', ['--prompt', 'p', '--provider', 'fal']],
    ['two images', ['a.png', 'b.png', '--prompt', 'p', '--provider', 'fal']],
    ['no prompt', ['a.png', '--provider', 'fal']],
    ['an empty prompt', ['a.png', '--prompt', '  ', '--provider', 'fal']],
    [
      'an unknown way',
      ['a.png', '--prompt', 'p', '--provider', 'fal', '--inputs', 'carrier-pigeon'],
    ],
    ['a factor', ['a.png', '--prompt', 'p', '--provider', 'fal', '--factor', '2']],
    ['an empty mask', ['a.png', '--prompt', 'p', '--provider', 'fal', '--mask', '']],
    [
      'too many references',
      [
        'a.png',
        '--prompt',
        'p',
        '--provider',
        'fal',
        ...Array.from({ length: 10 }, (_, n) => ['--ref', `r${n}.png`]).flat(),
      ],
    ],
    ['no address (today’s contract has none)', ['a.png', '--prompt', 'p']],
    ['an unknown provider', ['a.png', '--prompt', 'p', '--provider', 'nope']],
  ])('refuses %s as a usage error', (_what, argv) => {
    expect(() => parseImageCommand('edit', argv, env)).toThrow(UsageError);
  });

  it('never repeats a stray argument (it may be a key pasted in the wrong place)', () => {
    const key = 'sk-live-0123456789abcdef';
    expect(() =>
      parseImageCommand('edit', ['a.png', key, '--prompt', 'p', '--provider', 'fal'], env),
    ).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining(key) as unknown }) as Error,
    );
  });

  it('answers --help without reading anything else', () => {
    expect(parseCommand(['edit', '--help'], env)).toEqual({ name: 'help', topic: 'edit' });
    expect(parseCommand(['edit', 'a.png', '--nope', '-h'], env)).toEqual({
      name: 'help',
      topic: 'edit',
    });
  });
});

describe('upscale', () => {
  it('takes the factor, an optional prompt, and the service', () => {
    expect(
      parseImageCommand('upscale', ['task-1#1', '--factor', '4', '--provider', 'replicate'], env),
    ).toMatchObject({
      name: 'upscale',
      source: 'task-1#1',
      factor: 4,
      prompt: '',
      route: 'auto',
      service: { provider: 'replicate', baseUrl: 'https://api.replicate.com' },
    });
  });

  it.each([
    ['no factor', ['a.png', '--provider', 'fal']],
    ['factor 3', ['a.png', '--factor', '3', '--provider', 'fal']],
    ['a mask', ['a.png', '--factor', '2', '--provider', 'fal', '--mask', 'm.png']],
    ['a reference', ['a.png', '--factor', '2', '--provider', 'fal', '--ref', 'r.png']],
  ])('refuses %s as a usage error', (_what, argv) => {
    expect(() => parseImageCommand('upscale', argv, env)).toThrow(UsageError);
  });
});

describe('the help', () => {
  it('has edit, upscale and models, each line within 100 columns, with the providers', () => {
    for (const topic of ['edit', 'upscale', 'models'] as const) {
      const text = helpText('pictor', topic);
      expect(text).toContain(`Usage: pictor ${topic} [options]`);
      expect(text).toContain('--provider demo');
      const own = text.split('\n').filter((line) => line.startsWith(`  ${topic} `));
      expect(own).toHaveLength(1);
      for (const line of text
        .split('\n')
        .filter((one) => /--(mask|ref|inputs|capabilities|factor)/.test(one)))
        expect(line.length, line).toBeLessThanOrEqual(100);
    }
    expect(helpText('pictor')).toMatch(/--allow-public-upload/);
  });
});
