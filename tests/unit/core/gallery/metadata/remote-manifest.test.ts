/**
 * A remote manifest store named in an image's XMP (`dcterms:provenance`): found by the namespace
 * the packet binds, in the attribute and the element form RDF allows, with an http(s) address;
 * and by the detection walk where each container keeps its XMP, so the file is never edited.
 */
import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { detectC2paInBytes } from '../../../../../electron/core/gallery/metadata/c2pa-detect';
import {
  MAX_XMP_PROBE_BYTES,
  remoteManifestAddress,
} from '../../../../../electron/core/gallery/metadata/remote-manifest';
import { c2paFixture, provenancePacket, withXmp } from '../../../../support/c2pa-hostile';
import { ENCODINGS, makeEncoded } from './meta-helpers';

const ADDRESS = 'https://cai-manifests.example.com/manifests/urn-uuid-5f37e182';

/** `count` random small letters: text that deflates to about six tenths of its length. */
const letters = (count: number) =>
  Buffer.from(Array.from({ length: count }, () => 0x61 + randomInt(26))).toString('latin1');

/**
 * {@link remoteManifestAddress} of `packet`, counting its looks: each search for the property's
 * name (`indexOf`) and the characters each look takes to read a value from (`slice`). The call is
 * synchronous, so nothing else runs while String's methods are wrapped.
 */
function countedLooks(packet: string) {
  const { indexOf, slice } = String.prototype;
  const seen = { searches: 0, sliced: 0 };
  String.prototype.indexOf = function (this: string, ...args: Parameters<typeof indexOf>) {
    seen.searches += 1;
    return Reflect.apply(indexOf, this, args) as number;
  };
  String.prototype.slice = function (this: string, ...args: Parameters<typeof slice>) {
    const part = Reflect.apply(slice, this, args) as string;
    seen.sliced += part.length;
    return part;
  };
  try {
    return { address: remoteManifestAddress(packet), ...seen };
  } finally {
    Object.assign(String.prototype, { indexOf, slice });
  }
}

describe('remoteManifestAddress', () => {
  it('reads dcterms:provenance as an attribute or an element, under any prefix bound to it', () => {
    expect(remoteManifestAddress(provenancePacket(ADDRESS))).toBe(ADDRESS);
    expect(remoteManifestAddress(provenancePacket(ADDRESS, 'dct'))).toBe(ADDRESS);
    const element =
      '<rdf:Description xmlns:terms="http://purl.org/dc/terms/">' +
      `<terms:provenance> ${ADDRESS} </terms:provenance></rdf:Description>`;
    expect(remoteManifestAddress(element)).toBe(ADDRESS);
  });

  it('does not take another namespace, a missing binding or a local address for one', () => {
    const elsewhere = provenancePacket(ADDRESS).replace('http://purl.org/dc/terms/', 'urn:other');
    expect(remoteManifestAddress(elsewhere)).toBeNull();
    expect(remoteManifestAddress(`<x dcterms:provenance="${ADDRESS}"/>`)).toBeNull();
    // An embedded store's own reference, and anything that is not an http(s) address.
    expect(remoteManifestAddress(provenancePacket('self#jumbf=/c2pa/urn:uuid:1'))).toBeNull();
    expect(remoteManifestAddress(provenancePacket('file:///etc/passwd'))).toBeNull();
  });
});

describe('a hostile packet', () => {
  it('is read with bounded looks: half-open properties, thousands of bindings, endless values', () => {
    const size = 256 * 1024;
    const bound = 'xmlns:d="http://purl.org/dc/terms/" ';
    const packets = [
      bound + '<d:provenance '.repeat(size / 15),
      bound + ' d:provenance="'.repeat(size / 16),
      Array.from({ length: size / 40 }, (_, i) => `xmlns:p${i}="http://purl.org/dc/terms/"`).join(
        ' ',
      ),
      `${bound}<d:provenance>https://${'a'.repeat(size)}`,
    ];
    // Work counted, not timed: a few prefixes, a few places each and a short reach from each
    // (4, 64 and 2 kB in remote-manifest.ts), whatever the packet's size. A look that read on to
    // the packet's end, or searched every place, costs the packet's length again per place.
    for (const packet of packets) {
      const { address, searches, sliced } = countedLooks(packet);
      expect(address).toBeNull();
      expect(searches).toBeLessThanOrEqual(4 * (64 + 1));
      expect(sliced).toBeLessThanOrEqual(4 * 64 * 2048);
    }
  });
});

describe('detecting a remote manifest store where the container keeps its XMP', () => {
  it.each([
    ['png', 0],
    ['jpeg', 1],
    ['webp', 3],
  ] as const)('in a %s', async (kind, encoding) => {
    const plain = await makeEncoded(ENCODINGS[encoding]!, 24, 16);
    const named = withXmp(kind, plain, provenancePacket(ADDRESS));
    await expect(detectC2paInBytes(named, kind)).resolves.toEqual({
      found: true,
      container: 'xmp-provenance',
      bytes: 0,
      parts: 0,
      labelled: false,
    });
    // The same XMP without the property: nothing is found.
    const other = withXmp(kind, plain, provenancePacket(ADDRESS).replace(':provenance', ':source'));
    await expect(detectC2paInBytes(other, kind)).resolves.toEqual({ found: false });
  });

  it('in a PNG whose XMP text is deflated', async () => {
    const plain = await makeEncoded(ENCODINGS[0]!, 24, 16);
    const named = withXmp('png', plain, provenancePacket(ADDRESS), true);
    await expect(detectC2paInBytes(named, 'png')).resolves.toMatchObject({
      found: true,
      container: 'xmp-provenance',
    });
  });

  // As much of a deflated packet is read as of a plain one (the first MAX_XMP_PROBE_BYTES): a
  // packet that inflates past it, or whose deflated text is longer than the bytes read of it,
  // was not read at all, so a large Adobe packet's property went unseen and the file was edited.
  it.each([
    ['inflates past the bytes looked at', () => 'x'.repeat(MAX_XMP_PROBE_BYTES * 2)],
    ['is deflated past the bytes read', () => letters(MAX_XMP_PROBE_BYTES * 3)],
  ])('in a PNG whose deflated XMP %s, the property first', async (_, padding) => {
    const plain = await makeEncoded(ENCODINGS[0]!, 24, 16);
    const packet = provenancePacket(ADDRESS).replace(
      '</rdf:RDF>',
      `<rdf:Description rdf:about="" xmlns:p="urn:pad"><p:pad>${padding()}</p:pad></rdf:Description></rdf:RDF>`,
    );
    for (const compressed of [false, true]) {
      const named = withXmp('png', plain, packet, compressed);
      await expect(detectC2paInBytes(named, 'png'), String(compressed)).resolves.toMatchObject({
        found: true,
        container: 'xmp-provenance',
      });
    }
  });

  it('an embedded store comes first: the file is verified, not taken as remote', async () => {
    const both = withXmp('png', c2paFixture('signed.png'), provenancePacket(ADDRESS));
    await expect(detectC2paInBytes(both, 'png')).resolves.toMatchObject({
      found: true,
      container: 'png-caBX',
    });
  });
});
