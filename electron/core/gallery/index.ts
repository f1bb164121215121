/**
 * The gallery module's face (electron/core/gallery/): its doors are the exports below, the only
 * names other modules and the fronts import from it. The folder as storage: `Gallery` (root, paths,
 * task folders, sidecars), its layout, its images' metadata (`metadata/`).
 *
 * - Gallery: real files in a folder the user can open (`YYYY/MM/<date>_<prompt>_<id>/`), each
 *   task's images beside a `pictor.json` sidecar with the whole record and a `.thumbs/` folder, so
 *   the library can be rebuilt from the folder alone. Files are written to `.pictor-tmp/` and
 *   renamed; names never come from the network. A temporary name carries its owner (a tag of the
 *   host and the pid, `core/fs/temp-names.ts`), so a process starting on a shared library removes
 *   only leftovers: a name of this host whose process is gone, anything unchanged for a day, or a
 *   name Pictor did not give.
 *
 * - Images carry their provenance (`electron/core/gallery/metadata/`): after an image is checked
 *   and before it is placed, the download writes an XMP packet into it — the prompt
 *   (`dc:description`), model (the one the service reported, else the one asked for), size,
 *   quality, task ids, the service's origin only (never a user name, key, path or query), creation
 *   date, Pictor's version and IPTC's `DigitalSourceType` `trainedAlgorithmicMedia` — plus, in a
 *   PNG, a readable `parameters` text chunk. It works on the container, never the pixels: PNG
 *   `iTXt` chunks after IHDR (every chunk's length and CRC checked first), JPEG APP1 after
 *   APP0/Exif (at most 65,502 bytes: a longer prompt is shortened and marked), WebP `XMP ` chunk (a
 *   simple VP8/VP8L file becomes VP8X, canvas from the bitstream, RIFF size rewritten). XMP the
 *   image host put there is replaced. The file is walked a range at a time and the new file written
 *   as copied ranges of the original plus the new chunks, a 256 KiB window at a time, so memory per
 *   image is bounded whatever its size. A PNG is edited as it downloads instead
 *   (`download/provenance-writer.ts`, `png-stream.ts`): the body's pieces go through the same checks
 *   and the same chunk edit into a temp file, and that edited image is all that is written while
 *   the body as it came is that file without Pictor's chunks (and the few bytes the edit holds);
 *   the body's own file is written out beside it only once the image may carry Content
 *   Credentials, a chunk is left out or the one-pass edit refuses the file (the file path above
 *   then runs and gives the reason and the log line). It saves reading the image back twice and
 *   writing it twice, and when no `caBX` or `iTXt` chunk went by the credentials walk below is not
 *   run either (`png-stream.test.ts` holds the stream to the file edit's bytes and the walk's
 *   verdict on valid, damaged and randomly changed files cut at every size,
 *   `provenance-writer.test.ts` the two files to the body and the edit); `provenanceStep`
 *   (`embed.ts`) is the one place that decides whether a file is edited at all, and whether the
 *   edited copy is kept. A file whose structure lies (truncated,
 *   huge lengths, bad CRC, RIFF size) is saved as it came and the reason logged. Text XML cannot
 *   hold (control characters, lone surrogates) is kept exactly in `pictor:PromptExact` as `\uXXXX`
 *   escapes. A task made from a prompt template carries it too (`xmp-template.ts`):
 *   `pictor:TemplateId`, `pictor:TemplateName`, `pictor:TemplateVersion`, `pictor:TemplateMode`,
 *   `pictor:TemplateSeed` (random mode) and `pictor:TemplateValues`, an `rdf:Bag` of
 *   `pictor:Name`/`pictor:Value` structures (plus `pictor:ValueExact` for a value XML cannot hold
 *   exactly), as exiftool reads them; the resolved prompt is `dc:description`. Its elements are
 *   written only up to 128 KiB (so the packet, with the longest prompt, stays under the XMP
 *   sidecar's cap) and a JPEG leaves them out before it cuts the prompt: `pictor.json` keeps the
 *   template either way. `rebuild` reads the packet back (Pictor's layout only, size-capped, every
 *   field through zod and the record schema, marked `imported`) to make a task again when its
 *   folder lost its sidecar, its template through the task-template schema (a damaged one is
 *   dropped, the task kept, and a rebuild note names the task by its local id alone: "Run again
 *   with…" works on what comes back,
 *   `tests/integration/gallery-metadata/rebuild-template.test.ts`). An edit's result carries what
 *   it was made from (`xmp-lineage.ts`, from `request.inputs`): `pictor:InputOperation`,
 *   `pictor:ParentLocalId` and `pictor:ParentImageIndex` (the library image), `pictor:InputFactor`,
 *   `pictor:InputSafety`, `pictor:ExpandTop`…`Left`, and each input as a structure of
 *   `pictor:Sha256`/`Mime`/`Width`/`Height`/`Bytes` (`pictor:InputSource`, `pictor:InputMask`,
 *   `pictor:InputMaskAlpha`, the references as an `rdf:Seq` in `pictor:InputReferences`); no path,
 *   no address, not how the inputs travelled. Read back through the inputs schema only (a damaged
 *   one dropped, the task kept, a rebuild note), so it restores nothing `pictor.json` does not
 *   carry (`tests/unit/core/gallery/metadata/xmp-lineage.test.ts`). The input files themselves
 *   travel in an export (`inputs/<sha256>.<ext>`, manifest format 3, each once) and are checked
 *   against their names on import (`tests/unit/core/library/archive/library-lineage.test.ts`). The
 *   core turns this on for every image (`pictor-core.ts`); the app passes `app.getVersion()`, other
 *   hosts say `unknown`. A file that carries Content Credentials is never edited. Services sign
 *   their output with C2PA; any byte changed makes the manifest say "tampered"
 *   (`assertion.dataHash.mismatch`). Before writing, the download looks for a manifest store where
 *   each format puts one, by walking the container's headers through a 64 KiB window
 *   (`c2pa-detect.ts`, `images/jumbf-box.ts`): a PNG `caBX` chunk, JPEG APP11 segments (`JP`, box
 *   instance, sequence; any number of them, in any order, repeated or not) that open a JUMBF `jumb`
 *   superbox, labelled `c2pa` or not (as any `caBX` chunk counts: a store a strict reader would
 *   refuse is still a signature an edit would break), a WebP `C2PA` chunk (PNG, JPEG and WebP are
 *   every format Pictor accepts; an AVIF, HEIC or GIF is refused before anything is written). With
 *   no store in the file, the walk also reads the XMP packet where the container keeps it (PNG
 *   `iTXt` `XML:com.adobe.xmp`, JPEG APP1, WebP `XMP `; 256 KiB at most) for a remote store, C2PA's
 *   other way of attaching credentials (`dcterms:provenance` with an http(s) address, as Adobe's
 *   cloud manifests do; `remote-manifest.ts`): that store hashes the file's bytes too. Its verdict
 *   is `unreadable` with `remote`, said as such: Pictor fetches nothing. Either file is saved
 *   exactly as it came and the same XMP packet goes beside it as `image-<n>.xmp` (`xmp-sidecar.ts`;
 *   temp file, fsync, renamed in before the image), listed in the record (`ImageRecord.xmpFile`, so
 *   in `pictor.json`). The name is the image's with its extension replaced (`image-1.xmp`, not
 *   `image-1.png.xmp`): the XMP specification's own rule for finding a sidecar (Part 3: the same
 *   name as the file, extension `.xmp`), the one Adobe's tools use for raw files and exiftool's
 *   examples use (`-o %d%f.xmp`, `-tagsfromfile %d%f.xmp`); the extension in the name (darktable's
 *   and digiKam's default) is only needed when two files of one folder share a stem, which Pictor's
 *   names never do (Immich reads both). No tool loads the sidecar of a PNG, JPEG or WebP by itself
 *   (Lightroom and Bridge read those formats' XMP from inside the file, and write there): exiftool
 *   reads it when named (`exiftool image-1.xmp`). Everything that reads metadata reads both:
 *   `rebuild` (the sidecar through the same checks and a 512 KiB cap), export and import (`xmp`
 *   manifest entries, archive format 2 only when there are some), the export of chosen images
 *   (`batch/export-images.ts`: the sidecar is copied beside the image's copy under the same stem),
 *   the trash and Undo (the sidecar moves with its image; when the image's name was taken meanwhile
 *   and it comes back as `image-<n>-restored-<k>.<ext>`, the sidecar comes back as
 *   `image-<n>-restored-<k>.xmp` and the record names it: `gallery-trash.ts`; rebuild and recovery
 *   read such restored names too), moving the library (every file of a task folder), `pictor info`.
 *   Search needs nothing: prompts are indexed from records. An image's triage is XMP others can
 *   read too (`gallery/metadata/xmp-triage.ts`): `xmp:Rating` (1–5, a reject −1; a pick and boards
 *   have no standard field) and `dc:subject` (the tags, an `rdf:Bag`). Whenever a task's
 *   `pictor.json` is written (`Gallery.writeSidecar`), each saved image's sidecar is brought in
 *   line (`xmp-sidecar-sync.ts`, atomic; the image is never touched): the triage is merged into
 *   Pictor's packet beside a signed image (made again from the record, naming the version its
 *   packet names), and beside any other image it is a packet of the triage alone under the same
 *   `image-<n>.xmp` name, there only while the image has any triage, and not named in the record.
 *   The sidecar also holds the image's whole triage in Pictor's own element (`xmp-own-triage.ts`:
 *   pick, boards, the order of tags, the time), so `pictor.json` holds none of a saved image's, a
 *   triage edit writes the XMP alone (`Gallery.writeTriage`, `sidecar-triage.ts`; a `pictor.json`
 *   still holding triage is written once more without it), and rebuild and import read it back.
 *   The sidecar follows the image's name, the trash moves it with its image (`triageXmp` in
 *   `image-files.ts`), rebuild does not take it for `xmpFile` (`library/rebuilt-image.ts`), an
 *   import writes it, and a file at that name Pictor did not write is never overwritten or removed.
 *   Only an export (`batch/export-copy.ts`) and "write metadata to files"
 *   (`batch/write-metadata.ts`, the record's `bytes` following) put the triage inside an image
 *   (`embed-triage.ts`), never inside one with Content Credentials: its copy goes out byte for byte
 *   with the sidecar beside it.
 */
