/**
 * The whole core, as the CLI runs it against a service on loopback with a base path: the image
 * `pictor generate` saves carries its provenance (the core turns it on for every image), the
 * service named by its origin alone, read back by exiftool. The harness checks that no API key
 * reached any file or output.
 */
import { describe, expect, it } from 'vitest';
import { DIGITAL_SOURCE_TYPE } from '../../../electron/core/gallery/metadata/xmp-packet';
import { UNKNOWN_VERSION } from '../../../electron/core/pictor-core';
import { expectExit, onlyTask, useCliWorlds } from '../cli/cli-harness';
import { EXIFTOOL, exiftool } from '../../support/exiftool';
import { needing } from '../../support/tools';

const newWorld = useCliWorlds();

describe('pictor generate', () => {
  it.skipIf(!EXIFTOOL.path)(
    needing(EXIFTOOL, 'saves an image that says how it was made'),
    async () => {
      const world = await newWorld({ durationMs: 200, basePath: '/api/secret-tenant' });
      const prompt = 'Quayside at dawn — רציף 🌅 <fog & rain>';
      const run = await world.run([
        'generate',
        '--prompt',
        prompt,
        '--model',
        'pictor-test-model',
        '--size',
        '40x30',
        '--quality',
        'low',
        '--json',
      ]);
      expectExit(run, 0);
      const task = onlyTask(run);
      const path = task.images[0]!.path!;
      const tags = await exiftool(path);
      expect(tags['XMP-iptcExt:DigitalSourceType']).toBe(DIGITAL_SOURCE_TYPE);
      expect(tags['XMP-dc:Description']).toBe(prompt);
      expect(tags).toMatchObject({
        'XMP-xmp:CreatorTool': `Pictor ${UNKNOWN_VERSION}`,
        'XMP-pictor:Size': '40x30',
        'XMP-pictor:Quality': 'low',
        'XMP-pictor:Service': new URL(world.service.baseUrl).origin,
      });
      expect(String(tags['XMP-pictor:Model'])).toMatch(/\S/);
      expect(JSON.stringify(tags)).not.toContain('secret-tenant');
      expect(String(tags['PNG:Parameters'])).toContain(prompt);
    },
  );
});
