/**
 * A hostile ComfyUI's history (another local user's server on the port, or one on the LAN): the
 * files it names are only ever `/view` links on its own address, however their names, folders and
 * types are written (steps back, absolute paths, other hosts, encodings, bidi); a failure's node
 * and exception texts are one bounded sentence without controls; more images than a task keeps
 * are cut to the first {@link MAX_IMAGES_PER_TASK}; a history that never has the prompt keeps it
 * waiting, never failed; a history that lists other prompts beside it (a proxy answering
 * `/history/<id>` with the whole `/history`) is read only at the entry under the prompt id asked
 * about: absent there, the task waits; there but not an entry, the answer is refused. Through the
 * real service client and answer worker over loopback HTTP.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../electron/core/service/service-client';
import { MAX_IMAGES_PER_TASK } from '../../../shared/domain/limits';
import { bundledAnswers } from '../../support/bundled-history-worker';
import { closeServers, sendJson, serve } from '../../support/http-servers';

afterEach(closeServers);

const client = new ServiceClient({
  fetch: (url, init) => fetch(url, init),
  requestTimeoutMs: 60_000,
  ...bundledAnswers(),
});

/** A finished prompt's history entry with `outputs`, or a failed one with `messages`. */
function history(status: string, outputs: unknown, messages: unknown[] = []): unknown {
  return { 'prompt-1': { status: { status_str: status, completed: true, messages }, outputs } };
}

async function taskOf(answer: unknown) {
  const server = await serve((_req, res) => sendJson(res, 200, answer));
  const credentials = {
    baseUrl: server.origin,
    key: '',
    keyFingerprint: 'local',
    provider: 'comfyui' as const,
  };
  return { task: await client.getTask(credentials, 'prompt-1'), origin: server.origin };
}

const NAMES = [
  '../../../home/user/.ssh/id_ed25519',
  '/etc/passwd',
  'C:\\Windows\\win.ini',
  'http://evil.example/x.png',
  '//evil.example/x.png',
  '%2e%2e%2fx.png',
  '..\\..\\x.png',
  'safe\u202egnp.exe',
  '?filename=x&type=input#',
];

describe('a hostile ComfyUI history', () => {
  it('names files that are only /view links on its own address', async () => {
    const images = NAMES.map((filename, i) => ({
      filename,
      subfolder: i % 2 === 0 ? '../..' : '/abs',
      type: i % 3 === 0 ? '../input' : 'output',
    }));
    const { task, origin } = await taskOf(history('success', { '9': { images } }));
    expect(task.status).toBe('completed');
    if (task.status !== 'completed') return;
    const urls = task.imageUrls.filter((url): url is string => url !== null);
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) {
      const parsed = new URL(url);
      expect(parsed.origin).toBe(origin);
      expect(parsed.pathname).toBe('/view');
      expect([...parsed.searchParams.keys()].sort()).toEqual(['filename', 'subfolder', 'type']);
      expect(NAMES).toContain(parsed.searchParams.get('filename'));
    }
  });

  it('lists more images than a task keeps: the first ones are kept', async () => {
    const outputs = Object.fromEntries(
      Array.from({ length: 20 }, (_, node) => [
        String(node),
        {
          images: Array.from({ length: 10 }, (_, i) => ({
            filename: `${node}-${i}.png`,
            type: 'output',
          })),
        },
      ]),
    );
    const { task } = await taskOf(history('success', outputs));
    expect(task.status === 'completed' && task.imageUrls.length).toBe(MAX_IMAGES_PER_TASK);
  });

  it('says a failure in one bounded sentence without controls', async () => {
    const error = {
      node_type: `\u001b]52;c;cm0K\u0007${'N'.repeat(300_000)}`,
      node_id: '3',
      exception_message: `${'E'.repeat(400_000)}\u202e`,
      exception_type: 'T'.repeat(10_000),
    };
    const { task } = await taskOf(history('error', {}, [['execution_error', error]]));
    expect(task.status).toBe('failed');
    const said = JSON.stringify(task);
    expect(said.length).toBeLessThan(4_000);
    expect(said).not.toMatch(/\\u001b|\\u0007|\u202e/);
  });

  it('that never has the prompt keeps it waiting', async () => {
    const { task } = await taskOf({});
    expect(task.status).toBe('processing');
  });
});

/** A finished entry with one saved image named `file`, or a failed one. */
function entry(status: 'success' | 'error', file = 'other.png'): unknown {
  const images = [{ filename: file, subfolder: '', type: 'output' }];
  return {
    status: { status_str: status, completed: true, messages: [] },
    outputs: { 9: { images } },
  };
}

/** Twenty other prompts, finished, each with its own image: more than the reader once looked at. */
const OTHERS = Object.fromEntries(
  Array.from({ length: 20 }, (_, i) => [`other-${i}`, entry('success', `other-${i}.png`)]),
);

describe('a history of several prompts (the whole /history for /history/<id>)', () => {
  it('without the prompt asked about keeps it waiting, whatever the others say', async () => {
    const { task } = await taskOf(OTHERS);
    expect(task.status).toBe('processing');
  });

  it('reads the prompt asked about at its own entry, after the others', async () => {
    const { task } = await taskOf({ ...OTHERS, 'prompt-1': entry('error') });
    expect(task.status).toBe('failed');
    const mine = await taskOf({ ...OTHERS, 'prompt-1': entry('success', 'mine.png') });
    expect(mine.task.status).toBe('completed');
    if (mine.task.status !== 'completed') return;
    const files = mine.task.imageUrls.map((url) => new URL(url ?? '').searchParams.get('filename'));
    expect(files).toEqual(['mine.png']);
  });

  it.each([
    ['a text', 'done'],
    ['a list', [entry('success')]],
    ['an entry without a status', { outputs: {} }],
    ['a status that is no object', { status: 'success', outputs: {} }],
  ])('refuses an answer whose entry there is %s', async (_name, value) => {
    const answer = { ...OTHERS, 'prompt-1': value };
    await expect(taskOf(answer)).rejects.toMatchObject({ kind: 'protocol' });
  });
});
