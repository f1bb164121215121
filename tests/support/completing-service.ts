/**
 * An image-task service on loopback whose every task is completed with one small real PNG at
 * `/img/<task id>.png`, counting what it is asked: the tests that need a task polled and its image
 * saved through the real core, and what the service saw of it. A submit
 * (`POST /v1/images/generations`) is answered with `submitId` when one is set.
 */
import sharp from 'sharp';
import { sendJson, startServer } from './http-servers';

export interface CompletingService {
  readonly origin: string;
  /** The task ids polled, in order. */
  readonly polls: string[];
  /** The image paths fetched, in order. */
  readonly images: string[];
  /** Submits answered. */
  submits: number;
  /** While false, a poll is answered `running`. */
  done: boolean;
  /** The id a submit is answered with; null: a submit is not found (404). */
  submitId: string | null;
  /** Forgets what was asked, and answers as at the start. */
  reset(): void;
  close(): Promise<void>;
}

/** Starts the service; `background` colours its PNG (8 × 8). */
export async function startCompletingService(background: string): Promise<CompletingService> {
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background } })
    .png()
    .toBuffer();
  const service = {
    origin: '',
    polls: [] as string[],
    images: [] as string[],
    submits: 0,
    done: true,
    submitId: null as string | null,
    reset() {
      service.polls.length = 0;
      service.images.length = 0;
      service.submits = 0;
      service.done = true;
    },
    close: (): Promise<void> => Promise.resolve(),
  };
  const server = await startServer((req, res) => {
    if (req.url === '/v1/images/generations' && service.submitId !== null) {
      service.submits += 1;
      return sendJson(res, 200, { id: service.submitId });
    }
    const task = /^\/v1\/tasks\/([^/?]+)/.exec(req.url ?? '');
    if (task?.[1]) {
      service.polls.push(task[1]);
      if (!service.done) return sendJson(res, 200, { status: 'running' });
      return sendJson(res, 200, {
        status: 'completed',
        output: { data: [{ url: `${service.origin}/img/${task[1]}.png` }] },
      });
    }
    if (req.url?.startsWith('/img/')) {
      service.images.push(req.url);
      res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': png.length });
      return res.end(png);
    }
    res.writeHead(404).end();
  });
  service.origin = server.origin;
  service.close = () => server.close();
  return service;
}
