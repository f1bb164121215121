/**
 * The built-in demo's endpoints have one home (shared/domain/submit-target.ts): `demo:` for
 * today's contract, `demo:fal`, `demo:replicate`, … for the demo speaking a provider's dialect.
 * Every place that tells a demo task apart (its service's name, its label, what its images say
 * of their service, whether Pictor may contact it for an imported record) reads that home, so a
 * dialect's demo is the demo everywhere, and a look-alike (`demo:flux`) is not.
 */
import { describe, expect, it } from 'vitest';
import { PROVIDER_IDS } from '../../../shared/domain/providers';
import { serviceIdAtOrigin, serviceIdOf } from '../../../shared/domain/service-id';
import {
  DEMO_SERVICE_LABEL,
  demoEndpointOf,
  demoProviderOf,
  isDemoEndpoint,
  isUnknownDemoEndpoint,
  targetLabel,
} from '../../../shared/domain/submit-target';
import { serviceOriginOf } from '../../../electron/core/gallery/metadata/provenance';
import { isLocalEndpoint } from '../../../electron/core/service/key-binding';

const LOOKALIKES = ['demo:flux', 'demo:pictor', 'demo:FAL', 'demo: fal', 'demo:fal/x', 'demo::'];

describe('the built-in demo’s endpoints', () => {
  it('are demo: for today’s contract and demo:PROVIDER for every other dialect, each its own', () => {
    expect(PROVIDER_IDS.map(demoEndpointOf)).toEqual([
      'demo:',
      'demo:fal',
      'demo:replicate',
      'demo:dashscope',
      'demo:bfl',
      'demo:comfyui',
    ]);
    for (const provider of PROVIDER_IDS) {
      const endpoint = demoEndpointOf(provider);
      expect(demoProviderOf(endpoint)).toBe(provider);
      expect(isDemoEndpoint(endpoint)).toBe(true);
      expect(isUnknownDemoEndpoint(endpoint)).toBe(false);
      // Named as the demo wherever a service is named by id, by label, or in an image.
      expect(serviceIdOf({ provider, endpoint })).toBe('demo');
      expect(targetLabel({ provider, endpoint })).toBe(DEMO_SERVICE_LABEL);
      expect(serviceOriginOf(endpoint)).toBe(endpoint);
      expect(isLocalEndpoint(endpoint)).toBe(true);
    }
  });

  it('are not a look-alike, nor a provider’s address', () => {
    for (const endpoint of LOOKALIKES) {
      expect(isDemoEndpoint(endpoint), endpoint).toBe(false);
      expect(demoProviderOf(endpoint), endpoint).toBeNull();
      expect(isUnknownDemoEndpoint(endpoint), endpoint).toBe(true);
      expect(serviceOriginOf(endpoint), endpoint).toBeUndefined();
      expect(serviceIdOf({ provider: 'fal', endpoint })).toBe('fal');
    }
    expect(isDemoEndpoint('https://queue.fal.run')).toBe(false);
    expect(isUnknownDemoEndpoint('https://queue.fal.run')).toBe(false);
    expect(serviceIdOf({ provider: 'fal', endpoint: 'https://queue.fal.run' })).toBe('fal');
  });
});

describe('the service a file’s recorded origin names (pictor info)', () => {
  it('names the demo, a provider at its own address, and no provider at another', () => {
    // The origin a task's images record (provenance.ts), named as its task is (serviceIdOf).
    for (const provider of PROVIDER_IDS) {
      const origin = serviceOriginOf(demoEndpointOf(provider))!;
      expect(serviceIdAtOrigin(origin)).toBe(serviceIdOf({ provider, endpoint: origin }));
    }
    expect(serviceIdAtOrigin(serviceOriginOf('https://queue.fal.run/fal-ai/flux')!)).toBe('fal');
    expect(serviceIdAtOrigin('https://api.bfl.ai')).toBe('bfl');
    // An address of the user's own, or one posing as a provider's: the origin alone says none.
    expect(serviceIdAtOrigin('https://images.example.com')).toBeNull();
    expect(serviceIdAtOrigin('https://queue.fal.run.evil.example')).toBeNull();
    expect(serviceIdAtOrigin('http://queue.fal.run')).toBeNull();
    expect(serviceIdAtOrigin('unknown')).toBeNull();
  });
});
