/**
 * Each service's upload step (docs/SERVICE.md, "Images as inputs"), from an input's bytes to the
 * link its request names:
 * - fal: `POST …/storage/upload/initiate` with the key → `{ upload_url, file_url }`, then `PUT` the
 *   bytes to the signed `upload_url` without it; the input is `file_url` (a public link);
 * - Replicate: `POST /v1/files` (multipart, field `content`) with the key → `urls.get`;
 * - DashScope: `GET /api/v1/uploads?action=getPolicy&model=…` with the key → a policy, then a form
 *   `POST` to its `upload_host` without it; the input is `oss://<upload_dir>/<name>` (48 hours).
 * - ComfyUI: `POST /upload/image` (multipart, field `image`) → `{ name, subfolder, type }`; the
 *   input is the name a LoadImage node takes (`subfolder/name`), in its input folder.
 * Every answer goes through a schema; the key goes only in keyedRequest (upload-http.ts). The image
 * goes as a body streamed from the store's file, its bytes or a form around them (upload-body.ts):
 * never held whole while it is sent.
 */
import { z } from 'zod';
import type { InputImage } from '../../../shared/domain/image-inputs';
import type { ProviderId } from '../../../shared/domain/providers';
import { IMAGE_EXTENSION, type ImageKind } from '../images';
import { formBody, imageBody, type FormField, type ImageSource } from './upload-body';
import { badAnswer, keyedRequest, signedRequest, type UploadCall } from './upload-http';

/** One input to upload, and where its endpoint is (already chosen for the address in use). */
export interface UploadFile {
  readonly image: InputImage;
  /** Where its bytes are read from as they are sent (the input store). */
  readonly source: ImageSource;
  readonly endpoint: string;
  readonly model: string;
}

/** Uploads one input; the link its request names. */
export type Uploader = (call: UploadCall, file: UploadFile) => Promise<string>;

const LINK = z.string().min(1).max(4_096);

function fileName(image: InputImage): string {
  const kind = image.mime.slice('image/'.length) as ImageKind;
  return `${image.sha256}.${IMAGE_EXTENSION[kind]}`;
}

/** A form of `fields`, then the image as the file part `field`. */
function formOf(file: UploadFile, field: string, fields: readonly FormField[] = []) {
  return formBody(file.source, file.image, fields, { field, fileName: fileName(file.image) });
}

function read<T>(call: UploadCall, schema: z.ZodType<T>, answer: unknown): T {
  const parsed = schema.safeParse(answer);
  if (!parsed.success)
    throw badAnswer(call, parsed.error.issues[0]?.message ?? 'Unexpected shape.');
  return parsed.data;
}

const falInitiate = z.object({ upload_url: LINK, file_url: LINK });

const fal: Uploader = async (call, file) => {
  const answer = await keyedRequest(call, {
    method: 'POST',
    url: file.endpoint,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ content_type: file.image.mime, file_name: fileName(file.image) }),
  });
  const { upload_url: target, file_url: link } = read(call, falInitiate, answer);
  await signedRequest(call, {
    method: 'PUT',
    url: target,
    body: imageBody(file.source, file.image),
  });
  return link;
};

const replicateFile = z.object({ urls: z.object({ get: LINK }) });

const replicate: Uploader = async (call, file) => {
  const body = formOf(file, 'content');
  const answer = await keyedRequest(call, { method: 'POST', url: file.endpoint, body });
  return read(call, replicateFile, answer).urls.get;
};

/** Text the form carries as is: printable, no line breaks, bounded. */
const FIELD = z
  .string()
  .min(1)
  .max(8_192)
  .regex(/^[\x20-\x7e]+$/);
/** A folder name inside the bucket: no step back out, no leading slash. */
const UPLOAD_DIR = FIELD.max(1_024).refine(
  (dir) => !dir.startsWith('/') && !dir.split('/').some((part) => part === '..' || part === '.'),
  'The upload folder leaves its bucket.',
);

const dashscopePolicy = z.object({
  data: z.object({
    policy: FIELD,
    signature: FIELD,
    upload_dir: UPLOAD_DIR,
    upload_host: LINK,
    oss_access_key_id: FIELD,
    x_oss_object_acl: FIELD,
    x_oss_forbid_overwrite: FIELD,
    max_file_size_mb: z.number().positive().optional(),
  }),
});

const dashscope: Uploader = async (call, file) => {
  const url = `${file.endpoint}&model=${encodeURIComponent(file.model)}`;
  const { data } = read(call, dashscopePolicy, await keyedRequest(call, { method: 'GET', url }));
  if (data.max_file_size_mb !== undefined && file.image.bytes > data.max_file_size_mb * 1024 ** 2) {
    throw badAnswer(call, `The upload takes at most ${data.max_file_size_mb} MB.`);
  }
  const key = `${data.upload_dir.replace(/\/+$/, '')}/${fileName(file.image)}`;
  const body = formOf(file, 'file', [
    ['OSSAccessKeyId', data.oss_access_key_id],
    ['Signature', data.signature],
    ['policy', data.policy],
    ['x-oss-object-acl', data.x_oss_object_acl],
    ['x-oss-forbid-overwrite', data.x_oss_forbid_overwrite],
    ['key', key],
    ['success_action_status', '200'],
  ]);
  await signedRequest(call, { method: 'POST', url: data.upload_host, body });
  return `oss://${key}`;
};

/** A file name in ComfyUI's input folder: no step out of it, printable, bounded. */
const COMFY_NAME = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[^\\/\p{Cc}]+$/u)
  .refine((name) => name !== '.' && name !== '..', 'The file name leaves the folder.');
const comfyUpload = z.object({
  name: COMFY_NAME,
  subfolder: z.union([z.literal(''), UPLOAD_DIR.max(255)]).optional(),
});

const comfyui: Uploader = async (call, file) => {
  // The file part last, as every form here (ComfyUI reads the fields of a form, in any order).
  const body = formOf(file, 'image', [['overwrite', 'true']]);
  const answer = await keyedRequest(call, { method: 'POST', url: file.endpoint, body });
  const { name, subfolder } = read(call, comfyUpload, answer);
  return subfolder ? `${subfolder.replace(/\/+$/, '')}/${name}` : name;
};

/** Each service's upload step; a service without one has no entry. */
export const UPLOADERS: Readonly<Partial<Record<ProviderId, Uploader>>> = {
  fal,
  replicate,
  dashscope,
  comfyui,
};
