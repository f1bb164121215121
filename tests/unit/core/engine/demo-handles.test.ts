/**
 * A demo task's stored addresses (fal's status_url, …) name the port its demo had then; the
 * demo running now has another. They are moved onto it, and only they: a real service's
 * addresses, and a demo record's address off this computer, stay exactly as they were.
 */
import { describe, expect, it } from 'vitest';
import { handlesAt } from '../../../../electron/core/engine/demo-handles';

const NOW = 'http://127.0.0.1:40999';
const handles = {
  poll: 'http://127.0.0.1:40123/fal-ai/flux/requests/r1/status?logs=1',
  result: 'http://127.0.0.1:40123/fal-ai/flux/requests/r1',
};

describe('a demo task’s stored addresses', () => {
  it('move onto the demo running now, path and query kept', () => {
    expect(handlesAt({ endpoint: 'demo:fal', handles }, NOW)).toEqual({
      poll: `${NOW}/fal-ai/flux/requests/r1/status?logs=1`,
      result: `${NOW}/fal-ai/flux/requests/r1`,
    });
  });

  it('stay as they were on a real service, off this computer, or when there are none', () => {
    expect(handlesAt({ endpoint: 'https://queue.fal.run', handles }, NOW)).toBe(handles);
    const away = { poll: 'https://evil.example/x' };
    expect(handlesAt({ endpoint: 'demo:fal', handles: away }, NOW)).toEqual(away);
    expect(handlesAt({ endpoint: 'demo:fal', handles: undefined }, NOW)).toBeUndefined();
  });
});
