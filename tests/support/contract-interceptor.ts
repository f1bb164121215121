/**
 * A test double made from the IPC contract: it stands between the page and the real wiring
 * (tests/support/wired-api.ts) and, for every request and every event the contract lists, gives
 * the test a control built from the contract's keys, never written per channel:
 * - a request may be delayed, failed with a given error (main never sees it), held until the
 *   test releases it (then it reaches main), or answered in main's place: with a given value, or
 *   by a test function run instead of main's handler; either answer goes through the channel's
 *   output schema, so a test cannot hand the page what main could never send;
 * - an event may be injected: parsed with the contract's schema and copied, as main's emitter
 *   and Electron's IPC do, and delivered to the page's listeners as main's own events are.
 * A channel added to the contract has its control here with no edit to this file.
 */
import type { z } from 'zod';
import { ipcErrorSchema, type IpcError, type Result } from '../../shared/ipc/contract';

/** A contract's shape: request schemas by channel, event schemas by channel. */
export interface ContractShape {
  readonly requests: Readonly<
    Record<string, { readonly input: z.ZodType; readonly output: z.ZodType }>
  >;
  readonly events: Readonly<Record<string, z.ZodType>>;
}

type Listener = (payload: unknown) => void;

/** The page's side of a bridge, as `window.pictor` has it (untyped by channel). */
export interface BridgeLike {
  invoke(channel: string, input?: unknown): Promise<Result<unknown>>;
  on(channel: string, listener: Listener): () => void;
}

/** Requests held back on one channel, waiting for the test. */
export interface Held {
  /** How many requests are waiting. */
  readonly waiting: number;
  /** Lets every waiting request go on to main, and stops holding new ones. */
  release(): void;
}

/**
 * Requests held on a request channel, each of which the test may settle on its own. Settling one
 * gives a promise of its answer's return: it resolves once main's answer (or the refusal) is handed
 * back to the page, so a test can see what the page did with a late answer it is meant to drop.
 */
export interface HeldRequests extends Held {
  /** Lets the `index`-th request held (0 = the first to arrive) go on to main, now or once it arrives. */
  pass(index: number): Promise<void>;
  /** Answers the `index`-th request held with `error`, now or once it arrives; main never sees it. */
  refuse(index: number, error: IpcError): Promise<void>;
}

/**
 * A test's function in place of main's handler: it gets the request's input parsed with the
 * channel's input schema (as main's handler does) and main's own answer on demand (`main()` runs
 * the real handler), and returns the value to answer. Throwing an {@link IpcError} refuses the
 * request with it, as a handler's thrown error is answered.
 */
type StandIn<I = unknown, O = unknown> = (
  input: I,
  main: () => Promise<Result<unknown>>,
) => O | Promise<O>;

/** What a test can do to one request channel (`I` its parsed input, `O` its answer's value). */
export interface RequestControl<I = unknown, O = unknown> {
  /** Each later request waits `ms` before it reaches main. */
  delay(ms: number): void;
  /** The next `times` requests (default every one) answer this error and never reach main. */
  fail(error: IpcError, times?: number): void;
  /**
   * Holds the next `count` requests (default every later one) until {@link Held.release}; the
   * ones after them go straight on, so a later request can answer before a held one.
   */
  hold(count?: number): HeldRequests;
  /**
   * The next `times` requests (default every one) answer `value` and never reach main. The value
   * is parsed with the channel's output schema now: one main could never send throws here.
   */
  reply(value: O, times?: number): void;
  /**
   * The next `times` requests (default every one) are answered by `standIn` instead of main's
   * handler. What it returns is parsed with the channel's output schema; a value main could never
   * send fails the test (thrown out of the interceptor) and the page is answered `failed`.
   */
  handle(standIn: StandIn<I, O>, times?: number): void;
  /** Back to plain: requests go straight to main. */
  clear(): void;
  /** The inputs of every request the page made on this channel, in order. */
  readonly inputs: unknown[];
}

/** What a test can do to one event channel. */
export interface EventControl<P> {
  /** Sends `payload` to the page's listeners (a bad payload throws, as main's emitter does). */
  inject(payload: P): void;
  /** Holds main's events on this channel (injected ones pass) until {@link Held.release}. */
  hold(): Held;
}

/** The interceptor: the page's bridge, and a control per channel of the contract. */
export interface Interceptor<C extends ContractShape> {
  readonly api: BridgeLike;
  readonly request: {
    readonly [K in keyof C['requests']]: RequestControl<
      z.output<C['requests'][K]['input']>,
      z.input<C['requests'][K]['output']>
    >;
  };
  readonly event: { readonly [K in keyof C['events']]: EventControl<z.input<C['events'][K]>> };
}

