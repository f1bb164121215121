/**
 * zod must never probe `new Function` in the page (the CSP forbids eval, and the probe logs a
 * violation): the entry's very first import turns its JIT off, before any schema is parsed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';

describe('zod in the renderer', () => {
  it('is the entry’s first import', () => {
    const entry = readFileSync(join(process.cwd(), 'renderer', 'main.tsx'), 'utf8');
    const imports = entry.split('\n').filter((line) => line.startsWith('import '));
    expect(imports[0]).toBe("import './lib/zod-jitless';");
  });

  it('parses objects without ever constructing a Function', async () => {
    await import('../../../renderer/lib/zod-jitless');
    expect(z.config().jitless).toBe(true);
    const spy = vi.spyOn(globalThis, 'Function');
    const schema = z.object({ a: z.string(), b: z.number(), c: z.object({ d: z.boolean() }) });
    expect(schema.parse({ a: 'x', b: 1, c: { d: true } })).toEqual({
      a: 'x',
      b: 1,
      c: { d: true },
    });
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
  });
});
