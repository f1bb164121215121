/**
 * The loopback-owner check (core/service/local-server-gate.ts) as on a host whose socket tables
 * cannot be read (macOS, Windows, no /proc): nothing refused, and no read of /proc before each
 * request. For the suites that drive a manual clock over real loopback HTTP and judge when each
 * request reached the service: the real read takes 20–50 ms of real time before a request goes
 * out, during which such a suite's clock runs on (its idle checks count requests out, not the
 * gate's read), so a poll reached the service later on its clock than the engine sent it. The
 * gate itself is judged over the real tables (tests/unit/core/service/local-owner.test.ts,
 * tests/hardening/hostile/local-server-*.test.ts). Every core a test opens on a clock of its own
 * names its gate (tests/unit/lint/manual-clock-gate.test.ts): this, or `{}` for the real read.
 */
import type { PictorCoreOptions } from '../../electron/core/pictor-core';

export const OWNERS_UNREAD: NonNullable<PictorCoreOptions['localServers']> = {
  tables: () => Promise.resolve({ tcp: null, tcp6: null }),
};
