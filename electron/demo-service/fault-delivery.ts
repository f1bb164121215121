import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Reply } from './http-reply';
import { errorReply, writeReply } from './http-reply';
import { bodyFaultReply, statusFaultReply } from './faults';
import type { FaultEffect } from './types';

/** One request on its way out: where to write, how to wait, where to note the status. */
export interface Delivery {
  req: IncomingMessage;
  res: ServerResponse;
  /** Produces the normal answer (doing the work behind it, such as creating a task). */
  produce: () => Promise<Reply>;
  /** Waits `ms`; resolves false if the service closed meanwhile. */
  wait: (ms: number) => Promise<boolean>;
  /** The service's clock, for a `Retry-After` date; default `Date.now`. */
  now?: (() => number) | undefined;
  /** Records the status sent (null: nothing was sent). */
  setStatus: (status: number | null) => void;
  /** Paces an image body chunk by chunk (DemoServiceOptions.imagePacing). */
  pace?: ((bytes: number) => Promise<void>) | undefined;
}

const PACED_CHUNK = 16 * 1024;

/** Writes an image body in chunks, each when the pacing lets it through. */
async function sendPaced(
  delivery: Delivery,
  reply: Reply,
  pace: (bytes: number) => Promise<void>,
): Promise<void> {
  const { res } = delivery;
  if (res.destroyed) return delivery.setStatus(null);
  res.writeHead(reply.status, { ...reply.headers, 'Content-Length': String(reply.body.length) });
  delivery.setStatus(reply.status);
  for (let at = 0; at < reply.body.length; at += PACED_CHUNK) {
    const chunk = reply.body.subarray(at, at + PACED_CHUNK);
    await pace(chunk.length);
    if (res.destroyed) return;
    res.write(chunk);
  }
  res.end();
}

function isImage(reply: Reply): boolean {
  return Object.entries(reply.headers).some(
    ([name, value]) => name.toLowerCase() === 'content-type' && String(value).startsWith('image/'),
  );
}

async function produceSafely(produce: () => Promise<Reply>): Promise<Reply> {
  try {
    return await produce();
  } catch {
    return errorReply(
      500,
      'internal_error',
      'The server had an error while processing your request. Try again later.',
    );
  }
}

function send(delivery: Delivery, reply: Reply): void {
  const sent = writeReply(delivery.res, reply, delivery.req.method ?? 'GET');
  delivery.setStatus(sent ? reply.status : null);
}

function destroy(delivery: Delivery): void {
  delivery.req.socket.destroy();
  delivery.setStatus(null);
}

/** Sends the status and headers with the full Content-Length, then half the body, then drops the socket. */
function sendTruncated(delivery: Delivery, reply: Reply): void {
  const { res, req } = delivery;
  if (res.destroyed || req.socket.destroyed) return delivery.setStatus(null);
  res.writeHead(reply.status, { ...reply.headers, 'Content-Length': String(reply.body.length) });
  res.flushHeaders();
  const half = reply.body.subarray(0, Math.floor(reply.body.length / 2));
  delivery.setStatus(reply.status);
  if (half.length === 0) return void req.socket.destroy();
  res.write(half, () => req.socket.destroy());
}

/** Answers the request normally, or as the fault effect says. */
export async function deliver(delivery: Delivery, effect: FaultEffect | undefined): Promise<void> {
  switch (effect?.type) {
    case undefined: {
      const reply = await produceSafely(delivery.produce);
      if (delivery.pace && isImage(reply) && delivery.req.method !== 'HEAD') {
        return sendPaced(delivery, reply, delivery.pace);
      }
      return send(delivery, reply);
    }
    case 'status':
      return send(delivery, statusFaultReply(effect, delivery.now));
    case 'body':
      return send(delivery, bodyFaultReply(effect));
    case 'reset':
      return destroy(delivery);
    case 'reset-after-accepting':
      await produceSafely(delivery.produce);
      return destroy(delivery);
    case 'truncate':
      return sendTruncated(delivery, await produceSafely(delivery.produce));
    case 'delay':
      if (await delivery.wait(effect.ms)) send(delivery, await produceSafely(delivery.produce));
      return;
    case 'hang':
      // Nothing is sent; close() destroys the socket.
      return delivery.setStatus(null);
  }
}
