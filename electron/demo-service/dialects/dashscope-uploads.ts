/**
 * DashScope's temporary storage (Model Studio, "Upload local files to get temporary URLs"):
 * `GET /api/v1/uploads?action=getPolicy&model=<model>` with the key answers a policy; the client
 * POSTs a form to its `upload_host` with no key (here: the demo's storage origin,
 * storage-server.ts), fields `OSSAccessKeyId, Signature, policy, x-oss-object-acl,
 * x-oss-forbid-overwrite, key=<upload_dir>/<name>, success_action_status=200, file` (file last),
 * and names `oss://<upload_dir>/<name>` in a request that has `X-DashScope-OssResourceResolve:
 * enable`. A file serves the account and the model of its policy, for 48 hours (the demo's
 * clock); its size is at most the model's limit (`max_file_size_mb`).
 */
import { randomUUID } from 'node:crypto';
import { MODEL_CAPABILITIES } from '../../../shared/domain/model-capabilities';
import type { Reply } from '../http-reply';
import { jsonReply } from '../http-reply';
import { OSS_ACCESS_KEY_ID } from '../uploads';
import type { DialectCall, DialectKit } from './dialect';

const MB = 1024 * 1024;
/** The account's storage quota the policy reports, in MB. */
const CAPACITY_MB = 999_999_999;

function refusal(status: number, code: string, message: string): Reply {
  return jsonReply(status, { request_id: randomUUID(), code, message });
}

/** `GET /api/v1/uploads?action=getPolicy&model=…` of an account. */
export function dashscopePolicy(kit: DialectKit, call: DialectCall, account: string): Reply {
  if (call.method !== 'GET') return refusal(405, 'MethodNotAllowed', 'Method not allowed.');
  if (call.query.get('action') !== 'getPolicy') {
    return refusal(400, 'InvalidParameter', 'The action must be getPolicy.');
  }
  const model = call.query.get('model') ?? '';
  const table = MODEL_CAPABILITIES.dashscope;
  const capabilities = Object.hasOwn(table, model) ? table[model] : undefined;
  if (!capabilities) return refusal(400, 'InvalidParameter', 'Model not exist.');
  const grant = kit.ctx.uploads.policy(account, model, capabilities.maxBytes);
  return jsonReply(200, {
    request_id: randomUUID(),
    data: {
      policy: grant.policy,
      signature: grant.signature,
      upload_dir: grant.dir,
      upload_host: kit.ctx.storageUrl(),
      expire_in_seconds: grant.seconds,
      max_file_size_mb: capabilities.maxBytes / MB,
      capacity_limit_mb: CAPACITY_MB,
      oss_access_key_id: OSS_ACCESS_KEY_ID,
      x_oss_object_acl: 'private',
      x_oss_forbid_overwrite: 'true',
    },
  });
}
