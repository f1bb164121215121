import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RENDERER_CSP_DIRECTIVES } from '../../../../electron/app/protocol/csp';

describe('the CSP meta tag in renderer/index.html', () => {
  it('is the header policy, less frame-ancestors (which a meta tag cannot carry)', () => {
    const html = readFileSync(new URL('../../../../renderer/index.html', import.meta.url), 'utf8');
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1];
    const expected = Object.entries(RENDERER_CSP_DIRECTIVES)
      .filter(([name]) => name !== 'frame-ancestors')
      .map(([name, sources]) => `${name} ${sources.join(' ')}`)
      .join('; ');
    expect(meta).toBe(expected);
  });
});
