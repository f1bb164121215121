/**
 * A task's input images as they travel at send time: the route chosen for its model
 * (input-route.ts, with the "never upload inputs" setting), each image read back from the store
 * with its digest checked, then sent inline (bare base64 or a `data:` URI) or uploaded with the
 * service's own step (uploaders.ts) — public-link uploads only for a service the user agreed to,
 * an upload that stays usable for a while reused while it does (upload-memory.ts). Nothing here
 * writes the task: the engine calls it before it marks the task sent, so an upload never counts
 * as a submit, and a refusal fails the submit with nothing sent.
 *
 * A task's images were held in main from their reading until its service answered the submit (its
 * body built whole, carrying them inline), and a page asks for tasks with a request a few
 * characters long: a compromised page's edits run side by side had every task's images held at
 * once, up to four tasks an address (submit-slots.ts) on every service with a key. So at most
 * {@link TASKS_HELD_AT_ONCE} tasks hold theirs at once (each at most its model's images, each
 * within its model's limit), the others waiting their turn holding nothing, and a service holds at
 * most {@link TASKS_HELD_PER_SERVICE} of the turns (one that never answers does not stop every
 * other service's sends).
 *
 * An image sent inline is no longer held while its service answers: the body streams it from the
 * store's file (inline-body.ts: checked whole before the send, hashed again as it is read, a piece
 * at a time), so a turn ends once the body's last byte was handed to the transport, or once the
 * uploads are made (the request then names links); one service's batch of edits is sent side by
 * side, not one at a time. An upload's body streams from the file too (upload-body.ts): a turn
 * spent uploading holds a piece of an image at a time, never the image. (Built whole, a body was held until the answer: the client kept its text
 * for a redirect and Node's fetch in manual redirect mode kept a whole copy in a clone: 4 submits
 * of a 16 MiB image held +85 MB of text and +86 MB of bytes.)
 */
import type { ImageInputs, InputImage } from '../../../shared/domain/image-inputs';
import {
  requestCapabilities,
  type ModelCapabilities,
} from '../../../shared/domain/model-capabilities';
import type { ProviderId } from '../../../shared/domain/providers';
import { sentence, type Sentence } from '../../../shared/i18n/sentence';
import type { GenerationRequest } from '../../../shared/service/wire';
import type { ServiceCredentials } from '../../ports/credentials';
import type { FetchLike, PinnedFetch, Resolver } from '../../ports/http';
import { inTurn, sharedLimiter } from '../base';
import { createPinnedFetch, systemResolver } from '../download';
import {
  checkCredentials,
  checkImageUrl,
  isLoopbackHost,
  isProfilesOwnAddress,
  keysToFind,
  profileOf,
  type ProviderProfile,
  redactError,
  type SentInputs,
  ServiceError,
  serviceNameAt,
  UrlPolicyError,
} from '../service';
import { InlineImages } from './inline-body';
import { chooseRoute, type UploadTransport } from './input-route';
import { InputStoreError, type InputStore } from './input-store';
import type { UploadCall } from './upload-http';
import { UPLOADERS, type Uploader } from './uploaders';
import type { UploadMemory } from './upload-memory';

/** Tasks whose input images are held at once: read, and sent, until the submit is answered. */
const TASKS_HELD_AT_ONCE = 2;
/** Of those, the tasks of one service (one origin): a service that never answers holds no more. */
const TASKS_HELD_PER_SERVICE = 1;

/** A task whose inputs are sent: its service, its request, the key it goes with. */
interface InputsToSend {
  readonly provider: ProviderId;
  readonly request: GenerationRequest;
  readonly credentials: ServiceCredentials;
  /** Ends the send (the engine stopped): its reason is thrown. */
  readonly signal: AbortSignal;
}

/** Where a send goes, with whose key, and what ends it. */
interface SendingAt {
  readonly baseUrl: string;
  readonly key: string;
  readonly account: string;
  readonly model: string;
  readonly signal: AbortSignal;
}

/** The settings a send reads, as they are when it is sent. */
export interface InputSettings {
  readonly neverUploadInputs: boolean;
  readonly publicUploadConsent: readonly ProviderId[];
}

export interface InputSenderOptions {
  readonly store: InputStore;
  /** The service's transport: an upload's keyed first step (proxies honoured). */
  readonly fetch: FetchLike;
  readonly settings: () => InputSettings;
  readonly memory: UploadMemory;
  readonly now: () => number;
  /** How an upload target's name resolves; default the operating system's. */
  readonly resolve?: Resolver;
  /**
   * The signed upload targets' transport; default direct connections pinned to the address
   * checked (as image downloads), in the app and the CLI alike.
   */
  readonly signedFetch?: PinnedFetch;
  /** Total time of one input's upload; default 2 minutes. */
  readonly uploadTimeoutMs?: number;
  /**
   * Every key the process holds (CredentialsProvider.heldKeys): an upload's answers are searched
   * for each of them besides the key sent, as the service client's are.
   */
  readonly heldKeys?: (() => Promise<readonly string[]>) | undefined;
  /** Each service's upload step; default uploaders.ts's (a test leaves one out). */
  readonly uploaders?: Readonly<Partial<Record<ProviderId, Uploader>>>;
}

