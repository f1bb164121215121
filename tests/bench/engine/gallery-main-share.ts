/**
 * Main's own part of the gallery's thumbnails, beside the page's figure: each request the app's
 * gallery protocol answers, from the handler called to its response given (the tracing channel
 * gallery-request.ts traces on), and main's thread CPU while at least one was being answered.
 * The harness's main runs in the bench's process, so the channel is heard here. A reader can
 * then tell the app's cost per thumbnail from the time the page waited on the machine.
 */
import { tracingChannel } from 'node:diagnostics_channel';
import { performance } from 'node:perf_hooks';
import { GALLERY_REQUEST_TRACE } from '../../../electron/app/protocol/gallery-request';

/** What main did for the thumbnails of one measurement. */
export interface MainShare {
  /** Requests answered. */
  readonly requests: number;
  /** Handler called → response given, per request, ms (sorted). */
  readonly handlerMs: readonly number[];
  /** Main's thread CPU while any request was being answered, ms. */
  readonly cpuMs: number;
  /** First request in → last response out, ms. */
  readonly spanMs: number;
}

interface Open {
  readonly url: string;
}

function cpuMsNow(): number {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
}

/** Listens from `start()` to `stop()`; `stop` answers what was heard. */
export function listenMainShare(): { stop(): MainShare } {
  const channel = tracingChannel<object, Open>(GALLERY_REQUEST_TRACE);
  const began = new WeakMap<Open, number>();
  const handlerMs: number[] = [];
  let inFlight = 0;
  let cpuSince = 0;
  let cpuMs = 0;
  let first = Infinity;
  let last = 0;
  const done = (context: Open) => {
    const at = began.get(context);
    if (at === undefined) return;
    began.delete(context);
    const now = performance.now();
    handlerMs.push(now - at);
    last = Math.max(last, now);
    inFlight -= 1;
    if (inFlight === 0) cpuMs += cpuMsNow() - cpuSince;
  };
  const handlers = {
    start: (context: Open) => {
      const now = performance.now();
      began.set(context, now);
      first = Math.min(first, now);
      if (inFlight === 0) cpuSince = cpuMsNow();
      inFlight += 1;
    },
    end: () => undefined,
    asyncStart: () => undefined,
    asyncEnd: done,
    error: () => undefined,
  };
  channel.subscribe(handlers);
  return {
    stop() {
      channel.unsubscribe(handlers);
      if (inFlight > 0) cpuMs += cpuMsNow() - cpuSince;
      return {
        requests: handlerMs.length,
        handlerMs: handlerMs.sort((a, b) => a - b),
        cpuMs,
        spanMs: handlerMs.length === 0 ? 0 : last - first,
      };
    },
  };
}

/** One line for the note: per thumbnail, the handler's p50 and max, and CPU. */
export function describeMainShare(share: MainShare): string {
  const { requests, handlerMs } = share;
  if (requests === 0) return 'main answered no thumbnail';
  const p50 = handlerMs[handlerMs.length >> 1] ?? 0;
  const max = handlerMs.at(-1) ?? 0;
  return `main: ${requests} answered over ${share.spanMs.toFixed(0)} ms, handler in → response out p50 ${p50.toFixed(1)} max ${max.toFixed(1)} ms, main's thread CPU ${(share.cpuMs / requests).toFixed(2)} ms a thumbnail`;
}
