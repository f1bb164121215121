import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService, DemoServiceOptions } from '../../../electron/demo-service/types';
import { afterEachTest } from '../../support/after-each-test';
import { UNTIL } from '../../support/waits';

/** A clock the test moves by hand, for task progress and URL lifetimes. */
export class TestClock {
  constructor(public current = Date.UTC(2026, 0, 15, 12, 0, 0)) {}
  now = (): number => this.current;
  advance(ms: number): void {
    this.current += ms;
  }
}

const running: DemoService[] = [];

/** Starts a service that is closed after the current test. */
export async function startService(options: DemoServiceOptions = {}): Promise<DemoService> {
  const service = await startDemoService(options);
  running.push(service);
  return service;
}

afterEachTest(async () => {
  await Promise.all(running.splice(0).map((service) => service.close()));
});

export function auth(key: string): Record<string, string> {
  return { Authorization: `Bearer ${key}` };
}

/** POST /v1/images/generations with a JSON body (or a raw string). */
export function submit(
  service: DemoService,
  body: unknown,
  key = 'demo',
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${service.url}/v1/images/generations`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...auth(key), ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** GET /v1/tasks/<id>. */
export function poll(service: DemoService, id: string, key = 'demo'): Promise<Response> {
  return fetch(`${service.url}/v1/tasks/${id}`, { headers: auth(key) });
}

/** Submits and returns the new task id (asserting a 200). */
export async function submitOk(service: DemoService, body: unknown, key = 'demo'): Promise<string> {
  const response = await submit(service, body, key);
  if (response.status !== 200)
    throw new Error(`submit answered ${response.status}: ${await response.text()}`);
  const json = (await response.json()) as { id: string };
  return json.id;
}

/** A task body as the service sends it. */
export interface TaskJson {
  id: string;
  object: string;
  status: string;
  created_at: number;
  model: string;
  prompt?: string;
  progress?: number;
  output?: { data: { url: string; width: number; height: number }[] };
  error?: unknown;
}

export async function pollJson(service: DemoService, id: string, key = 'demo'): Promise<TaskJson> {
  const response = await poll(service, id, key);
  if (response.status !== 200)
    throw new Error(`poll answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as TaskJson;
}

/** Polls with the real clock until the task leaves `processing` (short durations only). */
export async function pollUntilDone(
  service: DemoService,
  id: string,
  key = 'demo',
  limitMs = UNTIL.timeout,
): Promise<TaskJson> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const task = await pollJson(service, id, key);
    if (task.status !== 'processing') return task;
    if (Date.now() > deadline) throw new Error(`task ${id} still processing after ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The error object of a refusal, asserting its shape. */
export async function errorOf(
  response: Response,
): Promise<{ code: string; message: string; param?: string }> {
  const body = (await response.json()) as { error?: { code?: unknown; message?: unknown } };
  if (typeof body.error?.code !== 'string' || typeof body.error.message !== 'string') {
    throw new Error(`not an error body: ${JSON.stringify(body)}`);
  }
  return body.error as { code: string; message: string };
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
