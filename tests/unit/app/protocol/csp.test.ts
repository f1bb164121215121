import { describe, expect, it } from 'vitest';
import {
  RENDERER_CSP,
  RENDERER_CSP_DIRECTIVES,
  imageRendererCsp,
} from '../../../../electron/app/protocol/csp';
import { GALLERY_SCHEME } from '../../../../shared/ipc/api';

describe('RENDERER_CSP', () => {
  it('is the documented policy, word for word', () => {
    expect(RENDERER_CSP).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
        "img-src 'self' pictor-gallery: data:; font-src 'self'; connect-src 'self'; " +
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'; object-src 'none'",
    );
  });

  it('lets images come from the gallery scheme the page uses', () => {
    expect(RENDERER_CSP_DIRECTIVES['img-src']).toContain(`${GALLERY_SCHEME}:`);
  });

  it('never allows inline or evaluated script, or other origins for scripts', () => {
    expect(RENDERER_CSP_DIRECTIVES['script-src']).toEqual(["'self'"]);
    expect(RENDERER_CSP).not.toMatch(/unsafe-eval|\*|https?:/);
  });
});

describe('imageRendererCsp', () => {
  const policy = imageRendererCsp('pictor-image:');
  const directive = (name: string) =>
    policy
      .split('; ')
      .find((part) => part.startsWith(`${name} `))
      ?.split(' ')
      .slice(1);

  it('lets the page compile WebAssembly (its Content Credentials module), and evaluate nothing', () => {
    expect(directive('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(policy.replaceAll("'wasm-unsafe-eval'", '')).not.toMatch(/unsafe|\*|https?:/);
  });

  it('lets the page fetch its own files and its jobs’ bytes, nothing else', () => {
    expect(directive('connect-src')).toEqual(["'self'", 'pictor-image:']);
    expect(directive('default-src')).toEqual(["'none'"]);
  });

  it('leaves the app window’s policy without WebAssembly', () => {
    expect(RENDERER_CSP).not.toMatch(/wasm/);
  });
});
