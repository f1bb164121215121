/**
 * "Copy as command": every word a user or a service wrote reaches the command as written through
 * every shell present of sh (dash), bash, zsh and fish (quotes, `$`, backticks, backslashes, new
 * lines, a leading `-`; a TAB, ESC, C1 control or bidi formatting as `"$(printf '\ooo')"` inside
 * a line handed whole to `sh -c`: the `$'…'` escape written before read as other words in dash
 * and fish, and `"$(…)"` is refused by fish before 3.4), nothing in it runs, and the key is only
 * ever the shell's `$SERVICE_API_KEY`. Each line is run whole, as pasted, with stand-ins for
 * `pictor` and `curl` (tests/support/shells.ts).
 */
import { describe, expect, it } from 'vitest';
import { requestCommands } from '../../../electron/core/service/request-command';
import { parseCommand } from '../../support/cli-table';
import { curlCommand, generateCommand } from '../../../shared/text/shell-command';
import { SHELLS, commandsRunBy, outsidePosixQuotes } from '../../support/shells';
import { needing, tool } from '../../support/tools';

const BASH = tool('bash');

/** The words after its program that `line` runs with, run whole by bash with `env` exported. */
function shellWords(line: string, env: Record<string, string> = {}): string[] {
  const ran = commandsRunBy(BASH, line, env);
  expect(ran).toHaveLength(1);
  return ran[0]!.slice(1);
}

const HOSTILE = [
  "it's a fox",
  'say "cheese"',
  'costs $5 and $(touch /tmp/pwned-form67) and ${HOME}',
  'back`ticks` `id`',
  'two\nlines\n\nand a tab\t',
  'back\\slash \\n',
  '-starts with a dash',
  '--model=other',
  "'''",
  '!history !! ~ * ? [a] ; & | < > # %',
  'ünïcødé 狐狸 🦊 ‮rtl',
  '',
];

describe('the pictor generate line', () => {
  it.each(HOSTILE.filter(Boolean))(
    'carries the prompt, options and seed as typed: %j',
    (prompt) => {
      const line = generateCommand(
        { provider: 'fal', baseUrl: 'https://example.test/a b' },
        {
          prompt,
          model: 'fal-ai/flux/dev',
          size: '1024x768',
          params: { guidance_scale: 3.5, enable_safety_checker: false, negative: prompt },
          seed: 42,
        },
      );
      const words = shellWords(line);
      expect(words).toEqual([
        'generate',
        '--provider=fal',
        '--base-url=https://example.test/a b',
        '--model=fal-ai/flux/dev',
        '--size=1024x768',
        '--param=guidance_scale=3.5',
        '--param=enable_safety_checker=false',
        `--param=negative=${prompt}`,
        '--seed=42',
        `--prompt=${prompt}`,
      ]);
    },
  );
});

/** What a terminal or a reader acts on, each in a prompt of its own, with a quote or backslash. */
const ACTED_ON = [
  'esc \u001b[2J and bell \u0007',
  'tab\tcr\r^U\u0015',
  'del \u007f c1 \u009b31m \u0085',
  'bidi \u202e\u2066\u2069\u200f\u061c',
  'separators \u2028\u2029',
  "quote'\u001b\\",
  '\u001b',
  'ends with a backslash\\',
  "\\'",
  'backslash, new line\\\nand before a control \\\u202e\\',
];

describe.each(SHELLS)('the lines, pasted into $name', (shell) => {
  it.skipIf(!shell.path)(needing(shell, 'read every word as written, running nothing'), () => {
    const prompts = [...HOSTILE, ...ACTED_ON];
    const lines = prompts.map((prompt) =>
      generateCommand({ provider: 'pictor' }, { prompt, seed: 1 }),
    );
    const curl = curlCommand({
      method: 'POST',
      url: 'https://example.test/a b',
      headers: { Authorization: 'Key $SERVICE_API_KEY', 'X-Echo': '$SERVICE_API_KEY\u001b' },
      body: { prompt: ACTED_ON.join('') },
    });
    const ran = commandsRunBy(shell, [...lines, curl].join('\n'), { SERVICE_API_KEY: 'k' });
    expect(ran.slice(0, -1)).toEqual(
      prompts.map((prompt) => [
        'pictor',
        'generate',
        '--provider=pictor',
        '--seed=1',
        `--prompt=${prompt}`,
      ]),
    );
    const body = ran.at(-1)!.pop()!;
    expect(ran.at(-1)).toEqual([
      'curl',
      '-X',
      'POST',
      'https://example.test/a b',
      '-H',
      'Authorization: Key k',
      '-H',
      'X-Echo: k\u001b',
      '-H',
      'Content-Type: application/json',
      '-d',
    ]);
    // The body holds what a reader acts on as JSON's `\uXXXX`: the same value, no control.
    expect(JSON.parse(body)).toEqual({ prompt: ACTED_ON.join('') });
    expect(body).not.toMatch(/[\u007f-\u009f\u200e\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069]/);
  });
});

