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
  hold(count?: number): Held;
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
  gate: { waiters: Array<() => void>; left: number } | null;
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
      const gate = { waiters: [] as Array<() => void>, left: count };
      plan.gate = gate;
      return {
        get waiting() {
          return gate.waiters.length;
        },
        release() {
          if (plan.gate === gate) plan.gate = null;
          for (const go of gate.waiters.splice(0)) go();
        },
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
  if (gate && gate.left > 0) {
    gate.left -= 1;
    await new Promise<void>((go) => gate.waiters.push(go));
  }
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