/** What answers a request in main's place: a fault, or a stand-in for main's handler. */
type Answerer = { readonly error: IpcError } | { readonly standIn: StandIn };

interface Plan {
  delayMs: number;
  /** Answerers for the next requests, one each, used up in order. */
  counted: Answerer[];
  /** What answers every request once the counted ones are used up. */
  always: Answerer | null;
  gate: Gate | null;
}

/** A channel's schemas, as the interceptor reads them. */
interface Schemas {
  readonly input: z.ZodType;
  readonly output: z.ZodType;
}

/** A held request's way on: to main (`null`) or answered with an error. */
type Settle = (error: IpcError | null) => void;

interface Gate {
  /** Every request held so far, in order; a settled one is `null`. */
  readonly arrived: Array<Settle | null>;
  /** How the test settled requests that have not arrived yet, by index. */
  readonly early: Map<number, IpcError | null>;
  /** Each held request's answer handed back to the page, by index. */
  readonly answered: Map<number, { promise: Promise<void>; resolve: () => void }>;
  left: number;
}

/** The promise of the `index`-th held request's answer reaching the page. */
function answeredAt(gate: Gate, index: number): { promise: Promise<void>; resolve: () => void } {
  let made = gate.answered.get(index);
  if (!made) {
    let resolve = (): void => undefined;
    const promise = new Promise<void>((done) => (resolve = done));
    made = { promise, resolve };
    gate.answered.set(index, made);
  }
  return made;
}

/** Settles the `index`-th held request, once: now, or as it arrives. */
function settleOne(gate: Gate, index: number, error: IpcError | null): Promise<void> {
  if (index >= gate.arrived.length) gate.early.set(index, error);
  else {
    const settle = gate.arrived[index];
    if (!settle) throw new Error(`The held request ${String(index)} was settled already.`);
    gate.arrived[index] = null;
    settle(error);
  }
  return answeredAt(gate, index).promise;
}

/** Waits until the test settles this request (or had settled it before it arrived). */
function waitAtGate(gate: Gate, index: number): Promise<IpcError | null> {
  const early = gate.early.get(index);
  if (early !== undefined) {
    gate.arrived.push(null);
    return Promise.resolve(early);
  }
  return new Promise((settle) => gate.arrived.push(settle));
}

const plainPlan = (): Plan => ({ delayMs: 0, counted: [], always: null, gate: null });

/** Plans `answerer` for the next `times` requests, or for every one. */
function planAnswer(plan: Plan, answerer: Answerer, times: number | undefined): void {
  if (times === undefined) plan.always = answerer;
  else plan.counted.push(...Array<Answerer>(times).fill(answerer));
}

function controlFor(plan: Plan, inputs: unknown[], schemas: Schemas): RequestControl {
  return {
    inputs,
    delay: (ms) => void (plan.delayMs = ms),
    fail: (error, times) => planAnswer(plan, { error }, times),
    reply(value, times) {
      const answer = schemas.output.parse(value) as unknown;
      planAnswer(plan, { standIn: () => structuredClone(answer) }, times);
    },
    handle: (standIn, times) => planAnswer(plan, { standIn }, times),
    hold(count = Number.POSITIVE_INFINITY) {
      const gate: Gate = { arrived: [], early: new Map(), answered: new Map(), left: count };
      plan.gate = gate;
      return {
        get waiting() {
          return gate.arrived.filter((settle) => settle !== null).length;
        },
        release() {
          if (plan.gate === gate) plan.gate = null;
          gate.arrived.forEach((settle, index) => settle && void settleOne(gate, index, null));
        },
        pass: (index) => settleOne(gate, index, null),
        refuse: (index, error) => settleOne(gate, index, error),
      };
    },
    clear: () => Object.assign(plan, plainPlan()),
  };
}

/** What answers the next request in main's place, if anything (a counted one is used up). */
function nextAnswerer(plan: Plan): Answerer | null {
  return plan.counted.shift() ?? plan.always;
}

/** A request on its way: the plan of its channel, its schemas, its input, and main. */
interface Way {
  readonly plan: Plan;
  readonly schemas: Schemas;
  readonly input: unknown;
  readonly forward: () => Promise<Result<unknown>>;
}

