/**
 * A test double made from the IPC contract: it stands between the page and the real wiring
 * (tests/support/wired-api.ts) and, for every request and every event the contract lists, gives
 * the test a control built from the contract's keys, never written per channel:
 * - a request may be delayed, failed with a given error (main never sees it), or held until the
 *   test releases it (then it reaches main);
 * - an event may be injected: parsed with the contract's schema and copied, as main's emitter
 *   and Electron's IPC do, and delivered to the page's listeners as main's own events are.
 * A channel added to the contract has its control here with no edit to this file.
 */
import type { z } from 'zod';
import type { IpcError, Result } from '../../shared/ipc/contract';

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

/** What a test can do to one request channel. */
export interface RequestControl {
  /** Each later request waits `ms` before it reaches main. */
  delay(ms: number): void;
  /** The next `times` requests (default every one) answer this error and never reach main. */
  fail(error: IpcError, times?: number): void;
  /**
   * Holds the next `count` requests (default every later one) until {@link Held.release}; the
   * ones after them go straight on, so a later request can answer before a held one.
   */
  hold(count?: number): HeldRequests;
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
  readonly request: { readonly [K in keyof C['requests']]: RequestControl };
  readonly event: { readonly [K in keyof C['events']]: EventControl<z.input<C['events'][K]>> };
}

interface Plan {
  delayMs: number;
  failures: Array<IpcError> | null;
  failAlways: IpcError | null;
  gate: Gate | null;
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

const plainPlan = (): Plan => ({ delayMs: 0, failures: null, failAlways: null, gate: null });

function controlFor(plan: Plan, inputs: unknown[]): RequestControl {
  return {
    inputs,
    delay: (ms) => void (plan.delayMs = ms),
    fail(error, times) {
      if (times === undefined) plan.failAlways = error;
      else plan.failures = [...(plan.failures ?? []), ...Array<IpcError>(times).fill(error)];
    },
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

/** The fault planned for the next request, if any (a counted failure is used up). */
function nextFailure(plan: Plan): IpcError | null {
  const counted = plan.failures?.shift();
  return counted ?? plan.failAlways;
}

async function runPlanned(
  plan: Plan,
  forward: () => Promise<Result<unknown>>,
): Promise<Result<unknown>> {
  const gate = plan.gate;
  if (!gate || gate.left <= 0) return runUnheld(plan, forward);
  gate.left -= 1;
  const index = gate.arrived.length;
  const refused = await waitAtGate(gate, index);
  const answer: Result<unknown> = refused
    ? { ok: false, error: structuredClone(refused) }
    : await runUnheld(plan, forward);
  answeredAt(gate, index).resolve();
  return answer;
}

/** A request past any hold: its delay, its planned failure, else main's answer. */
async function runUnheld(
  plan: Plan,
  forward: () => Promise<Result<unknown>>,
): Promise<Result<unknown>> {
  if (plan.delayMs > 0) await new Promise((done) => setTimeout(done, plan.delayMs));
  const failure = nextFailure(plan);
  if (failure) return { ok: false, error: structuredClone(failure) };
  return forward();
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
  for (const channel of Object.keys(contract.requests)) {
    const plan = plainPlan();
    const made: unknown[] = [];
    plans.set(channel, plan);
    inputs.set(channel, made);
    request[channel] = controlFor(plan, made);
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
      return runPlanned(plan, () => inner.invoke(channel, input));
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