/**
 * The service a send's turn is counted for: its address's origin (another port is another
 * service: a local ComfyUI beside the demo), the address as given when it has none.
 */
function serviceOf(baseUrl: string): string {
  try {
    const { origin } = new URL(baseUrl);
    return origin === 'null' ? baseUrl : origin;
  } catch {
    return baseUrl;
  }
}

function refusal(said: Sentence, detail?: string): ServiceError {
  return new ServiceError({
    kind: 'config',
    message: said,
    mayHaveReachedService: false,
    ...(detail === undefined ? {} : { detail }),
  });
}

/** The images in the order SentInputs names them, the mask in the model's convention. */
function imagesFor(inputs: ImageInputs, capabilities: ModelCapabilities) {
  const mask =
    capabilities.mask === 'alpha-edit'
      ? (inputs.maskAlpha ?? inputs.mask)
      : (inputs.mask ?? inputs.maskAlpha);
  return { source: inputs.source, mask, references: inputs.references ?? [] };
}

/** The upload endpoint at the address in use: under the base URL unless it is the profile's own. */
function endpointAt(transport: UploadTransport, profile: ProviderProfile, baseUrl: string) {
  if (transport.endpoint.startsWith('/'))
    return { url: `${baseUrl}${transport.endpoint}`, origins: [] };
  if (isProfilesOwnAddress(profile, baseUrl)) {
    return { url: transport.endpoint, origins: transport.origins };
  }
  const absolute = new URL(transport.endpoint);
  return { url: `${baseUrl}${absolute.pathname}${absolute.search}`, origins: [] };
}

export class InputSender {
  private readonly resolver: Resolver;
  private readonly signedFetch: PinnedFetch;
  private readonly timeoutMs: number;
  private readonly uploaders: Readonly<Partial<Record<ProviderId, Uploader>>>;

  /**
   * Runs a task's send once fewer than TASKS_HELD_AT_ONCE others hold their images, and fewer
   * than TASKS_HELD_PER_SERVICE of its service's.
   */
  private readonly holding = sharedLimiter(TASKS_HELD_AT_ONCE, TASKS_HELD_PER_SERVICE);

  constructor(private readonly options: InputSenderOptions) {
    this.resolver = options.resolve ?? systemResolver;
    this.signedFetch = options.signedFetch ?? createPinnedFetch();
    this.timeoutMs = options.uploadTimeoutMs ?? 120_000;
    this.uploaders = options.uploaders ?? UPLOADERS;
  }

  /**
   * The task's inputs as its model takes them, uploads made, handed to `submit`, which sends the
   * task with them. Its turn ends when nothing of its images is held any more: once its body gave
   * its last byte to the transport (inline images, read from their files as they are sent), once
   * its uploads are made (the request then names links), or when `submit` settles, whichever is
   * first.
   * @throws ServiceError of kind `config` (nothing sent: a refusal in a sentence), or the upload's
   *   own failure (nothing submitted); never with the key in it. The caller's `signal.reason`.
   *   What `submit` throws, as it threw it, but for an image changed on disk while its body was
   *   sent: the body stopped before its end, and the refusal says so.
   */
  async send<T>(task: InputsToSend, submit: (sent: SentInputs) => Promise<T>): Promise<T> {
    let submitted: Promise<T> | undefined;
    let inline: InlineImages | undefined;
    const service = serviceOf(task.credentials.baseUrl);
    // Stopped while it waits its turn: it leaves the line at once (a place kept by a task no one
    // sends would wait for the tasks ahead to end), nothing is read, and the caller's reason is
    // thrown as it gave it, not the line's own.
    await inTurn(
      (work, signal) => this.holding(service, work, signal),
      async () => {
        if (task.signal.aborted) throw task.signal.reason;
        const ready = await this.prepare(task);
        inline = ready.inline;
        submitted = submit(ready.sent);
        // Links only (uploads made): nothing is held while the service answers.
        if (!inline.any) return;
        const settled = submitted.then(
          () => undefined,
          () => undefined,
        );
        await Promise.race([settled, inline.handedOff]);
      },
      task.signal,
      (reason) => {
        throw reason;
      },
    );
    try {
      return await (submitted as Promise<T>);
    } catch (error) {
      const stopped = inline?.failure;
      if (stopped instanceof InputStoreError && stopped.sentence && !task.signal.aborted) {
        throw refusal(stopped.sentence, stopped.detail);
      }
      throw error;
    }
  }

