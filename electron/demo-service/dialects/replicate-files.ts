/**
 * Replicate's files API (replicate.com/docs/reference/http, "files"): `POST /v1/files`, a
 * multipart form whose `content` field is the file (its name and type), with the key, answers 201
 * `{ id, name, content_type, size, etag, checksums, metadata, created_at, expires_at, urls: { get } }`;
 * a prediction names `urls.get` as its input. `GET /v1/files/<id>` answers the same object and
 * `DELETE` removes it (204), both for the key's account only. Files serve 24 hours (the demo's
 * clock); `urls.get` is not a public download: only the demo's predictions read it.
 */
import { createHash } from 'node:crypto';
import type { Reply } from '../http-reply';
import { jsonReply } from '../http-reply';
import { readForm } from '../multipart';
import type { StoredUpload } from '../uploads';
import type { DialectCall, DialectKit } from './dialect';
import { headerValue, isoTime } from './dialect';

/** How long a file serves. */
const FILE_LIFETIME_MS = 24 * 3_600_000;

function problem(status: number, detail: string): Reply {
  return jsonReply(status, { detail, status });
}

function fileObject(kit: DialectKit, file: StoredUpload): Record<string, unknown> {
  return {
    id: file.id,
    name: file.name,
    content_type: file.contentType,
    size: file.bytes.length,
    etag: createHash('md5').update(file.bytes).digest('hex'),
    checksums: { sha256: createHash('sha256').update(file.bytes).digest('hex') },
    metadata: {},
    created_at: isoTime(file.createdAt),
    expires_at: isoTime(file.createdAt + FILE_LIFETIME_MS),
    urls: { get: `${kit.ctx.baseUrl()}/v1/files/${file.id}` },
  };
}

/** `POST /v1/files` of an account (the key was checked by the dialect). */
export function replicateUpload(kit: DialectKit, call: DialectCall, account: string): Reply {
  if (!call.body.ok) return problem(413, 'The file is too large.');
  const parts = readForm(headerValue(call.headers, 'content-type'), call.body.bytes);
  const content = parts?.find((part) => part.name === 'content');
  if (!content) {
    return jsonReply(400, {
      title: 'Invalid request',
      detail: 'Send the file as multipart/form-data in a field named "content".',
      status: 400,
    });
  }
  const type = content.contentType ?? 'application/octet-stream';
  const file = kit.ctx.uploads.addFile(account, content.value, type, content.fileName ?? 'file');
  return jsonReply(201, fileObject(kit, file));
}

/** `GET` or `DELETE /v1/files/<id>` of an account. */
export function replicateFile(
  kit: DialectKit,
  call: DialectCall,
  account: string,
  id: string,
): Reply {
  const file = kit.ctx.uploads.file(id);
  const now = kit.ctx.options.now();
  const live = file && file.kind === 'replicate' && file.account === account;
  if (!live || now >= file.createdAt + FILE_LIFETIME_MS) {
    return jsonReply(404, {
      title: 'Not found',
      detail: 'The requested resource could not be found.',
      status: 404,
    });
  }
  if (call.method === 'DELETE') {
    kit.ctx.uploads.deleteFile(id);
    return { status: 204, headers: {}, body: Buffer.alloc(0) };
  }
  return call.method === 'GET'
    ? jsonReply(200, fileObject(kit, file))
    : problem(405, 'Method not allowed.');
}
