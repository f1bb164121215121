/**
 * `pictor mcp` under a client that sends more than it should: every call an MCP client sends is
 * run at once by the SDK, and get_image of a large file holds its bytes, their base64 and the
 * answer's JSON until the answer is written. Many such calls at once must not hold as many images
 * in memory: the server's peak memory (its high-water mark, /proc) is what is judged. The real
 * CLI over stdio, a real large PNG in the gallery.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CALLS_AT_ONCE } from '../../../electron/cli/mcp/mcp-call-gate';
import { answerOf, mcpLibrary } from '../../integration/mcp/mcp-harness';

const lib = mcpLibrary('sk-unused-mcp-load-Wq4Tz8', 'mcp-load');

/**
 * Calls sent at once: as many as the server works on at once (mcp-call-gate.ts), each holding
 * ~25 MB while it is worked on (400 MB at once without get_image's own bound). More calls add no
 * more at once: the gate holds the rest back, and that they wait and are answered is
 * mcp-unread-answers.test.ts's.
 */
const AT_ONCE = CALLS_AT_ONCE;
/**
 * The most the server's peak may grow by over the calls: a few images at a time, and the garbage
 * of those done that the collector has not taken yet (150-205 MB measured).
 */
const MAX_GROWTH_MB = 350;

/** The process's peak resident memory so far, in MB (Linux). */
async function peakMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${String(pid)}/status`, 'utf8');
  const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
  return Number(kb) / 1024;
}

/** A PNG of noise (it does not compress) of about 4.6 MB: under get_image's 6 MB. */
function noisePng(): Promise<Buffer> {
  const [width, height] = [1_300, 1_180];
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

describe.skipIf(process.platform !== 'linux')('many get_image calls at once', () => {
  it('hold a few images in memory at a time, and answer every one', async () => {
    const mcp = await lib.serve(['--provider', 'demo', '--poll-interval', '0.1'], {
      key: null,
      env: { PICTOR_DEMO_DURATION_MS: '100' },
    });
    const { tasks } = answerOf<{ tasks: { images: { ref: string }[] }[] }>(
      await mcp.call('generate', { prompt: 'a quiet harbour', wait: true }),
    );
    const ref = tasks[0]?.images[0]?.ref ?? '';
    const big = await noisePng();
    const entries = await readdir(lib.dataDir, { withFileTypes: true, recursive: true });
    const image = entries.find(
      (e) => e.isFile() && /\.png$/.test(e.name) && !/thumb/.test(e.parentPath),
    );
    expect(image).toBeDefined();
    await writeFile(join(image!.parentPath, image!.name), big);
    // One call first: the server's peak with one image's answer.
    expect((await mcp.call('get_image', { ref, as: 'file' })) as CallToolResult).not.toHaveProperty(
      'isError',
      true,
    );
    const before = await peakMb(mcp.pid);
    const answers = (await Promise.all(
      Array.from({ length: AT_ONCE }, () =>
        mcp.client.callTool({ name: 'get_image', arguments: { ref, as: 'file' } }, undefined, {
          timeout: 120_000,
        }),
      ),
    )) as CallToolResult[];
    const growth = (await peakMb(mcp.pid)) - before;
    console.log(`peak growth over ${String(AT_ONCE)} get_image at once: ${growth.toFixed(0)} MB`);
    expect(growth, 'MB the peak grew by').toBeLessThan(MAX_GROWTH_MB);
    expect(answers.filter((answered) => answered.isError === true)).toHaveLength(0);
  }, 180_000);
});
