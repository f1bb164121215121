/**
 * The demo's storage origin: a second loopback server, on its own port, standing for the signed
 * upload targets a real service hands out (fal's CDN upload URL, DashScope's OSS form host). It
 * takes no key: fal's `PUT /fal/<id>?token=<signature>` (a missing or wrong token is 403) and
 * DashScope's form `POST /` (policy and signature checked, file last, size within the policy).
 * Every request it gets is recorded (types.ts, DemoStorageRequest) with whether it carried any
 * key the demo knows, so a test proves a client never sends its key to an upload target, and
 * with the digest of the file it stored, so a test proves the bytes arrived as they were sent.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { BodyBudget, Reply } from './http-reply';
import { readBody, writeReply, xmlErrorReply } from './http-reply';
import { INPUT_BODY_BYTES } from './input-checks';
import { readForm, type FormPart } from './multipart';
import type { DemoStorageRequest, DemoStoredFile } from './types';
import type { UploadStore } from './uploads';
import { OSS_ACCESS_KEY_ID } from './uploads';

// Not an ES import: that would load Node's bundled undici (see core/download/pinned-fetch.ts).
const { createServer } = process.getBuiltinModule('node:http');

const FAL_PUT = /^\/fal\/([0-9a-f]{24})$/;
/** The type of a form's file that names none. */
const OCTET_STREAM = 'application/octet-stream';

/** A running storage origin. */
export interface StorageOrigin {
  readonly url: string;
  close(): void;
}

const ok = (status = 200): Reply => ({ status, headers: {}, body: Buffer.alloc(0) });

/** A reply, and the file it stored (recorded in the request's entry). */
interface Answer {
  readonly reply: Reply;
  readonly stored?: DemoStoredFile;
}

function storedBy(reply: Reply, bytes: Buffer, contentType: string): Answer {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return { reply, stored: { bytes: bytes.length, sha256, contentType } };
}

function carriesKey(req: IncomingMessage, body: Buffer, keys: readonly string[]): boolean {
  const texts = [req.url ?? '', ...Object.values(req.headers).flat()].filter(
    (text): text is string => typeof text === 'string',
  );
  return keys.some(
    (key) => texts.some((text) => text.includes(key)) || body.includes(Buffer.from(key)),
  );
}

function falPut(uploads: UploadStore, req: IncomingMessage, id: string, body: Buffer): Answer {
  if (req.method !== 'PUT') return { reply: xmlErrorReply(405, 'MethodNotAllowed', 'Use PUT.') };
  const token = new URLSearchParams((req.url ?? '').split('?')[1] ?? '').get('token');
  const type = req.headers['content-type'];
  if (uploads.fillSlot(id, token, body, type)) return storedBy(ok(), body, type ?? '');
  return {
    reply: xmlErrorReply(403, 'AccessDenied', 'The signature is missing or does not match.'),
  };
}

function field(parts: readonly FormPart[], name: string): string | undefined {
  return parts.find((part) => part.name === name)?.value.toString('utf8');
}

/** DashScope's OSS form upload, checked as OSS checks a PostObject. */
function ossPost(uploads: UploadStore, now: number, parts: readonly FormPart[]): Reply {
  const policy = field(parts, 'policy') ?? '';
  const grant = uploads.grantOf(policy, field(parts, 'Signature'));
  if (field(parts, 'OSSAccessKeyId') !== OSS_ACCESS_KEY_ID || !grant) {
    return xmlErrorReply(403, 'SignatureDoesNotMatch', 'The request signature does not match.');
  }
  if (Date.parse(grant.expiration) <= now) {
    return xmlErrorReply(403, 'AccessDenied', 'Invalid according to Policy: Policy expired.');
  }
  const key = field(parts, 'key') ?? '';
  const file = parts.at(-1);
  if (!file || file.name !== 'file') {
    return xmlErrorReply(400, 'InvalidArgument', 'The file must be the last form field.');
  }
  if (!key.startsWith(`${grant.dir}/`) || key.length === grant.dir.length + 1) {
    return xmlErrorReply(
      403,
      'AccessDenied',
      'Invalid according to Policy: Policy Condition failed: ["starts-with", "$key"].',
    );
  }
  if (file.value.length > grant.maxBytes) {
    return xmlErrorReply(
      400,
      'EntityTooLarge',
      'Your proposed upload exceeds the maximum allowed size.',
    );
  }
  uploads.putObject(key, grant, file.value, file.contentType ?? OCTET_STREAM);
  return ok(field(parts, 'success_action_status') === '200' ? 200 : 204);
}

function answer(uploads: UploadStore, now: number, req: IncomingMessage, body: Buffer): Answer {
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  const [, id] = FAL_PUT.exec(path) ?? [];
  if (id) return falPut(uploads, req, id, body);
  if (path === '/' && req.method === 'POST') {
    const parts = readForm(req.headers['content-type'], body);
    if (!parts) {
      return { reply: xmlErrorReply(400, 'InvalidArgument', 'The body is not a multipart form.') };
    }
    const reply = ossPost(uploads, now, parts);
    const file = parts.at(-1);
    if (reply.status >= 300 || !file) return { reply };
    return storedBy(reply, file.value, file.contentType ?? OCTET_STREAM);
  }
  return { reply: xmlErrorReply(404, 'NoSuchKey', 'The specified key does not exist.') };
}

/**
 * Starts the storage origin on loopback (a free port); `keys` are every key the demo knows, and
 * `bodies` the service's bound on request bodies being read, which this origin's count in.
 */
export async function startStorageOrigin(
  uploads: UploadStore,
  keys: readonly string[],
  now: () => number,
  bodies: BodyBudget,
): Promise<StorageOrigin> {
  const sockets = new Set<Socket>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const entry: DemoStorageRequest = {
      at: now(),
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headerNames: Object.keys(req.headers),
      keySeen: false,
      status: null,
      stored: null,
    };
    uploads.record(entry);
    void readBody(req, INPUT_BODY_BYTES, bodies).then((body) => {
      if (!body.ok) return void req.socket.destroy();
      entry.keySeen = carriesKey(req, body.bytes, keys);
      const { reply, stored } = answer(uploads, now(), req, body.bytes);
      entry.status = reply.status;
      entry.stored = stored ?? null;
      writeReply(res, reply, entry.method);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : 0);
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      server.close();
      for (const socket of sockets) socket.destroy();
    },
  };
}
