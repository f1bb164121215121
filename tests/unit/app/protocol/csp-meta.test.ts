import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RENDERER_CSP_DIRECTIVES } from '../../../../electron/app/protocol/csp';
import { REPO_ROOT } from '../../../support/source-files';

describe('the CSP meta tag in renderer/index.html', () => {
  it('is the header policy, less frame-ancestors (which a meta tag cannot carry)', () => {
    const html = readFileSync(join(REPO_ROOT, 'renderer/index.html'), 'utf8');
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1];
    const expected = Object.entries(RENDERER_CSP_DIRECTIVES)
      .filter(([name]) => name !== 'frame-ancestors')
      .map(([name, sources]) => `${name} ${sources.join(' ')}`)
      .join('; ');
    expect(meta).toBe(expected);
  });
});
