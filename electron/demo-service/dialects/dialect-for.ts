import type { ServiceContext } from '../service-context';
import { DEMO_DIALECTS, type DemoDialect } from '../types';
import { bflDialect } from './bfl';
import { comfyuiDialect } from './comfyui';
import { dashscopeDialect } from './dashscope';
import type { Dialect } from './dialect';
import { DialectKit } from './dialect';
import { falDialect } from './fal';
import { replicateDialect } from './replicate';

/** Each dialect's translation of the spec's interface; null: the spec's own (service-routes.ts). */
const FACTORIES: Record<DemoDialect, ((kit: DialectKit) => Dialect) | null> = {
  pictor: null,
  fal: falDialect,
  replicate: replicateDialect,
  dashscope: dashscopeDialect,
  bfl: bflDialect,
  comfyui: comfyuiDialect,
};

/** The dialect a service speaks, or null for the spec's own interface (service-routes.ts). */
export function dialectFor(name: DemoDialect, ctx: ServiceContext): Dialect | null {
  return FACTORIES[name]?.(new DialectKit(ctx)) ?? null;
}

/** The dialects that translate the spec's interface into a service's public API. */
export function translatedDialects(): DemoDialect[] {
  return DEMO_DIALECTS.filter((name) => FACTORIES[name] !== null);
}
