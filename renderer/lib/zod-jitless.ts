/**
 * zod compiles fast object parsers with `new Function` after probing whether eval is allowed. The
 * renderer's CSP (`script-src 'self'`) forbids it, so the probe itself logs a CSP violation. This
 * module is the entry's first import: no probe, no compiled parsers, no violation.
 */
import { z } from 'zod';

z.config({ jitless: true });
