/**
 * Helpers for the image-input tests of the demo: small real PNGs (made and read by sharp, not by
 * the demo's own codec), and each dialect's upload done the way its clients do it.
 */
import sharp from 'sharp';
import { expect } from 'vitest';
import type { DemoService } from '../../../electron/demo-service/types';
import { call, send } from './dialect-helpers';

export type Rgba = [number, number, number, number];

/** An RGBA PNG whose pixel (x, y) is `paint(x, y)`. */
export async function pngOf(
  width: number,
  height: number,
  paint: (x: number, y: number) => Rgba,
  channels: 3 | 4 = 4,
): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * channels);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1)
      raw.set(paint(x, y).slice(0, channels), (y * width + x) * channels);
  }
  return sharp(raw, { raw: { width, height, channels } }).png().toBuffer();
}

/** A 4 × 3 source: each pixel a different colour, so a test can find any of them. */
export function sourcePng(width = 4, height = 3): Promise<Buffer> {
  return pngOf(width, height, (x, y) => [x * 60, y * 80, 200, 255]);
}

/** A white-edit mask marking the left column (white), the rest black, as greyscale. */
export async function whiteMask(
  width = 4,
  height = 3,
  marked = (x: number) => x === 0,
): Promise<Buffer> {
  const raw = Buffer.alloc(width * height);
  for (let i = 0; i < width * height; i += 1) raw[i] = marked(i % width) ? 255 : 0;
  return sharp(raw, { raw: { width, height, channels: 1 } })
    .png()
    .toBuffer();
}

/** An alpha-edit mask: the left column transparent, the rest opaque black. */
export function alphaMask(width = 4, height = 3, marked = (x: number) => x === 0): Promise<Buffer> {
  return pngOf(width, height, (x) => [0, 0, 0, marked(x) ? 0 : 255]);
}

export function dataUri(bytes: Buffer, type = 'image/png'): string {
  return `data:${type};base64,${bytes.toString('base64')}`;
}

/** A JPEG of the size. */
export function jpegOf(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#3366cc' } })
    .jpeg()
    .toBuffer();
}

/** The RGBA pixels of an image at a URL (sharp decodes it), and its size. */
export async function pixelsAt(
  url: string,
): Promise<{ width: number; height: number; at: (x: number, y: number) => Rgba }> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  const bytes = Buffer.from(await response.arrayBuffer());
  const { data, info } = await sharp(bytes)
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    width: info.width,
    height: info.height,
    at: (x, y) =>
      [...data.subarray((y * info.width + x) * 4, (y * info.width + x) * 4 + 4)] as Rgba,
  };
}

/** fal's two-step upload; the file_url. */
export async function falUpload(service: DemoService, bytes: Buffer, key: string): Promise<string> {
  const initiate = await send(
    `${service.url}/storage/upload/initiate?storage_type=fal-cdn-v3`,
    { content_type: 'image/png', file_name: 'source.png' },
    { Authorization: `Key ${key}` },
  );
  expect(initiate.status).toBe(200);
  const { upload_url, file_url } = initiate.json as { upload_url: string; file_url: string };
  const put = await fetch(upload_url, {
    method: 'PUT',
    headers: { 'Content-Type': 'image/png' },
    body: new Uint8Array(bytes),
  });
  expect(put.status).toBe(200);
  return file_url;
}

/** Replicate's `POST /v1/files`; the file object. */
export async function replicateUpload(service: DemoService, bytes: Buffer, key: string) {
  const form = new FormData();
  form.append('content', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'source.png');
  const answer = await call(`${service.url}/v1/files`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}` },
    body: form,
  });
  expect(answer.status).toBe(201);
  return answer.json as { id: string; urls: { get: string }; expires_at: string };
}

/** DashScope's policy and form upload; the oss:// URL (or the storage's answer when refused). */
export async function dashscopeUpload(
  service: DemoService,
  bytes: Buffer,
  key: string,
  change: (fields: Record<string, string>) => void = () => undefined,
): Promise<{ status: number; oss: string; text: string }> {
  const policy = await call(
    `${service.url}/api/v1/uploads?action=getPolicy&model=wanx2.1-imageedit`,
    {
      headers: { Authorization: `Bearer ${key}` },
    },
  );
  expect(policy.status).toBe(200);
  const data = (policy.json as { data: Record<string, string> }).data;
  const objectKey = `${data.upload_dir}/source.png`;
  const fields: Record<string, string> = {
    OSSAccessKeyId: data.oss_access_key_id!,
    Signature: data.signature!,
    policy: data.policy!,
    'x-oss-object-acl': data.x_oss_object_acl!,
    'x-oss-forbid-overwrite': data.x_oss_forbid_overwrite!,
    key: objectKey,
    success_action_status: '200',
  };
  change(fields);
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'source.png');
  const response = await fetch(data.upload_host!, { method: 'POST', body: form });
  return { status: response.status, oss: `oss://${objectKey}`, text: await response.text() };
}
