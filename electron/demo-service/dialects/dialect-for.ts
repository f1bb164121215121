import type { ServiceContext } from '../service-routes';
import type { DemoDialect } from '../types';
import { bflDialect } from './bfl';
import { dashscopeDialect } from './dashscope';
import type { Dialect } from './dialect';
import { DialectKit } from './dialect';
import { falDialect } from './fal';
import { replicateDialect } from './replicate';

const FACTORIES: Record<Exclude<DemoDialect, 'pictor'>, (kit: DialectKit) => Dialect> = {
  fal: falDialect,
  replicate: replicateDialect,
  dashscope: dashscopeDialect,
  bfl: bflDialect,
};

/** The dialect a service speaks, or null for the spec's own interface (service-routes.ts). */
export function dialectFor(name: DemoDialect, ctx: ServiceContext): Dialect | null {
  return name === 'pictor' ? null : FACTORIES[name](new DialectKit(ctx));
}
