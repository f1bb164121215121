/**
 * What the user's own service is called, the rule's one home: the typed name, else the host of
 * its address as people read it, else nothing (the window then says the catalogue's name).
 */
import { describe, expect, it } from 'vitest';
import { labelsOf } from '../../../../electron/core/fan-out/fan-out-targets';
import { PROVIDERS } from '../../../../shared/domain/providers';
import { addressHost, ownServiceName, serviceAt } from '../../../../shared/domain/service-name';
import {
  DEMO_ENDPOINT,
  DEMO_SERVICE_LABEL,
  targetLabel,
} from '../../../../shared/domain/submit-target';
import { decodePunycode } from '../../../../shared/text/punycode';
import { ownAddress } from '../../../support/own-address';

describe('the host an address is named by', () => {
  it.each([
    ['https://images.example.com/v1', 'images.example.com'],
    ['  https://Images.Example.com  ', 'images.example.com'],
    ['https://gpu.local:8443', 'gpu.local:8443'],
    ['http://127.0.0.1:80', '127.0.0.1'],
    ['http://[::1]:8080/', '[::1]:8080'],
    ['https://[2001:db8::7]', '[2001:db8::7]'],
    ['https://xn--bcher-kva.example', 'bücher.example'],
    ['https://münchen.example:8443', 'münchen.example:8443'],
    ['https://xn--mgbh0fb.xn--kgbechtv', 'مثال.إختبار'],
    ['https://xn--fsqu00a.xn--0zwm56d', '例子.测试'],
  ])('%s is %s', (address, host) => {
    expect(addressHost(address)).toBe(host);
  });

  it('is nothing for what is not an http(s) address', () => {
    for (const address of ['', 'images.example.com', 'ftp://files.example', 'not a url'])
      expect(addressHost(address)).toBe('');
  });

  it('keeps a label that is not valid Punycode as it came', () => {
    expect(decodePunycode('99999999999999')).toBeNull();
    expect(decodePunycode('a'.repeat(64))).toBeNull();
    expect(decodePunycode('bcher-kva')).toBe('bücher');
  });
});

describe('the name of the user’s own service', () => {
  it('is the typed name, else the host, else nothing', () => {
    const baseUrl = 'https://images.example.com';
    expect(ownServiceName({ serviceName: 'Studio GPU', ...ownAddress(baseUrl) })).toBe(
      'Studio GPU',
    );
    expect(ownServiceName({ serviceName: '  \u202E ', ...ownAddress(baseUrl) })).toBe(
      'images.example.com',
    );
    expect(ownServiceName({ serviceName: '', ...ownAddress(baseUrl) })).toBe('images.example.com');
    expect(ownServiceName({ serviceName: '', ...ownAddress('') })).toBe('');
  });
});

describe('a service named where main knows only its address (a task’s target, a compare cell)', () => {
  it('names the user’s own service by its host and every other by its provider', () => {
    expect(serviceAt('pictor', 'https://gpu.example:8443/v1')).toBe('gpu.example:8443');
    expect(serviceAt('fal', 'https://queue.fal.run')).toBe('fal.ai');
    // No host to name it by: the provider's name, the one case left for the generic one.
    expect(serviceAt('pictor', '')).toBe(PROVIDERS.pictor.label);
  });

  it('reaches the sentences of template runs and the labels of a compare', () => {
    expect(targetLabel({ provider: 'pictor', endpoint: 'https://images.example.com' })).toBe(
      'images.example.com',
    );
    expect(targetLabel({ provider: 'pictor', endpoint: DEMO_ENDPOINT })).toBe(DEMO_SERVICE_LABEL);
    expect(
      labelsOf([
        { provider: 'pictor', baseUrl: 'https://images.example.com', model: 'm1' },
        { provider: 'fal', model: 'fal-ai/flux/dev' },
      ]).map((name) => name.label),
    ).toEqual(['images.example.com · m1', 'fal.ai · fal-ai/flux/dev']);
  });
});
