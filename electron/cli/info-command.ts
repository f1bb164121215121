/**
 * `pictor info <image>`: what an image file says about itself (core/gallery/metadata/image-info.ts):
 * Pictor's provenance, from the image or the XMP beside it, and its Content Credentials, verified
 * against the trust list Pictor ships; and, when the library at --data-dir has the image, its
 * rating, flag, tags and boards (info-triage.ts). `--json` prints one object. Needs no key and no
 * library.
 */
import { resolve } from 'node:path';
import type { ContentCredentials } from '../../shared/domain/content-credentials';
import { serviceIdAtOrigin } from '../../shared/domain/service-id';
import { systemClock } from '../adapters/system-clock';
import { openFairVerifier } from '../core/content-credentials';
import { NotAnImageError, inspectImage, type ImageInfo } from '../core/gallery';
import { UnsafeFileError } from '../core/fs';
import { EXIT } from './cli-report';
import type { CliIo } from './cli-io';
import { jsonSafe, terminalSafe } from './terminal-text';
import { libraryTriage, triageLines, type InfoTriage } from './info-triage';
import { argumentsOf, required } from './cli-args';
import { commandHelp } from './command-help';
import { declareLibraryCommand } from './library-command';
import { common } from './common-args';

/** The verdict in English words: what it is, then what it means (the window's sentences). */
function credentialsText(credentials: ContentCredentials): string {
  switch (credentials.state) {
    case 'valid': {
      const { signer, generator } = credentials;
      const line = `Signed by ${signer}${credentials.aiGenerated ? ', AI-generated' : ''}.`;
      const meaning = credentials.trusted
        ? `The file is exactly as ${signer} signed it, and ${signer} is on the list of signers Pictor trusts.`
        : 'The file is exactly as it was signed, but the signer is not on the list Pictor trusts: the name is only what the signer says about itself.';
      return `${line} ${meaning}${generator ? ` Made with ${generator}.` : ''}`;
    }
    case 'invalid':
      return `Present, but they do not check out: the file or its credentials changed after signing, so they say nothing reliable about where it came from (${credentials.codes.join(', ')}).`;
    case 'unreadable':
      return credentials.remote
        ? 'Present, but kept online: the file names the address of its credentials, and Pictor does not fetch them.'
        : 'Present, but they could not be read within Pictor’s limits.';
    default:
      return 'None: nothing in the file says where it came from.';
  }
}

/**
 * The task's service as `list` and the window name it (shared/domain/service-id.ts: `demo` for the
 * built-in demo's, else the provider's id): the library's record's when the library has the image,
 * else what the file's recorded origin names; with that origin, as the file records it.
 */
function serviceLine(origin: string, triage: InfoTriage | null): string {
  const id = triage?.service ?? serviceIdAtOrigin(origin);
  return id === null ? origin : `${id} (${origin})`;
}

function humanText(info: ImageInfo, triage: InfoTriage | null, dataDir: string): string {
  const { provenance } = info;
  const where =
    info.xmp === 'sidecar'
      ? `in the XMP beside the image, ${info.xmpPath ?? ''}`
      : info.xmp === 'image'
        ? 'in the image'
        : null;
  const lines = [
    info.file,
    `  Format: ${info.format.toUpperCase()}, ${info.bytes} bytes`,
    provenance
      ? `  Prompt: ${provenance.prompt}${provenance.truncated ? ' (shortened to fit)' : ''}`
      : '  Pictor metadata: none',
    ...(provenance && where ? [`  Pictor metadata: ${where}`] : []),
    ...(provenance?.model ? [`  Model: ${provenance.model}`] : []),
    ...(provenance?.seed === undefined ? [] : [`  Seed: ${provenance.seed}`]),
    ...(provenance?.taskId ? [`  Task: ${provenance.taskId}`] : []),
    ...(provenance ? [`  Service: ${serviceLine(provenance.service, triage)}`] : []),
    `  Content Credentials: ${credentialsText(info.contentCredentials)}`,
    ...triageLines(triage, dataDir),
  ];
  return lines.map(terminalSafe).join('\n');
}

function jsonText(info: ImageInfo, triage: InfoTriage | null): string {
  const { provenance } = info;
  return jsonSafe(
    JSON.stringify({
      ...info,
      provenance: provenance && {
        ...provenance,
        createdAt: new Date(provenance.createdAt).toISOString(),
      },
      // What the library says of the image (null: not in the library): rating, flag, tags, boards.
      library: triage,
    }),
  );
}

async function infoCommand(
  command: { readonly file: string; readonly json: boolean; readonly dataDir: string },
  io: CliIo,
): Promise<number> {
  const { file, json, dataDir } = command;
  // The core's verification: the pre-count of the store, then its limit on the clock.
  const verifier = await openFairVerifier({ clock: systemClock });
  try {
    const info = await inspectImage(resolve(file), verifier);
    const triage = libraryTriage(dataDir, info.provenance);
    io.stdout(`${json ? jsonText(info, triage) : humanText(info, triage, dataDir)}\n`);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof NotAnImageError || error instanceof UnsafeFileError) {
      io.stderr(`${terminalSafe(error.message)}\n`);
      return EXIT.failed;
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR') {
      io.stderr(`${terminalSafe(`The image file could not be read (${code}).`)}\n`);
      return EXIT.failed;
    }
    throw error;
  } finally {
    await verifier.dispose();
  }
}

export const info = declareLibraryCommand({
  name: 'info',
  help: commandHelp(
    'info <image> [--json]           what an image says about itself: its prompt (from the image\n                                  or the .xmp beside it) and its Content Credentials, verified',
    [],
  ),
  own: ['json'],
  parse: ({ values, positionals }, env) => {
    const [file] = argumentsOf('info', positionals, 1);
    return {
      name: 'info' as const,
      file: resolve(required(file, 'info needs the image file to describe.')),
      json: values.json ?? false,
      dataDir: common(values, env).dataDir,
    };
  },
  run: infoCommand,
});