  private async prepare(task: InputsToSend): Promise<{ sent: SentInputs; inline: InlineImages }> {
    const { provider, request, credentials, signal } = task;
    const inputs = request.inputs;
    const capabilities = requestCapabilities(provider, request);
    if (!inputs || !capabilities) throw refusal(sentence('error.inputs.noModel'));
    const checked = checkCredentials(credentials);
    const inline = new InlineImages(this.options.store);
    try {
      const sent = await this.sendChecked(provider, inputs, capabilities, {
        ...checked,
        account: credentials.keyFingerprint,
        model: request.model ?? '',
        signal,
        inline,
      });
      return { sent, inline };
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      if (error instanceof ServiceError) throw redactError(error, checked.key);
      if (error instanceof InputStoreError && error.sentence)
        throw refusal(error.sentence, error.detail);
      throw error;
    }
  }

  private async sendChecked(
    provider: ProviderId,
    inputs: ImageInputs,
    capabilities: ModelCapabilities,
    { inline, ...at }: SendingAt & { readonly inline: InlineImages },
  ): Promise<SentInputs> {
    const images = imagesFor(inputs, capabilities);
    const all = [images.source, ...(images.mask ? [images.mask] : []), ...images.references];
    const settings = this.options.settings();
    const choice = chooseRoute(
      capabilities,
      all,
      inputs.route ?? 'auto',
      settings.neverUploadInputs,
    );
    if ('refused' in choice) throw refusal(choice.refused);
    const profile = profileOf(provider);
    const service = serviceNameAt(profile.facts, at.baseUrl);
    if (choice.route === 'upload' && choice.transport.publicLinks) {
      if (!settings.publicUploadConsent.includes(provider)) {
        throw refusal(sentence('error.inputs.consentNeeded', { service }));
      }
    }
    const one = async (image: InputImage): Promise<string> => {
      if (choice.route === 'inline') {
        // Checked whole now (a missing or changed file refused before anything is sent), and read
        // again, a piece at a time, as its body is sent.
        await this.options.store.check(image);
        return inline.add(choice.transport, image);
      }
      // Checked whole now too (nothing asked of the service for a missing or changed file), and
      // read again, a piece at a time, as its upload's body is sent.
      await this.options.store.check(image);
      return this.upload(choice.transport, { profile, service, ...at }, image);
    };
    // One at a time: an upload refused stops the rest, and a large batch does not flood the link.
    const source = await one(images.source);
    const mask = images.mask ? await one(images.mask) : undefined;
    const references: string[] = [];
    for (const reference of images.references) references.push(await one(reference));
    const body = inline.any ? { body: (json: string) => inline.body(json) } : {};
    return { source, ...(mask === undefined ? {} : { mask }), references, ...body };
  }

  private async upload(
    transport: UploadTransport,
    at: {
      profile: ProviderProfile;
      service: string;
      model: string;
      baseUrl: string;
      key: string;
      account: string;
      signal: AbortSignal;
    },
    image: InputImage,
  ): Promise<string> {
    // A model whose transports name an upload has its service's uploader (a test over
    // MODEL_CAPABILITIES holds that); should one ever lack it, the refusal says so, not "too large".
    const uploader = this.uploaders[at.profile.id];
    if (!uploader) throw refusal(sentence('error.inputs.noUploader', { service: at.service }));
    const endpoint = endpointAt(transport, at.profile, at.baseUrl);
    const remembered = { endpoint: endpoint.url, account: at.account, sha256: image.sha256 };
    if (transport.lifetimeMs !== null) {
      const link = await this.options.memory.recall(remembered);
      if (link !== null) return link;
    }
    const call: UploadCall = {
      fetch: this.options.fetch,
      signedFetch: this.signedFetch,
      resolve: this.resolver,
      baseUrl: at.baseUrl,
      key: at.key,
      secrets: await keysToFind(at.key, this.options.heldKeys),
      authHeaders: at.profile.authHeaders(at.key),
      keyOrigins: endpoint.origins,
      service: at.service,
      signal: AbortSignal.any([at.signal, AbortSignal.timeout(this.timeoutMs)]),
    };
    const sentAt = this.options.now();
    const source = this.options.store;
    const link = await uploader(call, { image, source, endpoint: endpoint.url, model: at.model });
    // A name in the server's own folder (checked by its uploader's schema) is fetched by no one.
    if (transport.serverFile !== true) this.checkPublic(link, at.baseUrl);
    if (transport.lifetimeMs !== null) {
      await this.options.memory.remember(remembered, link, sentAt + transport.lifetimeMs);
    }
    return link;
  }

  /** A link the service must fetch: never one to this computer or a private network (the demo aside). */
  private checkPublic(link: string, baseUrl: string): void {
    if (link.startsWith('oss://')) return;
    try {
      const url = checkImageUrl(link, baseUrl);
      if (url.protocol !== 'https:' && !isLoopbackHost(url.hostname)) {
        throw new UrlPolicyError(sentence('error.inputs.linkNotPublic', { host: url.host }));
      }
    } catch (error) {
      if (!(error instanceof UrlPolicyError)) throw error;
      let host = link.slice(0, 80);
      try {
        host = new URL(link).host;
      } catch {
        // Not a URL at all: named by its start.
      }
      throw refusal(sentence('error.inputs.linkNotPublic', { host }));
    }
  }
}
