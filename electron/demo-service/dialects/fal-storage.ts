/**
 * fal's storage, as its clients upload a file before naming it in a request (the fal client's
 * `storage.upload`): `POST <base>/storage/upload/initiate?storage_type=fal-cdn-v3` with the key and
 * `{ content_type, file_name }` answers `{ upload_url, file_url }`; the client PUTs the bytes to
 * `upload_url` with no key (here: the demo's storage origin, a signed token in the query,
 * storage-server.ts) and names `file_url` in its request: a public link the demo serves at
 * `/media/<id>` to anyone who has it.
 */
import type { Reply } from '../http-reply';
import { jsonReply } from '../http-reply';
import type { DialectCall, DialectKit } from './dialect';
import { jsonObject } from './dialect';

/** The initiate's path at a base URL other than fal's own (a proxy, the demo). */
export const FAL_INITIATE = '/storage/upload/initiate';

const invalid = (field: string, msg: string): Reply =>
  jsonReply(422, { detail: [{ loc: ['body', field], msg, type: 'value_error' }] });

/** `POST /storage/upload/initiate` of an account (the key was checked by the dialect). */
export function falInitiate(kit: DialectKit, call: DialectCall, account: string): Reply {
  if (call.method !== 'POST') return jsonReply(405, { detail: 'Method Not Allowed' });
  if (call.query.get('storage_type') !== 'fal-cdn-v3') {
    return jsonReply(400, { detail: 'Unsupported storage_type: use fal-cdn-v3.' });
  }
  const body = jsonObject(call.body);
  const type = body?.content_type;
  const name = body?.file_name;
  if (typeof type !== 'string' || !/^[\w.+-]+\/[\w.+-]+$/.test(type)) {
    return invalid('content_type', 'Field required: a MIME type such as image/png');
  }
  if (typeof name !== 'string' || name === '' || name.length > 255) {
    return invalid('file_name', 'Field required: the file name');
  }
  const { id, token } = kit.ctx.uploads.openSlot(account, type, name);
  return jsonReply(200, {
    upload_url: `${kit.ctx.storageUrl()}/fal/${id}?token=${token}`,
    file_url: `${kit.ctx.baseUrl()}/media/${id}`,
  });
}
