import { describe, expect, it } from 'vitest';
import { imageHostRefusal } from '../../../../../electron/core/service/providers/media-hosts';

describe('a provider’s image hosts', () => {
  it('at its own address, takes images only from its media hosts or its API origin', () => {
    const fal = 'https://queue.fal.run';
    expect(imageHostRefusal('fal', 'https://v3.fal.media/files/a.png', fal)).toBeNull();
    expect(imageHostRefusal('fal', 'https://fal.media/files/a.png', fal)).toBeNull();
    expect(imageHostRefusal('fal', 'https://queue.fal.run/files/a.png', fal)).toBeNull();
    expect(imageHostRefusal('fal', 'https://evil.example/a.png', fal)).toMatchObject({
      key: 'error.service.imageHostNotService',
      params: { host: 'evil.example', service: 'fal.ai' },
    });
    // A name that only ends like a media host is another host.
    expect(imageHostRefusal('fal', 'https://notfal.media/a.png', fal)).not.toBeNull();
    expect(
      imageHostRefusal(
        'replicate',
        'https://replicate.delivery.evil.example/x',
        'https://api.replicate.com',
      ),
    ).not.toBeNull();
    expect(
      imageHostRefusal(
        'replicate',
        'https://pbxt.replicate.delivery/x.webp',
        'https://api.replicate.com',
      ),
    ).toBeNull();
  });

  it('at an address the user named, and on today’s contract, leaves the host to url-policy', () => {
    expect(
      imageHostRefusal('fal', 'https://cdn.example/a.png', 'https://proxy.example'),
    ).toBeNull();
    expect(
      imageHostRefusal('pictor', 'https://cdn.example/a.png', 'https://api.example'),
    ).toBeNull();
    expect(
      imageHostRefusal(undefined, 'https://cdn.example/a.png', 'https://api.example'),
    ).toBeNull();
  });
});
