/**
 * A hostile service's poll answer whose `progress` is a text built to make its reading backtrack
 * (shared/service/wire.ts readProgress): a digit, then a long run of whitespace that ends in
 * anything but a percent sign. The pattern had `\s*%?\s*$` after the number, so its refusal tried
 * every split of the run: 8,000 spaces cost 0.1 s, the answer's whole megabyte half an hour. The
 * answer worker that reads it is shared by every service's answers and is ended after 20 s of
 * one, failing every answer it was reading then (a submit's among them: its task left unknown).
 * Through the real service client and answer worker over loopback HTTP, each such answer is read
 * as a running task whose progress says nothing, at once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../electron/core/service/service-client';
import { bundledAnswers } from '../../support/bundled-history-worker';
import { closeServers, sendJson, serve } from '../../support/http-servers';

const KEY = 'sk-progress-texts-6606';
/** The run's characters: the answer's JSON under the client's usual 1 MiB limit (a tab or a line break is written as two). */
const RUN = 900_000;
afterEach(closeServers);

const client = new ServiceClient({
  fetch: (url, init) => fetch(url, init),
  requestTimeoutMs: 120_000,
  ...bundledAnswers(),
});

describe('a progress text built to make its reading backtrack', () => {
  it.each([
    ['a digit, spaces, a letter', `1${' '.repeat(RUN)}x`],
    ['a digit, tabs and newlines, a letter', `5${'\t\n'.repeat(RUN / 4)}%x`],
    ['a fraction, spaces, a second sign', `0.5${' '.repeat(RUN)}%%`],
  ])(
    '%s: a running task, its progress unsaid',
    async (_name, progress) => {
      const server = await serve((_req, res) =>
        sendJson(res, 200, { id: 'task_1', status: 'processing', progress }),
      );
      const task = await client.getTask(
        { baseUrl: server.origin, key: KEY, keyFingerprint: 'acct' },
        'task_1',
      );
      expect(task).toEqual({ status: 'processing' });
    },
    180_000,
  );

  it('a percent with spaces around it is still read', async () => {
    const server = await serve((_req, res) =>
      sendJson(res, 200, { id: 'task_1', status: 'processing', progress: ' \t42 % \n' }),
    );
    const task = await client.getTask(
      { baseUrl: server.origin, key: KEY, keyFingerprint: 'acct' },
      'task_1',
    );
    expect(task).toEqual({ status: 'processing', progress: 42 });
  });
});
