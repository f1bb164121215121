/**
 * How an image named in a request reaches the demo: inline (bare base64, or a `data:` URI), or a
 * link the demo itself handed out: an upload (fal's `file_url`, Replicate's `urls.get`,
 * DashScope's `oss://`) or one of its own result images. The demo never fetches anything: any
 * other link (another host, a private address, its storage origin) is "could not be fetched".
 */
import { inputProblem, type InputProblem } from './input-problem';
import { storedImageBytes } from './inline-images';
import type { ServiceContext } from './service-context';
import type { StoredUpload } from './uploads';

/** How long an `oss://` file serves (DashScope's temporary storage). */
const OSS_LIFETIME_MS = 48 * 3_600_000;
/** How long a Replicate file serves. */
const FILE_LIFETIME_MS = 24 * 3_600_000;

/** What forms a dialect takes its images in, and who asks. */
export interface LinkRules {
  /** BFL: bare base64 (no `data:` prefix). */
  readonly bareBase64: boolean;
  /** fal, Replicate, DashScope, today's contract: `data:<type>;base64,…`. */
  readonly dataUri: boolean;
  /** DashScope: `oss://` resolves only with `X-DashScope-OssResourceResolve: enable`. */
  readonly ossResolve: boolean;
  readonly account: string;
  readonly model: string;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const DATA_URI = /^data:([\w.+-]+\/[\w.+-]+)?((?:;[\w-]+=[^;,]*)*);base64,(.*)$/s;

function base64Bytes(text: string, field: string): Buffer | InputProblem {
  const bare = text.replace(/\s+/g, '');
  if (bare === '' || bare.length % 4 === 1 || !BASE64.test(bare)) {
    return inputProblem('invalid', field, `The ${field} is not valid base64.`);
  }
  return Buffer.from(bare, 'base64');
}

const unfetchable = (field: string): InputProblem =>
  inputProblem('unfetchable', field, `The image could not be fetched from the ${field} link.`);

function upload(
  file: StoredUpload | undefined,
  rules: LinkRules,
  lifetimeMs: number | null,
  now: number,
): Buffer | undefined {
  if (!file) return undefined;
  if (lifetimeMs !== null && now >= file.createdAt + lifetimeMs) return undefined;
  if (file.model !== undefined && file.model !== rules.model) return undefined;
  return lifetimeMs === null || file.account === rules.account ? file.bytes : undefined;
}

/** A link on the demo's own origin: an upload or a result image. */
async function ownLink(ctx: ServiceContext, path: string, rules: LinkRules) {
  const now = ctx.options.now();
  const [, media] = /^\/media\/([0-9a-f]+)$/.exec(path) ?? [];
  const files = ctx.uploads;
  if (media) return files.isPublic(media) ? upload(files.file(media), rules, null, now) : undefined;
  const [, file] = /^\/v1\/files\/([0-9a-f]+)$/.exec(path) ?? [];
  if (file && !files.isPublic(file)) return upload(files.file(file), rules, FILE_LIFETIME_MS, now);
  const [, token] = /^\/(?:files\/([0-9a-f]+)\.png|r\/([0-9a-f]+))$/.exec(path) ?? [];
  const image = token === undefined ? undefined : ctx.store.image(token);
  if (!image || ctx.store.isExpired(image)) return undefined;
  const { bytes } = await storedImageBytes(ctx, image);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The bytes an image field names, or why they cannot be had (see the file comment). */
export async function resolveImage(
  ctx: ServiceContext,
  field: string,
  value: unknown,
  rules: LinkRules,
): Promise<Buffer | InputProblem> {
  if (typeof value !== 'string' || value.trim() === '') {
    return inputProblem('invalid', field, `The ${field} must be a non-empty string.`);
  }
  const text = value.trim();
  if (text.startsWith('oss://')) {
    if (!rules.ossResolve) return unfetchable(field);
    const found = upload(
      ctx.uploads.object(text.slice(6)),
      rules,
      OSS_LIFETIME_MS,
      ctx.options.now(),
    );
    return found ?? unfetchable(field);
  }
  const data = DATA_URI.exec(text);
  if (data && rules.dataUri) return base64Bytes(data[3] ?? '', field);
  if (/^https?:\/\//i.test(text)) {
    const url = URL.parse(text);
    const own = url && url.origin === URL.parse(ctx.baseUrl())?.origin;
    const found = own ? await ownLink(ctx, url.pathname, rules) : undefined;
    return found ?? unfetchable(field);
  }
  if (rules.bareBase64 && !text.startsWith('data:')) return base64Bytes(text, field);
  const forms = rules.bareBase64 ? 'base64 or an https link' : 'a data: URI or an https link';
  return inputProblem('invalid', field, `The ${field} must be ${forms}.`);
}
