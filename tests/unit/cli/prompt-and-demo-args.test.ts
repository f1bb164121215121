/**
 * The command line as a newcomer types it: the prompt as the words after `generate`, and the
 * built-in demo (`--provider demo`, `pictor demo`) with no key and no address. What is refused is
 * refused with a sentence (exit 2), before anything is sent, never repeating what was typed.
 */
import { describe, expect, it } from 'vitest';
import { helpText, parseCommand } from '../../support/cli-table';
import { looksLikeKey } from '../../../electron/core/command-line/user-words';
import { SAMPLE_PROMPT } from '../../../electron/cli/demo-choice';
import { UsageError } from '../../../electron/core/command-line/command-line';

const env = { HOME: '/home/u', XDG_CONFIG_HOME: '/home/u/.config' };
const URL = 'https://api.example.com';

function generate(argv: string[], withEnv: NodeJS.ProcessEnv = env) {
  const command = parseCommand(argv, withEnv);
  if (command.name !== 'generate') throw new Error(`parsed as ${command.name}`);
  return command;
}

function refusal(argv: string[], withEnv: NodeJS.ProcessEnv = env): string {
  try {
    parseCommand(argv, withEnv);
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error(`${argv.join(' ')} parsed`);
}

describe('the prompt after generate', () => {
  it('is the words after the command: one quoted argument, or several joined by one space', () => {
    expect(generate(['generate', 'a lighthouse at dusk', '--base-url', URL]).prompt).toBe(
      'a lighthouse at dusk',
    );
    expect(generate(['generate', '--base-url', URL, 'a', 'lighthouse', 'at', 'dusk']).prompt).toBe(
      'a lighthouse at dusk',
    );
    // Options may come before, between and after the words.
    expect(
      generate(['generate', 'a', '--size', '64x64', 'lighthouse', '--base-url', URL]),
    ).toMatchObject({ prompt: 'a lighthouse', size: '64x64' });
    // What the shell kept inside one argument is kept as it is.
    expect(generate(['generate', '  two  spaces  ', '--base-url', URL]).prompt).toBe('two  spaces');
    // After --, words that start with - are the prompt's.
    expect(generate(['generate', '--base-url', URL, '--', '-dark', 'mode']).prompt).toBe(
      '-dark mode',
    );
    expect(generate(['generate', '--prompt', 'as before', '--base-url', URL]).prompt).toBe(
      'as before',
    );
  });

  it('is given once: --prompt and words together are refused, and so is no prompt', () => {
    expect(refusal(['generate', 'words', '--prompt', 'option', '--base-url', URL])).toBe(
      'generate takes its prompt once: as the words after generate, or with --prompt, not both.',
    );
    expect(refusal(['generate', '--base-url', URL])).toMatch(
      /^generate needs a prompt: the words after generate, in quotes/,
    );
    for (const empty of [[''], ['  '], ['--prompt', ''], ['--prompt', '   ']]) {
      expect(refusal(['generate', ...empty, '--base-url', URL]), empty.join('|')).toBe(
        "generate's prompt is empty: describe the picture.",
      );
    }
  });

  it('never takes a key pasted in the wrong place for a prompt, and never repeats it', () => {
    const keys = [
      'sk-live-0123456789abcdefghij',
      'sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8t',
      'r8_Ab3dEf6hIj9kLm2nOp5qRs8tUv',
      '4f0d3a52-9b1e-4c7a-8e61-2d5b9f3c7a10:0f1e2d3c4b5a69788796a5b4c3d2e1f0',
      '0f1e2d3c4b5a69788796a5b4c3d2e1f0',
      'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789+/==',
    ];
    for (const key of keys) {
      expect(looksLikeKey(key), key).toBe(true);
      for (const argv of [
        ['generate', key, '--base-url', URL],
        ['generate', 'a', 'lighthouse', key, '--base-url', URL],
        ['demo', key],
      ]) {
        const message = refusal(argv);
        expect(message).toMatch(/looks like an API key, so nothing was sent/);
        expect(message).not.toContain(key.slice(0, 8));
      }
    }
    // Words of a prompt are not keys, long or with digits as they may be.
    for (const word of [
      'lighthouse',
      'photorealistic',
      '1920s-style',
      'https://example.com/ref/image-2024.png',
      'incomprehensibilities',
      'a1b2',
    ]) {
      expect(looksLikeKey(word), word).toBe(false);
    }
    // Given with --prompt, the user said it is the prompt.
    expect(generate(['generate', '--prompt', keys[0]!, '--base-url', URL]).prompt).toBe(keys[0]);
  });

  it('is refused when it holds SERVICE_API_KEY, however it was given', () => {
    const secret = 'hunter2-but-longer';
    const withKey = { ...env, SERVICE_API_KEY: ` ${secret} ` };
    for (const argv of [
      ['generate', `a picture of ${secret}`, '--base-url', URL],
      ['generate', '--prompt', `${secret} please`, '--base-url', URL],
      ['demo', 'draw', secret],
    ]) {
      const message = refusal(argv, withKey);
      expect(message).toMatch(/holds the value of SERVICE_API_KEY, so nothing was sent/);
      expect(message).not.toContain(secret);
    }
    // A short key (the demo's own `demo`) is a word like any other.
    expect(
      generate(['generate', 'a demo of light', '--base-url', URL], { SERVICE_API_KEY: 'demo' })
        .prompt,
    ).toBe('a demo of light');
  });
});

describe('--provider demo', () => {
  it('runs generate on the built-in demo: today’s contract at demo:, no address, no key', () => {
    const command = generate(['generate', '--provider', 'demo', 'a lighthouse']);
    expect(command).toMatchObject({
      prompt: 'a lighthouse',
      service: { provider: 'pictor', baseUrl: null, builtInDemo: true },
      target: { provider: 'pictor', endpoint: 'demo:' },
    });
    expect(command.explain).toBeUndefined();
  });

  it('resumes on the built-in demo, and lists the demo’s tasks', () => {
    expect(parseCommand(['resume', '--all', '--provider', 'demo'], env)).toMatchObject({
      name: 'resume',
      target: 'all',
      service: { builtInDemo: true, baseUrl: null },
    });
    expect(parseCommand(['list', '--provider', 'demo'], env)).toMatchObject({
      name: 'list',
      provider: 'demo',
    });
  });

  it('takes no address, and is refused by the commands about a real service’s tasks', () => {
    for (const command of [
      ['generate', 'p'],
      ['resume', '--all'],
    ]) {
      expect(refusal([...command, '--provider', 'demo', '--base-url', URL])).toBe(
        "--provider demo runs Pictor's built-in demo service inside the command: it takes no --base-url.",
      );
    }
    for (const command of [
      ['track', 'task_1'],
      ['cancel', 'task_1'],
      ['caps', 'clear'],
      ['prices', 'clear'],
    ]) {
      expect(refusal([...command, '--provider', 'demo'])).toMatch(
        /^--provider demo \(Pictor's built-in demo service\) works with generate, edit, upscale, resume, list, costs, mcp;/,
      );
    }
  });

  it('is what generate without an address suggests', () => {
    expect(refusal(['generate', 'a lighthouse'])).toMatch(
      /generate needs --base-url URL .+ To try Pictor with no key and no service, use --provider demo/,
    );
  });
});

describe('pictor demo', () => {
  it('is generate --provider demo that explains itself, with a sample prompt when none is given', () => {
    const sample = generate(['demo']);
    expect(sample).toMatchObject({
      prompt: SAMPLE_PROMPT,
      explain: { samplePrompt: true },
      target: { provider: 'pictor', endpoint: 'demo:' },
      count: 1,
    });
    expect(generate(['demo', 'a', 'red', 'fox', '--count', '2', '--size', '64x64'])).toMatchObject({
      prompt: 'a red fox',
      count: 2,
      size: '64x64',
      explain: { samplePrompt: false },
    });
    expect(generate(['demo', '--provider', 'demo', '--prompt', 'p']).prompt).toBe('p');
  });

  it('is always the demo: another provider or an address is refused', () => {
    for (const argv of [
      ['demo', 'p', '--provider', 'fal'],
      ['demo', 'p', '--base-url', URL],
    ]) {
      expect(refusal(argv)).toMatch(/^demo always uses Pictor's built-in demo service/);
    }
  });

  it('is in the help, which shows the way to try it first', () => {
    const help = helpText('pictor');
    expect(help).toContain('Try it with no key: pictor demo "a lighthouse at dusk"');
    expect(help).toMatch(/^ {2}generate "PROMPT" \[--provider ID\] \[--base-url URL\]/m);
    expect(help).toMatch(/^ {2}demo \["PROMPT"\]/m);
    expect(helpText('pictor', 'generate')).toMatch(/^ {2}demo {7}Pictor's built-in demo service/m);
    expect(parseCommand(['demo', '--help'], env)).toEqual({ name: 'help', topic: 'demo' });
    const added = help.split('\n').filter((line) => /demo|PROMPT/.test(line));
    expect(added.length).toBeGreaterThan(3);
    for (const line of added) expect(line.length, line).toBeLessThanOrEqual(100);
  });
});
