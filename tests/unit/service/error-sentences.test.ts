/**
 * The service area's failures reach a person as catalogue sentences (shared/i18n/errors/
 * service.ts): real answers of a real HTTP server on loopback (statuses, a wait, a server's own
 * words with the key echoed in them, a redirect elsewhere, an unreadable 200, no answer in time),
 * a closed port, refused addresses and task ids, what a task's answer says of itself, and "Test
 * connection". Each carries a sentence whose key is in the area, whose English is the message,
 * and which the pseudo-locale renders differently with every value kept. A source scan proves no
 * error of the area is made from a string any more.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { testConnection } from '../../../electron/core/service/connection-test';
import { checkCredentials } from '../../../electron/core/service/request-guard';
import { ServiceClient } from '../../../electron/core/service/service-client';
import { ServiceError } from '../../../electron/core/service/service-error';
import { checkTaskId } from '../../../electron/core/service/task-id';
import {
  UrlPolicyError,
  checkBaseUrl,
  checkImageUrl,
  checkResolvedAddresses,
} from '../../../electron/core/service/url-policy';
import { parseTaskAnswer } from '../../support/answer-parsers';
import { toIpcError } from '../../../electron/ipc/ipc-errors';
import { localeInfo } from '../../../shared/domain/locales';
import { taskErrorSchema } from '../../../shared/domain/task-record';
import { serviceErrors } from '../../../shared/i18n/errors/service';
import { serviceTestErrors } from '../../../shared/i18n/errors/service-tests';
import { MainCatalogue } from '../../../shared/i18n/main-catalogue';
import { englishText, sentenceSchema, type Sentence } from '../../../shared/i18n/sentence';
import { connectionReportSchema } from '../../../shared/ipc/contract';
import { closeServers, closedPort, sendJson, serve } from '../../support/http-servers';

const KEY = 'sk-live-SENTENCES-7f3a9c2e41';
const pseudo = new MainCatalogue(localeInfo('en-XA')!, undefined);
afterEach(closeServers);

/**
 * `said` is a sentence of this area that reads as `message` in English, reads otherwise in the
 * pseudo-locale, keeps every value there, survives the schema sent and stored sentences pass,
 * and carries no part of the key.
 */
function expectAreaSentence(said: Sentence | undefined, message: string, values: string[] = []) {
  expect(said).toBeDefined();
  const { key, params } = said!;
  expect(Object.hasOwn(serviceErrors, key) || Object.hasOwn(serviceTestErrors, key)).toBe(true);
  expect(englishText(said!)).toBe(message);
  expect(sentenceSchema().parse(said)).toEqual(said);
  const shown = pseudo.text(key, params);
  expect(shown).not.toBe(message);
  for (const value of values) {
    expect(message).toContain(value);
    expect(shown).toContain(value);
  }
  expect(JSON.stringify(said)).not.toContain(KEY.slice(8));
  expect(shown).not.toContain(KEY.slice(8));
}

/** `error`, a ServiceError whose sentence goes on into its TaskError and its IPC error. */
function expectServiceSentence(error: unknown, values: string[] = []): ServiceError {
  expect(error).toBeInstanceOf(ServiceError);
  const failure = error as ServiceError;
  expectAreaSentence(failure.sentence, failure.message, values);
  const task = taskErrorSchema().parse(failure.toTaskError());
  expect(task.sentence).toEqual(failure.sentence);
  expect(task.message).toBe(failure.message);
  expect(toIpcError(failure).sentence).toEqual(failure.sentence);
  return failure;
}

