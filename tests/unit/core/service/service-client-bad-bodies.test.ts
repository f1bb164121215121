import { describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../../electron/core/service/service-client';
import { ServiceError } from '../../../../electron/core/service/service-error';
import type { Responder } from './fake-fetch';
import { answer, caught, fakeFetch, json } from './fake-fetch';

const credentials = {
  baseUrl: 'https://api.example.com/',
  key: 'sk-test-0123456789',
  account: 'acct',
};
const NOW = Date.parse('2025-03-01T12:00:00Z');

function client(responder: Responder, maxResponseBytes?: number) {
  const fake = fakeFetch(responder);
  const options = {
    fetch: fake.fetch,
    now: () => NOW,
    ...(maxResponseBytes ? { maxResponseBytes } : {}),
  };
  return { client: new ServiceClient(options), calls: fake.calls };
}

async function serviceError(promise: Promise<unknown>): Promise<ServiceError> {
  const error = await caught(promise);
  expect(error).toBeInstanceOf(ServiceError);
  return error as ServiceError;
}

const submitFails = (responder: Responder, maxBytes?: number) =>
  serviceError(client(responder, maxBytes).client.submit(credentials, { prompt: 'a cat' }));
const queryFails = (responder: Responder, maxBytes?: number) =>
  serviceError(client(responder, maxBytes).client.getTask(credentials, 'task_1'));

describe('unreadable 200 answers', () => {
  const bothBodies: [string, string][] = [
    ['', 'empty body'],
    ['   \n', 'empty body'],
    [
      '<!DOCTYPE html><html><head><title>Login</title></head><body><h1>Please sign in</h1></body></html>',
      'Please sign in',
    ],
    ['not json at all', 'not JSON'],
    ['{"id": "t", ', 'not JSON'],
    ['[1,2]', '(root)'],
    ['"task_1"', '(root)'],
    ['null', '(root)'],
    ['42', '(root)'],
  ];

  it.each<[string, string]>([
    ...bothBodies,
    ['{}', 'id'],
    ['{"id":""}', 'id'],
    ['{"id":"   "}', 'id'],
    ['{"id":5}', 'id'],
    ['{"id":null}', 'id'],
    ['{"data":{"id":"t"}}', 'id'],
    [`{"id":"${'x'.repeat(300)}"}`, 'longer than 256'],
    ['{"id":"a b"}', 'spaces'],
  ])('submit 200 %j → protocol, task may exist (%s)', async (body, detail) => {
    const error = await submitFails(answer(200, body));
    expect(error).toMatchObject({ kind: 'protocol', httpStatus: 200, mayHaveReachedService: true });
    expect(error.message).toBe(
      'The service answered with something Pictor could not read. The task may have been created; Pictor does not send it again on its own.',
    );
    expect(error.detail).toContain(detail);
  });

  it.each<[string, string]>([
    ...bothBodies,
    ['{}', 'status'],
    ['{"status":"done"}', 'status'],
    ['{"status":"COMPLETED"}', 'status'],
    ['{"status":"completed","output":{"data":{}}}', 'output.data'],
    ['{"status":"completed","output":{"data":"https://x"}}', 'output.data'],
    ['{"status":"completed","output":{"data":[{"url":5}]}}', 'output.data.0.url'],
    ['{"status":"completed","output":"x"}', 'output'],
  ])('query 200 %j → protocol (%s)', async (body, detail) => {
    const error = await queryFails(answer(200, body));
    expect(error).toMatchObject({ kind: 'protocol', httpStatus: 200, mayHaveReachedService: true });
    expect(error.message).toMatch(/^The service answered with something Pictor could not read\. /);
    expect(error.detail).toContain(detail);
  });

  it('shows an HTML body as a short, tag-free excerpt', async () => {
    const page = `<html><head><style>p{}</style></head><body>${'<p>maintenance window</p>'.repeat(50)}</body></html>`;
    const error = await submitFails(answer(200, page));
    expect(error.detail).toContain('maintenance window');
    expect(error.detail).not.toMatch(/[<>]/);
    expect(error.detail!.length).toBeLessThan(400);
  });

  it('refuses a 200 larger than maxResponseBytes', async () => {
    const error = await submitFails(json(200, { id: 't', pad: 'x'.repeat(300) }), 100);
    expect(error).toMatchObject({ kind: 'protocol', mayHaveReachedService: true });
    expect(error.detail).toContain('larger than 100 bytes');
  });

  it('accepts a 200 of exactly maxResponseBytes', async () => {
    const body = JSON.stringify({ id: 't', pad: '' });
    const exact = body.replace('""', `"${'x'.repeat(100 - body.length)}"`);
    expect(exact).toHaveLength(100);
    await expect(
      client(answer(200, exact), 100).client.submit(credentials, { prompt: 'p' }),
    ).resolves.toEqual({ id: 't' });
  });
});