export { Gallery } from './gallery';
export {
  distinctImages,
  editImage,
  findImage,
  GalleryImageError,
  type ImageFiles,
  type ImageRecords,
  type ImageRef,
  imagesByTask,
  savedFile,
} from './gallery-images';
export {
  INLINE_DIR,
  MAX_RESTORE_NAMES,
  SIDECAR_NAME,
  THUMBS_DIR,
  imageFileCandidates,
  imageNames,
  taskFolderName,
  xmpSidecarName,
} from './gallery-layout';
export { saveImageCopy } from './image-copy';
export { outgoingBytes, outgoingFile, type OutgoingFile } from './outgoing-file';
export {
  IMAGE_FILE_ROLES,
  type ImageFile,
  imageFilesOf,
  isCache,
  isXmpSidecar,
  withImageFiles,
  withoutFile,
  withoutImageFiles,
} from './image-files';
export { type C2paPresence, detectC2paInBytes, detectC2paInOpenFile } from './metadata/c2pa-detect';
export { verdictWithoutReading } from './metadata/c2pa-verdict';
export { copyWithRecordPacket } from './metadata/copy-packet';
export { embedProvenanceInFile, pngProvenanceChunks, provenanceStep } from './metadata/embed';
export {
  embedTriageInFile,
  kindOfImage,
  planTriageEmbed,
  type TriageEmbed,
} from './metadata/embed-triage';
export { type ImageInfo, inspectImage, NotAnImageError } from './metadata/image-info';
export { writePlanInto } from './metadata/plan-writer';
export { SIGNATURE, pngChunk } from './metadata/png-meta';
export { INSERTED_AT, PngProvenanceStream } from './metadata/png-stream';
export { provenanceOf } from './metadata/provenance';
export { readFileProvenance, readImageProvenance, readPacketProvenance } from './metadata/read';
export { isImageName, recoverFromImages } from './metadata/recover';
export { readWebpCanvas } from './metadata/webp-meta';
export type { ImageProvenance } from './metadata/xmp-packet';
export { MAX_XMP_SIDECAR_BYTES } from './metadata/xmp-sidecar';
export {
  readSidecarIfAny,
  sidecarPlan,
  syncXmpSidecars,
  xmpSidecarOf,
} from './metadata/xmp-sidecar-sync';
export { isTriagePacket } from './metadata/xmp-triage';
export { hasOwnTriage, readOwnTriage, withOwnTriage } from './metadata/xmp-own-triage';
export { triageInXmp } from './sidecar-triage';
export { MAX_SIDECAR_BYTES, parseSidecar, sidecarText, summariseSidecar } from './sidecar';
export type { SidecarRefusal } from './sidecar';
export { keptOfSidecar, withKept, type KeptOfSidecar } from './sidecar-kept';