/**
 * What fish 3.0–3.3 read: words, single-quoted text and backslash escapes, `"$VARIABLE"`; a
 * `$(` anywhere outside single quotes makes them refuse the whole line (fish here is newer, so
 * the lines are checked for it: each line with its single-quoted runs taken out).
 */
describe('the lines, for fish before 3.4', () => {
  it.each([...HOSTILE, ...ACTED_ON])('hold no command substitution: %j', (prompt) => {
    const lines = [
      generateCommand({ provider: 'fal', baseUrl: `https://a.test/${prompt}` }, { prompt }),
      curlCommand({
        method: 'POST',
        url: `https://a.test/${prompt}`,
        headers: { Authorization: `Key $SERVICE_API_KEY${prompt}` },
        body: { prompt },
      }),
    ];
    for (const line of lines) {
      const bare = outsidePosixQuotes(line);
      expect(bare, line).not.toMatch(/\$\(|`/);
      expect(bare.replaceAll('"$SERVICE_API_KEY"', ''), line).not.toMatch(/[$"]/);
    }
  });
});

describe('the pictor line, read by the command line itself', () => {
  it.each(HOSTILE.filter((word) => word.trim() !== ''))(
    'asks for the same request: %j',
    (prompt) => {
      const request = {
        prompt: prompt.trim(),
        model: 'fal-ai/flux/dev',
        params: { guidance_scale: 3.5, enable_safety_checker: false, num_images: 2 },
        seed: 9_007_199_254_740_991,
      };
      const line = generateCommand(
        { provider: 'fal', baseUrl: 'https://fal.example.test' },
        request,
      );
      const argv = shellWords(line);
      const env = { HOME: '/home/u', SERVICE_API_KEY: 'k' };
      const command = parseCommand(argv, env);
      expect(command).toMatchObject({
        name: 'generate',
        target: { provider: 'fal', endpoint: 'https://fal.example.test' },
        model: request.model,
        params: request.params,
        seed: request.seed,
      });
      expect(command.name === 'generate' && command.prompt).toBe(request.prompt);
    },
  );
});

describe('the cURL line', () => {
  it('leaves the key to the shell and quotes the body as sent', () => {
    const prompt = 'a "fox" $(id) `x` it\'s\nnew line';
    const line = curlCommand({
      method: 'POST',
      url: 'https://queue.fal.run/fal-ai/flux/dev',
      headers: { Authorization: 'Key $SERVICE_API_KEY' },
      body: { prompt },
    });
    const words = shellWords(line, { SERVICE_API_KEY: 'sk-from-shell' });
    expect(words).toEqual([
      '-X',
      'POST',
      'https://queue.fal.run/fal-ai/flux/dev',
      '-H',
      'Authorization: Key sk-from-shell',
      '-H',
      'Content-Type: application/json',
      '-d',
      JSON.stringify({ prompt }),
    ]);
  });

  it('is the body the target’s dialect sends, with its key header, never a key', () => {
    const request = {
      prompt: 'a fox',
      model: 'fal-ai/flux/dev',
      params: { num_inference_steps: 20 },
      seed: 7,
    };
    const lines = requestCommands({ provider: 'fal', endpoint: 'https://queue.fal.run' }, request);
    expect(lines.generate).toBe(
      "pictor generate --provider=fal --model=fal-ai/flux/dev --param=num_inference_steps=20 --seed=7 '--prompt=a fox'",
    );
    const words = shellWords(lines.curl!, { SERVICE_API_KEY: 'k' });
    expect(words.slice(0, 5)).toEqual([
      '-X',
      'POST',
      'https://queue.fal.run/fal-ai/flux/dev',
      '-H',
      'Authorization: Key k',
    ]);
    expect(JSON.parse(words.at(-1)!)).toEqual({
      prompt: 'a fox',
      num_images: 1,
      num_inference_steps: 20,
      seed: 7,
    });
  });

  it('is none for the built-in demo, whose pictor line names the demo', () => {
    const lines = requestCommands({ provider: 'pictor', endpoint: 'demo:' }, { prompt: 'x' });
    expect(lines).toEqual({ generate: 'pictor generate --provider=demo --prompt=x', curl: null });
  });
});
