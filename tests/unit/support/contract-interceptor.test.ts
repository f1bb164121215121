import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { events, requests } from '../../../shared/ipc/contract';
import { interceptBridge, type BridgeLike } from '../../support/contract-interceptor';
import { startInterceptedApi, type InterceptedApi } from '../../support/intercepted-api';
import { UNTIL } from '../../support/waits';
import { vi } from 'vitest';

let main: InterceptedApi | null = null;
afterEach(async () => {
  await main?.close();
  main = null;
});

describe('the contract interceptor over the real wiring', () => {
  it('fails a request with the given error, and main never sees it', async () => {
    main = await startInterceptedApi();
    const error = { code: 'failed', message: 'The service is down.' } as const;
    main.intercept.request['gallery:count'].fail(error, 1);
    expect(await main.api.invoke('gallery:count', {})).toEqual({ ok: false, error });
    expect(main.callsTo('gallery:count')).toHaveLength(0);
    // Used up: the next one is main's own answer.
    expect(await main.api.invoke('gallery:count', {})).toMatchObject({ ok: true });
    expect(main.callsTo('gallery:count')).toHaveLength(1);
  });

  it('holds a request until the test releases it, then main answers it', async () => {
    main = await startInterceptedApi();
    const held = main.intercept.request['app:getInfo'].hold();
    let answer: unknown = null;
    void main.api.invoke('app:getInfo').then((result) => (answer = result));
    await vi.waitFor(() => expect(held.waiting).toBe(1), UNTIL);
    expect(main.callsTo('app:getInfo')).toHaveLength(0);
    held.release();
    await vi.waitFor(
      () => expect(answer).toMatchObject({ ok: true, value: { demo: true } }),
      UNTIL,
    );
  });

  it('delays a request before it reaches main', async () => {
    main = await startInterceptedApi();
    main.intercept.request['app:getInfo'].delay(30);
    const started = performance.now();
    expect(await main.api.invoke('app:getInfo')).toMatchObject({ ok: true });
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
  });

  it("injects an event through the contract's schema, beside main's own", async () => {
    main = await startInterceptedApi();
    const seen: unknown[] = [];
    main.api.on('network:changed', (payload) => seen.push(payload));
    main.intercept.event['network:changed'].inject({ online: false });
    main.send('network:changed', { online: true });
    await vi.waitFor(() => expect(seen).toEqual([{ online: false }, { online: true }]), UNTIL);
    expect(() =>
      main?.intercept.event['network:changed'].inject({ online: 'no' } as never),
    ).toThrow();
  });
});

describe("answering in main's place", () => {
  it('replies with a given value, and main never sees the request', async () => {
    main = await startInterceptedApi();
    main.intercept.request['gallery:count'].reply(41, 1);
    expect(await main.api.invoke('gallery:count', {})).toEqual({ ok: true, value: 41 });
    expect(main.callsTo('gallery:count')).toHaveLength(0);
    // Used up: the next one is main's own answer (an empty gallery).
    expect(await main.api.invoke('gallery:count', {})).toEqual({ ok: true, value: 0 });
  });

  it("refuses a reply main could never send, by the channel's output schema", async () => {
    main = await startInterceptedApi();
    const count = main.intercept.request['gallery:count'];
    expect(() => count.reply(-1)).toThrow();
    expect(() => count.reply(2.5)).toThrow();
    expect(() => count.reply({ count: 3 } as never)).toThrow();
  });

  it("runs a test function in place of main's handler, with the parsed input and main's own answer", async () => {
    main = await startInterceptedApi();
    const seen: unknown[] = [];
    main.intercept.request['gallery:count'].handle(async (input, ofMain) => {
      seen.push(input);
      const real = await ofMain();
      if (!real.ok) throw real.error;
      return (real.value as number) + 7;
    });
    expect(await main.api.invoke('gallery:count', {})).toEqual({ ok: true, value: 7 });
    expect(seen).toEqual([{}]);
    // Main's handler ran once, through the stand-in.
    expect(main.callsTo('gallery:count')).toHaveLength(1);
  });

  it('answers an IpcError the stand-in throws as a refusal', async () => {
    main = await startInterceptedApi();
    const error = { code: 'not_found', message: 'Gone.' } as const;
    main.intercept.request['gallery:count'].handle(() => {
      throw error;
    }, 1);
    expect(await main.api.invoke('gallery:count', {})).toEqual({ ok: false, error });
    expect(await main.api.invoke('gallery:count', {})).toMatchObject({ ok: true });
  });
});

