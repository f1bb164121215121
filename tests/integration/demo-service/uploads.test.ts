/**
 * The demo's upload endpoints in each dialect: fal's initiate + signed PUT to the storage origin,
 * Replicate's files, DashScope's policy + form POST; the storage origin's record shows the key
 * never reached it, and the digest of each file it stored (none for a refused PUT).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call, send, startDialect } from './dialect-helpers';
import { dashscopeUpload, falUpload, replicateUpload, sourcePng } from './input-helpers';

const KEY = 'sk-demo-upload-secret-1';
const ACCOUNTS = [{ account: 'alice', key: KEY }];
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('fal storage', () => {
  it('initiates with the key, PUTs to the storage origin with none, and serves the file_url publicly', async () => {
    const { service } = await startDialect({ dialect: 'fal', accounts: ACCOUNTS });
    const bytes = await sourcePng();
    const fileUrl = await falUpload(service, bytes, KEY);
    expect(new URL(fileUrl).origin).toBe(service.url);
    const served = await fetch(fileUrl);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(bytes);
    expect(service.storage.url).not.toBe(service.url);
    expect(service.storage.requests).toHaveLength(1);
    expect(service.storage.requests[0]).toMatchObject({
      method: 'PUT',
      keySeen: false,
      status: 200,
      stored: { bytes: bytes.length, sha256: sha256(bytes), contentType: 'image/png' },
    });
    expect(service.storage.requests[0]?.headerNames).not.toContain('authorization');
  });

  it('refuses the initiate without the key, and a PUT with a missing or wrong token (403)', async () => {
    const { service } = await startDialect({ dialect: 'fal', accounts: ACCOUNTS });
    const initiate = `${service.url}/storage/upload/initiate?storage_type=fal-cdn-v3`;
    const body = { content_type: 'image/png', file_name: 'a.png' };
    expect((await send(initiate, body, {})).status).toBe(401);
    const answer = await send(initiate, body, { Authorization: `Key ${KEY}` });
    const uploadUrl = new URL((answer.json as { upload_url: string }).upload_url);
    const wrong = new URL(uploadUrl);
    wrong.searchParams.set('token', 'x'.repeat(43));
    const missing = new URL(uploadUrl);
    missing.search = '';
    for (const url of [wrong, missing]) {
      expect((await fetch(url, { method: 'PUT', body: Buffer.from('png') })).status).toBe(403);
    }
    expect(service.storage.requests.map((entry) => entry.stored)).toEqual([null, null]);
    const fileUrl = (answer.json as { file_url: string }).file_url;
    expect((await fetch(fileUrl)).status).toBe(404);
  });

  it('records a key sent to the storage origin', async () => {
    const { service } = await startDialect({ dialect: 'fal', accounts: ACCOUNTS });
    await fetch(`${service.storage.url}/anything`, { headers: { Authorization: `Key ${KEY}` } });
    expect(service.storage.requests[0]).toMatchObject({ keySeen: true, status: 404 });
    const control = await startDialect({ dialect: 'fal', accounts: ACCOUNTS, control: true });
    const record = await call(`${control.service.url}/_demo/storage`);
    expect(record.json).toEqual({ url: control.service.storage.url, requests: [] });
  });
});

describe('Replicate files', () => {
  it('takes a multipart content field with the key and answers 201 with urls.get', async () => {
    const { service, clock } = await startDialect({ dialect: 'replicate', accounts: ACCOUNTS });
    const file = await replicateUpload(service, await sourcePng(), KEY);
    expect(file.urls.get).toBe(`${service.url}/v1/files/${file.id}`);
    expect(Date.parse(file.expires_at)).toBe(clock.current + 24 * 3_600_000);
    const read = await call(file.urls.get, { headers: { Authorization: `Bearer ${KEY}` } });
    expect(read.status).toBe(200);
    expect((await call(file.urls.get)).status).toBe(401);
  });
});

describe('DashScope temporary storage', () => {
  it('gives a policy whose upload_host is the storage origin, and takes the form with no key', async () => {
    const { service } = await startDialect({ dialect: 'dashscope', accounts: ACCOUNTS });
    const bytes = await sourcePng();
    const upload = await dashscopeUpload(service, bytes, KEY);
    expect(upload.status).toBe(200);
    expect(upload.oss).toMatch(/^oss:\/\/dashscope-instant\//);
    expect(service.storage.requests).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: '/',
        keySeen: false,
        status: 200,
        stored: { bytes: bytes.length, sha256: sha256(bytes), contentType: 'image/png' },
      }),
    ]);
  });

  it('refuses a changed signature and a key outside the upload_dir', async () => {
    const { service } = await startDialect({ dialect: 'dashscope', accounts: ACCOUNTS });
    const bytes = await sourcePng();
    const forged = await dashscopeUpload(
      service,
      bytes,
      KEY,
      // Its first character changed (one in 64 signatures already starts with any given one).
      (f) => (f.Signature = `${f.Signature!.startsWith('x') ? 'y' : 'x'}${f.Signature!.slice(1)}`),
    );
    expect([forged.status, forged.text]).toEqual([
      403,
      expect.stringContaining('SignatureDoesNotMatch'),
    ]);
    const outside = await dashscopeUpload(service, bytes, KEY, (f) => (f.key = 'elsewhere/a.png'));
    expect(outside.status).toBe(403);
  });

  it('refuses a file over the model limit (max_file_size_mb)', async () => {
    const { service } = await startDialect({ dialect: 'dashscope', accounts: ACCOUNTS });
    const big = Buffer.concat([await sourcePng(), Buffer.alloc(10 * 1024 * 1024)]);
    const upload = await dashscopeUpload(service, big, KEY);
    expect([upload.status, upload.text]).toEqual([400, expect.stringContaining('EntityTooLarge')]);
  });
});