async function rejection(work: Promise<unknown>): Promise<unknown> {
  try {
    await work;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

function thrown(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

const client = (requestTimeoutMs = 5_000) =>
  new ServiceClient({ fetch: (url, init) => fetch(url, init), requestTimeoutMs });
const creds = (baseUrl: string) => ({ baseUrl, key: KEY, keyFingerprint: 'acct' });
const prompt = { prompt: 'a lighthouse at dusk' };

describe('answers of a real service on loopback', () => {
  it('a refused key, on a submit and on a query', async () => {
    const server = await serve((_req, res) => sendJson(res, 401, { error: 'bad key' }));
    const submit = expectServiceSentence(
      await rejection(client().submit(creds(server.origin), prompt)),
      ['401'],
    );
    expect(submit.sentence?.key).toBe('error.service.authRefusedSubmit');
    const query = expectServiceSentence(
      await rejection(client().getTask(creds(server.origin), 'task_1')),
      ['401'],
    );
    expect(query.sentence?.key).toBe('error.service.authRefusedQuery');
  });

  it('a busy service and the wait it asked for, in seconds and in minutes', async () => {
    let wait = '30';
    const server = await serve((_req, res) =>
      sendJson(res, 429, { error: 'slow down' }, { 'retry-after': wait }),
    );
    const seconds = expectServiceSentence(
      await rejection(client().getTask(creds(server.origin), 'task_1')),
    );
    expect(seconds.sentence).toEqual({
      key: 'error.service.busyWaitQuery',
      params: { unit: 'seconds', amount: 30 },
    });
    expect(seconds.message).toContain('wait about 30 seconds');
    wait = '600';
    const minutes = expectServiceSentence(
      await rejection(client().submit(creds(server.origin), prompt)),
    );
    expect(minutes.message).toContain('wait about 10 minutes. Try again then.');
  });

  it('a 5xx status is an identifier, not a number to format', async () => {
    const server = await serve((_req, res) => sendJson(res, 503, {}));
    const failure = expectServiceSentence(
      await rejection(client().getTask(creds(server.origin), 'task_1')),
      ['503'],
    );
    expect(failure.sentence?.params).toEqual({ status: '503' });
  });

  it('a rejection keeps the server’s words, with the key it echoed scrubbed', async () => {
    const server = await serve((_req, res) =>
      sendJson(res, 400, { error: { message: `Prompt refused for key ${KEY}`, code: 'policy' } }),
    );
    const failure = expectServiceSentence(
      await rejection(client().submit(creds(server.origin), prompt)),
      ['400', 'Prompt refused for key'],
    );
    expect(failure.sentence?.key).toBe('error.service.rejectedSubmitReason');
    expect(failure.message).not.toContain(KEY);
    expect(failure.detail ?? '').not.toContain(KEY);
  });

  it('a redirect to another origin, and a 200 that does not read', async () => {
    const elsewhere = await serve((_req, res) => {
      res.writeHead(302, { location: 'https://elsewhere.example/v1/tasks/x' });
      res.end();
    });
    const redirect = expectServiceSentence(
      await rejection(client().getTask(creds(elsewhere.origin), 'task_1')),
    );
    expect(redirect.sentence?.key).toBe('error.service.redirectElsewhere');
    const garbled = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"id": ');
    });
    const unreadable = expectServiceSentence(
      await rejection(client().submit(creds(garbled.origin), prompt)),
    );
    expect(unreadable.sentence?.key).toBe('error.service.unreadableSubmit');
  });

  it('no answer in time, in milliseconds and in seconds', async () => {
    const server = await serve(() => undefined);
    const quick = expectServiceSentence(
      await rejection(client(300).getTask(creds(server.origin), 'task_1')),
    );
    expect(quick.message).toContain('within 300 ms.');
    const slower = expectServiceSentence(
      await rejection(client(1_500).submit(creds(server.origin), prompt)),
    );
    expect(slower.message).toContain('within 1.5 seconds.');
  });

  it('a closed port: nothing was sent', async () => {
    const port = await closedPort();
    const failure = expectServiceSentence(
      await rejection(client().submit(creds(`http://127.0.0.1:${port}`), prompt)),
    );
    expect(failure.sentence).toEqual({
      key: 'error.service.refusedSubmit',
      params: { host: `127.0.0.1:${port}` },
    });
    expect(failure.mayHaveReachedService).toBe(false);
  });
});

describe('refused before anything is sent', () => {
  it('a service URL, told to fix it in Settings', () => {
    const refused = thrown(() => checkBaseUrl('http://api.example'));
    expect(refused).toBeInstanceOf(UrlPolicyError);
    const policy = refused as UrlPolicyError;
    expectAreaSentence(policy.sentence, policy.message);
    const config = expectServiceSentence(
      thrown(() => checkCredentials(creds('http://api.example'))),
    );
    expect(config.sentence?.key).toBe('error.service.serviceUrlPlainHttpFix');
    expect(config.message).toBe(`${policy.message} Fix it in Settings.`);
    const noKey = expectServiceSentence(
      thrown(() => checkCredentials({ ...creds('https://api.example'), key: ' ' })),
    );
    expect(noKey.sentence?.key).toBe('error.service.noKey');
  });

  it('image addresses: a scheme, a private address, a host of this computer', () => {
    for (const [work, values] of [
      [() => checkImageUrl('ftp://cdn.example/a.png', 'https://api.example'), ['ftp:']],
      [
        () => checkImageUrl(`https://cdn.example/${'a'.repeat(16_400)}`, 'https://x.example'),
        ['16384'],
      ],
      [
        () => checkResolvedAddresses([{ address: '10.20.30.40' }], 'https://api.example'),
        ['10.20.30.40'],
      ],
      [() => checkResolvedAddresses([{ address: '::1' }], 'https://api.example'), ['::1']],
    ] as const) {
      const refused = thrown(work);
      expect(refused).toBeInstanceOf(UrlPolicyError);
      const policy = refused as UrlPolicyError;
      expectAreaSentence(policy.sentence, policy.message, [...values]);
      expect(toIpcError(policy).sentence).toEqual(policy.sentence);
    }
  });

  it('task ids', () => {
    expectServiceSentence(thrown(() => checkTaskId('two words')));
    const long = expectServiceSentence(
      thrown(() => checkTaskId('x'.repeat(300))),
      ['256'],
    );
    expect(long.sentence?.key).toBe('error.service.taskIdTooLong');
  });
});

describe('what a task’s answer says of itself', () => {
  it('a failure without a reason, one whose reason carried the key, and too many images', () => {
    const bare = parseTaskAnswer(JSON.stringify({ status: 'failed' }), KEY);
    expect(bare.status).toBe('failed');
    if (bare.status !== 'failed') return;
    expectAreaSentence(bare.sentence, bare.message);

    const echoed = parseTaskAnswer(JSON.stringify({ status: 'failed', error: KEY }), KEY);
    if (echoed.status !== 'failed') throw new Error('expected a failed task');
    expect(echoed.message).not.toContain(KEY);
    // The server's own words (scrubbed) stay text: there is no sentence to translate them.
    expect(echoed.sentence).toBeUndefined();

    const data = Array.from({ length: 256 }, (_, index) => ({
      url: `https://cdn.example/${index}.png`,
    }));
    const many = parseTaskAnswer(JSON.stringify({ status: 'completed', output: { data } }), KEY);
    if (many.status !== 'completed') throw new Error('expected a completed task');
    expectAreaSentence(many.noticeSentence, many.notice ?? '', ['256', '16']);
  });

  it('an image address carrying the key, and one too long to keep', () => {
    const data = [
      { url: `https://cdn.example/a.png?token=${KEY}` },
      { url: `https://cdn.example/${'b'.repeat(20_000)}.png` },
    ];
    const task = parseTaskAnswer(JSON.stringify({ status: 'completed', output: { data } }), KEY);
    if (task.status !== 'completed') throw new Error('expected a completed task');
    expect(task.imageUrls).toEqual([null, null]);
    for (const index of [0, 1]) {
      expectAreaSentence(task.refusedImageSentences?.[index], task.refusedImages?.[index] ?? '');
    }
  });
});

describe('Test connection', () => {
  it('reports in sentences, the address with its port as written', async () => {
    // A service of the contract: a "no such task" to its key, a refusal without it.
    const server = await serve((req, res) =>
      req.headers.authorization
        ? sendJson(res, 404, { error: 'no such task' })
        : sendJson(res, 401, { error: 'no key' }),
    );
    const host = `127.0.0.1:${server.port}`;
    const deps = (found: 'key' | 'none') => ({
      credentials: {
        credentialsFor: async () => null,
        storedKeyFor: async (baseUrl: string) =>
          found === 'key'
            ? ({ found: 'key', credentials: creds(baseUrl) } as const)
            : ({ found: 'none' } as const),
      },
      client: client(),
      savedBaseUrl: () => server.origin,
    });
    const accepted = connectionReportSchema().parse(
      await testConnection(deps('key'), `${server.origin}/v1`),
    );
    expect(accepted.ok).toBe(true);
    expectAreaSentence(accepted.sentence, accepted.message, [host]);
    const none = connectionReportSchema().parse(await testConnection(deps('none'), server.origin));
    expect(none.ok).toBe(false);
    expectAreaSentence(none.sentence, none.message, [host]);
    const demo = connectionReportSchema().parse(await testConnection(deps('none'), ''));
    expectAreaSentence(demo.sentence, demo.message);
  });
});

describe('source', () => {
  it('makes no error of the area from a string or a template', () => {
    const dir = join(__dirname, '../../../electron/core/service');
    const offenders: string[] = [];
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.ts'))) {
      const text = readFileSync(join(dir, file), 'utf8');
      const patterns = [
        /new (UrlPolicyError|ServiceError)\(\s*['"`]/g,
        /\bmessage:\s*['"`]/g,
        // A sentence starts with a capital; service-client's refuse('elsewhere') names a case.
        /\b(refuse|refused|configError)\(\s*['"`][A-Z]/g,
      ];
      for (const pattern of patterns) {
        for (const match of text.matchAll(pattern)) offenders.push(`${file}: ${match[0]}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