describe('a channel added to the contract', () => {
  // The interceptor is built from the contract's keys: a new channel has its controls with no
  // edit to the interceptor; only its schema (here) and its handler (the inner bridge) exist.
  const extended = {
    requests: {
      ...requests,
      'dummy:ping': { input: z.object({ n: z.number() }), output: z.object({ n: z.number() }) },
    },
    events: { ...events, 'dummy:pinged': z.object({ n: z.number() }) },
  };
  const listeners = new Set<(payload: unknown) => void>();
  const inner: BridgeLike = {
    invoke: (_channel, input) =>
      Promise.resolve({ ok: true, value: { n: (input as { n: number }).n + 1 } }),
    on: (_channel, listener) => (listeners.add(listener), () => void listeners.delete(listener)),
  };

  it('can be failed, held, delayed and its event injected', async () => {
    const intercept = interceptBridge(inner, extended);
    expect(await intercept.api.invoke('dummy:ping', { n: 1 })).toEqual({
      ok: true,
      value: { n: 2 },
    });
    intercept.request['dummy:ping'].fail({ code: 'forbidden', message: 'No.' }, 1);
    expect(await intercept.api.invoke('dummy:ping', { n: 1 })).toMatchObject({ ok: false });
    const held = intercept.request['dummy:ping'].hold();
    const later = intercept.api.invoke('dummy:ping', { n: 5 });
    await vi.waitFor(() => expect(held.waiting).toBe(1), UNTIL);
    held.release();
    expect(await later).toEqual({ ok: true, value: { n: 6 } });
    const seen: unknown[] = [];
    intercept.api.on('dummy:pinged', (payload) => seen.push(payload));
    intercept.event['dummy:pinged'].inject({ n: 3 });
    await vi.waitFor(() => expect(seen).toEqual([{ n: 3 }]), UNTIL);
    expect(intercept.request['dummy:ping'].inputs).toEqual([{ n: 1 }, { n: 1 }, { n: 5 }]);
    intercept.request['dummy:ping'].reply({ n: 40 }, 1);
    expect(await intercept.api.invoke('dummy:ping', { n: 1 })).toEqual({
      ok: true,
      value: { n: 40 },
    });
    expect(() => intercept.request['dummy:ping'].reply({ n: 'x' } as never)).toThrow();
    intercept.request['dummy:ping'].handle((input) => ({ n: input.n * 10 }), 1);
    expect(await intercept.api.invoke('dummy:ping', { n: 4 })).toEqual({
      ok: true,
      value: { n: 40 },
    });
  });

  it('holds only the next requests when told how many, and settles each held one on its own', async () => {
    const intercept = interceptBridge(inner, extended);
    const ping = intercept.request['dummy:ping'];
    const held = ping.hold(2);
    const answers: unknown[] = [];
    const first = intercept.api.invoke('dummy:ping', { n: 1 }).then((r) => answers.push(r));
    const second = intercept.api.invoke('dummy:ping', { n: 2 }).then((r) => answers.push(r));
    // The third is past the count: it answers while the first two wait.
    await intercept.api.invoke('dummy:ping', { n: 3 }).then((r) => answers.push(r));
    expect(held.waiting).toBe(2);
    held.refuse(1, { code: 'failed', message: 'No.' });
    await second;
    held.pass(0);
    await first;
    expect(answers).toEqual([
      { ok: true, value: { n: 4 } },
      { ok: false, error: { code: 'failed', message: 'No.' } },
      { ok: true, value: { n: 2 } },
    ]);
    // A request settled before it arrives goes its way as it comes.
    const again = ping.hold(1);
    void again.pass(0);
    expect(await intercept.api.invoke('dummy:ping', { n: 7 })).toEqual({
      ok: true,
      value: { n: 8 },
    });
  });

  it("tells the test when a held request's answer is handed back, not before main answers", async () => {
    let answerMain: (() => void) | null = null;
    // Main answers only when the test says, so letting the request go cannot settle the promise.
    const slow: BridgeLike = {
      ...inner,
      invoke: (channel, input) =>
        new Promise((resolve) => (answerMain = () => resolve(inner.invoke(channel, input)))),
    };
    const intercept = interceptBridge(slow, extended);
    const held = intercept.request['dummy:ping'].hold();
    const page = intercept.api.invoke('dummy:ping', { n: 1 });
    const refused = intercept.api.invoke('dummy:ping', { n: 2 });
    let handedBack = false;
    const passed = held.pass(0).then(() => (handedBack = true));
    await vi.waitFor(() => expect(answerMain).not.toBeNull(), UNTIL);
    await new Promise((turn) => setTimeout(turn, 0));
    expect(handedBack).toBe(false);
    answerMain!();
    await passed;
    expect(await page).toEqual({ ok: true, value: { n: 2 } });
    await held.refuse(1, { code: 'failed', message: 'No.' });
    expect(await refused).toMatchObject({ ok: false, error: { message: 'No.' } });
  });
});
