import sharp from 'sharp';
import { expect } from 'vitest';
import type { DemoService, DemoServiceOptions } from '../../../electron/demo-service/types';
import { PNG_SIGNATURE, TestClock, startService } from './helpers';

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** One answer, read whole. */
export interface Answer {
  status: number;
  headers: Headers;
  json: unknown;
}

/** A request to the service, answered as status, headers and parsed JSON (null if not JSON). */
export async function call(url: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(url, init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: parsed(text) };
}

/** A JSON POST (or PUT) with the given headers. */
export function send(
  url: string,
  body: unknown,
  headers: Record<string, string>,
  method = 'POST',
): Promise<Answer> {
  return call(url, {
    method,
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/** A service speaking a dialect on a manual clock: 3 s tasks, queued for the first second. */
export async function startDialect(
  options: DemoServiceOptions,
): Promise<{ service: DemoService; clock: TestClock }> {
  const clock = new TestClock();
  const service = await startService({ now: clock.now, durationMs: 3000, ...options });
  return { service, clock };
}

/** Downloads an image URL and checks it is a real PNG of that size. */
export async function expectPng(url: string, width: number, height: number): Promise<void> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('image/png');
  const bytes = Buffer.from(await response.arrayBuffer());
  expect(bytes.subarray(0, 8)).toEqual(PNG_SIGNATURE);
  const meta = await sharp(bytes).metadata();
  expect([meta.format, meta.width, meta.height]).toEqual(['png', width, height]);
}

/** An image URL once its lifetime has passed: the storage bucket's 403. */
export async function expectExpired(url: string): Promise<void> {
  const response = await fetch(url);
  expect(response.status).toBe(403);
  expect(await response.text()).toContain('<Code>AccessDenied</Code>');
}

/**
 * Every logged request carried the key only in the dialect's header, exactly as sent, and no
 * other header held it.
 */
export function expectKeyOnlyIn(
  service: DemoService,
  header: string,
  value: string,
  key: string,
): void {
  const keyed = service.log.requests.filter((entry) => entry.route !== 'image');
  expect(keyed.length).toBeGreaterThan(0);
  for (const entry of keyed) {
    expect(entry.auth).toEqual({ header, value });
    const elsewhere = Object.entries(entry.headers).filter(
      ([name, text]) => name !== header && text.includes(key),
    );
    expect(elsewhere).toEqual([]);
  }
}

/** An origin nothing listens on, for the hostile `foreignOrigin`. */
export const FOREIGN = 'http://127.0.0.2:9';
