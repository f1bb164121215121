/**
 * The soak's fault mix: every kind of fault, on the submit, poll and image routes, each with
 * a seeded probability, and how each logged request is told apart afterwards.
 */
import type {
  DemoRoute,
  FaultEffect,
  FaultRule,
  RequestLogEntry,
} from '../../../electron/demo-service/types';

/** One kind of fault, as named in the reliability row. */
interface FaultKind {
  readonly name: string;
  readonly effect: FaultEffect;
  /** Chance per matching request (rules are tried in order, so later ones see a little less). */
  readonly probability: number;
  readonly routes: readonly DemoRoute[];
}

/** The rules for a run; `slowMs` must exceed the client's request timeout. */
export function faultKinds(slowMs: number): FaultKind[] {
  const all: DemoRoute[] = ['submit', 'poll', 'image'];
  const status = (code: number, extra: Partial<Extract<FaultEffect, { type: 'status' }>> = {}) =>
    ({ type: 'status', status: code, ...extra }) as const;
  return [
    { name: '429 no Retry-After', effect: status(429), probability: 0.02, routes: all },
    {
      name: '429 Retry-After seconds',
      effect: status(429, { retryAfter: 1 }),
      probability: 0.02,
      routes: all,
    },
    {
      name: '429 Retry-After HTTP-date',
      effect: status(429, { retryAfter: 'http-date' }),
      probability: 0.015,
      routes: all,
    },
    { name: '500 HTML', effect: status(500, { body: 'html' }), probability: 0.015, routes: all },
    { name: '502 HTML', effect: status(502, { body: 'html' }), probability: 0.015, routes: all },
    { name: '503 HTML', effect: status(503, { body: 'html' }), probability: 0.015, routes: all },
    { name: 'connection reset', effect: { type: 'reset' }, probability: 0.02, routes: all },
    {
      name: 'reset after accepting',
      effect: { type: 'reset-after-accepting' },
      probability: 0.03,
      routes: ['submit'],
    },
    { name: 'body cut mid-way', effect: { type: 'truncate' }, probability: 0.02, routes: all },
    {
      name: 'slower than the request timeout',
      effect: { type: 'delay', ms: slowMs },
      probability: 0.01,
      routes: all,
    },
  ];
}

/** The demo service's rules for the kinds. */
export function faultRules(kinds: readonly FaultKind[]): FaultRule[] {
  return kinds.flatMap((kind) =>
    kind.routes.map((route) => ({ route, effect: kind.effect, probability: kind.probability })),
  );
}

/**
 * The kind of a logged request the fault book hit. The service logs no reply headers, so the
 * three 429 forms are one kind here; the app's fetch tells them apart (see retryAfterForm).
 */
export function kindOf(entry: RequestLogEntry): string | null {
  switch (entry.fault) {
    case undefined:
      return null;
    case 'status':
      return entry.status === 429 ? '429' : `${entry.status} HTML`;
    case 'reset':
      return 'connection reset';
    case 'reset-after-accepting':
      return 'reset after accepting';
    case 'truncate':
      return 'body cut mid-way';
    case 'delay':
      return 'slower than the request timeout';
    default:
      return entry.fault;
  }
}

/** The kind name of a 429 the app received, by its Retry-After header. */
export function retryAfterForm(value: string | null): string {
  if (value === null) return '429 no Retry-After';
  return /^\d+$/.test(value.trim()) ? '429 Retry-After seconds' : '429 Retry-After HTTP-date';
}