async function runPlanned(way: Way): Promise<Result<unknown>> {
  const { plan } = way;
  const gate = plan.gate;
  if (!gate || gate.left <= 0) return runUnheld(way);
  gate.left -= 1;
  const index = gate.arrived.length;
  const refused = await waitAtGate(gate, index);
  const answer: Result<unknown> = refused
    ? { ok: false, error: structuredClone(refused) }
    : await runUnheld(way);
  answeredAt(gate, index).resolve();
  return answer;
}

/** A request past any hold: its delay, then its planned answer, else main's. */
async function runUnheld(way: Way): Promise<Result<unknown>> {
  const { plan, forward } = way;
  if (plan.delayMs > 0) await new Promise((done) => setTimeout(done, plan.delayMs));
  const answerer = nextAnswerer(plan);
  if (!answerer) return forward();
  if ('error' in answerer) return { ok: false, error: structuredClone(answerer.error) };
  return standInAnswer(way, answerer.standIn);
}

/**
 * Runs a stand-in as runRequest runs a handler: the input parsed first (an input main refuses is
 * left to main to refuse), the value parsed with the output schema, a thrown IpcError answered.
 */
async function standInAnswer(way: Way, standIn: StandIn): Promise<Result<unknown>> {
  const parsed = way.schemas.input.safeParse(way.input);
  if (!parsed.success) return way.forward();
  let value: unknown;
  try {
    value = await standIn(parsed.data, way.forward);
  } catch (thrown) {
    const refusal = ipcErrorSchema().safeParse(thrown);
    if (refusal.success) return { ok: false, error: structuredClone(refusal.data) };
    throw thrown;
  }
  const checked = way.schemas.output.safeParse(value);
  if (checked.success) return { ok: true, value: structuredClone(checked.data as unknown) };
  // The test's own mistake: fail the test, and answer the page as main answers a broken handler.
  queueMicrotask(() => {
    throw new Error(`A stand-in answered what main could never send: ${checked.error.message}`);
  });
  return { ok: false, error: { code: 'failed', message: 'The stand-in broke the contract.' } };
}

/** Holds main's events on `channel` in order until released. */
function holdEvents(gates: Map<string, { waiters: Array<() => void> }>, channel: string): Held {
  const gate = { waiters: [] as Array<() => void> };
  gates.set(channel, gate);
  return {
    get waiting() {
      return gate.waiters.length;
    },
    release() {
      if (gates.get(channel) === gate) gates.delete(channel);
      for (const deliver of gate.waiters.splice(0)) deliver();
    },
  };
}

/** Builds the interceptor over `inner` for every channel of `contract`. */
export function interceptBridge<C extends ContractShape>(
  inner: BridgeLike,
  contract: C,
): Interceptor<C> {
  const plans = new Map<string, Plan>();
  const inputs = new Map<string, unknown[]>();
  const request: Record<string, RequestControl> = {};
  for (const [channel, schemas] of Object.entries(contract.requests)) {
    const plan = plainPlan();
    const made: unknown[] = [];
    plans.set(channel, plan);
    inputs.set(channel, made);
    request[channel] = controlFor(plan, made, schemas);
  }
  const listeners = new Map<string, Set<Listener>>();
  const event: Record<string, EventControl<unknown>> = {};
  const eventGates = new Map<string, { waiters: Array<() => void> }>();
  for (const [channel, schema] of Object.entries(contract.events)) {
    event[channel] = {
      hold: () => holdEvents(eventGates, channel),
      inject(payload) {
        const sent = structuredClone(schema.parse(payload) as unknown);
        queueMicrotask(() => {
          for (const listener of [...(listeners.get(channel) ?? [])])
            listener(structuredClone(sent));
        });
      },
    };
  }
  const api: BridgeLike = {
    invoke(channel, input) {
      const plan = plans.get(channel);
      if (!plan) return inner.invoke(channel, input);
      inputs.get(channel)?.push(structuredClone(input));
      const schemas = contract.requests[channel] as Schemas;
      return runPlanned({ plan, schemas, input, forward: () => inner.invoke(channel, input) });
    },
    on(channel, listener) {
      const off = inner.on(channel, (payload) => {
        const gate = eventGates.get(channel);
        if (gate) gate.waiters.push(() => listener(payload));
        else listener(payload);
      });
      const set = listeners.get(channel) ?? new Set<Listener>();
      listeners.set(channel, set);
      set.add(listener);
      return () => {
        off();
        set.delete(listener);
      };
    },
  };
  return { api, request, event } as unknown as Interceptor<C>;
}
