/**
 * Short builders of the shipped option schemas (model-param-schemas*.ts), so each model reads as
 * the list its service documents.
 */
import type { CommonParam, ParamSpec } from './model-params';

type Extra = { readonly common?: CommonParam; readonly title?: string };

export function choice(
  values: readonly (string | number)[],
  fallback?: string | number,
  extra: Extra = {},
): ParamSpec {
  return {
    type: 'enum',
    values,
    ...(fallback === undefined ? {} : { default: fallback }),
    ...extra,
  };
}

export function whole(min: number, max: number, fallback?: number, extra: Extra = {}): ParamSpec {
  return {
    type: 'integer',
    min,
    max,
    ...(fallback === undefined ? {} : { default: fallback }),
    ...extra,
  };
}

/** A number from `range[0]` to `range[1]` in steps of `range[2]`. */
export function decimal(
  range: readonly [number, number, number],
  fallback?: number,
  extra: Extra = {},
): ParamSpec {
  const [min, max, step] = range;
  return {
    type: 'number',
    min,
    max,
    step,
    ...(fallback === undefined ? {} : { default: fallback }),
    ...extra,
  };
}

export function toggle(fallback?: boolean, extra: Extra = {}): ParamSpec {
  return { type: 'boolean', ...(fallback === undefined ? {} : { default: fallback }), ...extra };
}

export function text(maxLength: number, extra: Extra = {}): ParamSpec {
  return { type: 'string', maxLength, ...extra };
}

/** A seed as the services take one: a whole number, drawn by the service when absent. */
export const SEED: ParamSpec = whole(0, 2_147_483_647, undefined, { common: 'seed' });
/** A negative prompt. */
export const NEGATIVE: ParamSpec = text(2_000, { common: 'negative' });

/** The ratios most services list, widest first. */
export const RATIOS = [
  '21:9',
  '16:9',
  '3:2',
  '4:3',
  '5:4',
  '1:1',
  '4:5',
  '3:4',
  '2:3',
  '9:16',
  '9:21',
];
