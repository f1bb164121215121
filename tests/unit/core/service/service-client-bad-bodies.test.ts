import { describe, expect, it } from 'vitest';
import { answer, json } from './fake-fetch';
import { client, credentials, queryFails, submitFails } from './answer-harness';

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
    ['{"status":5}', 'status'],
    ['{"status":null}', 'status'],
    ['{"status":"completed","output":{"data":[{"url":5}]}}', 'output.data.0.url'],
    ['{"status":"completed","output":"x"}', 'output'],
  ])('query 200 %j → protocol (%s)', async (body, detail) => {
    const error = await queryFails(answer(200, body));
    expect(error).toMatchObject({ kind: 'protocol', httpStatus: 200, mayHaveReachedService: true });
    expect(error.message).toMatch(/^The service answered with something Pictor could not read\. /);
    expect(error.detail).toContain(detail);
  });

  // One entry, or one link, where the contract has a list is a list of one, as every profile
  // reads its images (providers/image-list.ts; providers/answer-images.test.ts): an entry with no
  // link is an image listed without an address, not an unreadable answer.
  it.each<[string, (string | null)[]]>([
    ['{"status":"completed","output":{"data":{}}}', [null]],
    ['{"status":"completed","output":{"data":"https://x"}}', ['https://x']],
    ['{"status":"completed","output":{"data":{"url":"https://x"}}}', ['https://x']],
  ])('query 200 %j → completed, its one image read', async (body, imageUrls) => {
    const task = await client(answer(200, body)).client.getTask(credentials, 'task_1');
    expect(task).toMatchObject({ status: 'completed', imageUrls });
  });

  // A status word the contract does not list is a word Pictor does not know yet, not a broken
  // answer: the task stays processing and keeps being polled, and the word is kept to show.
  it.each(['done', 'COMPLETED', 'queued', 'processing '])(
    'query 200 with the unknown status word %j → processing, phase unknown',
    async (word) => {
      const { client: service } = client(answer(200, JSON.stringify({ status: word })));
      await expect(service.getTask(credentials, 'task-1')).resolves.toEqual({
        status: 'processing',
        phase: 'unknown',
        word: word.trim(),
      });
    },
  );

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
