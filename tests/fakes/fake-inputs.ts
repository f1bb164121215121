/**
 * Images as inputs for the in-memory `window.pictor` (fake-pictor-api.ts): an input store by
 * digest (a test puts images in, `pickFile` answers the next one it scripts), library images
 * copied in by `fromLibrary`, a `downscale` that stores a smaller copy, addresses on the gallery
 * scheme, a plan whose routes a test scripts per service (`routes`), with consent remembered per
 * service, a run that adds one task per target (the compare's group), and stacks a test sets.
 * Browser-safe: imports only shared/. Main's own planning and routes are tested in the core.
 */
import type { InputImage } from '../../shared/domain/image-inputs';
import { PROVIDERS, type ProviderId } from '../../shared/domain/providers';
import type { TaskRecord } from '../../shared/domain/task-record';
import { englishText, type Sentence } from '../../shared/i18n/sentence';
import type { RequestChannel, RequestInput, RequestOutput } from '../../shared/ipc/contract';
import type { EditRoute, ImageStack } from '../../shared/ipc/inputs-contract';
import type { TaskItem } from '../../shared/ipc/task-item';
import { makeTask } from '../support/task-records';

type Channel = Extract<RequestChannel, `inputs:${string}` | `edit:${string}` | `images:${string}`>;
type InputHandlers = {
  [C in Channel]: (input: RequestInput<C>) => RequestOutput<C> | Promise<RequestOutput<C>>;
};

export interface FakeInputsHost {
  addTasks(records: readonly TaskRecord[]): void;
  item(record: TaskRecord): TaskItem;
  nextLocalId(): string;
  now(): number;
}

/** A digest made of `n` (64 hex digits), for inputs a test makes up. */
function digestOf(n: number): string {
  return n.toString(16).padStart(64, '0');
}

/** An input image of `width` × `height` (a PNG of `bytes`). */
export function inputImage(n: number, width = 1024, height = 768, bytes = 200_000): InputImage {
  return { sha256: digestOf(n), mime: 'image/png', width, height, bytes };
}

const groupOf = (n: number) => `00000000-0000-4000-9000-${String(n).padStart(12, '0')}`;

export class FakeInputs {
  /** The input store: every input by digest. */
  readonly store = new Map<string, InputImage>();
  /** What the next `inputs:pickFile` answers (null: the user closed the dialog), in order. */
  readonly picks: (InputImage | null)[] = [];
  /** Each library image's input (by `localId#index`); one not listed gets a made-up one. */
  readonly library = new Map<string, InputImage>();
  /** How each service's inputs travel in the plan (inline when not listed). */
  readonly routes = new Map<ProviderId, Omit<EditRoute, 'consentNeeded'>>();
  /** Services the user agreed to public links for (`inputs:consent`). */
  readonly consented = new Set<ProviderId>();
  /** Notes (by slot), targets left out (by slot) and a refusal the next plans carry. */
  readonly notes = new Map<number, Sentence[]>();
  readonly leaveOut = new Map<number, Sentence>();
  refusal: Sentence | undefined;
  /** The stack `images:stack` answers, by `localId#index`. */
  readonly stacks = new Map<string, ImageStack>();
  private made = 0;
  private groups = 0;

  constructor(private readonly host: FakeInputsHost) {}

  /** Keeps `image` in the store and returns it. */
  put(image: InputImage): InputImage {
    this.store.set(image.sha256, image);
    return image;
  }

  private stored(sha256: string): InputImage {
    const image = this.store.get(sha256);
    if (!image) throw new Error('That input is not in the store.');
    return image;
  }

  private fromLibrary({ localId, index }: RequestInput<'inputs:fromLibrary'>) {
    const key = `${localId}#${String(index)}`;
    const image = this.library.get(key) ?? inputImage(1_000 + (this.made += 1));
    return { image: this.put(image), parent: { localId, index } };
  }

  private downscale({ sha256, maxSide }: RequestInput<'inputs:downscale'>) {
    const source = this.stored(sha256);
    const scale = maxSide / Math.max(source.width, source.height);
    const image = inputImage(
      2_000 + (this.made += 1),
      Math.max(1, Math.floor(source.width * scale)),
      Math.max(1, Math.floor(source.height * scale)),
      Math.max(1, Math.floor(source.bytes * scale * scale)),
    );
    return { image: this.put(image) };
  }

  private plan(input: RequestInput<'edit:plan'>): RequestOutput<'edit:plan'> {
    this.groups += 1;
    for (const image of [
      input.inputs.source,
      input.inputs.mask,
      ...(input.inputs.references ?? []),
    ])
      if (image) this.stored(image.sha256);
    const slots = input.targets.map((target, n) => ({
      slot: n + 1,
      label: `${PROVIDERS[target.provider].label} · ${target.model}`,
      target,
    }));
    return {
      group: groupOf(this.groups),
      targets: slots
        .filter(({ slot }) => !this.leaveOut.has(slot))
        .map(({ slot, label, target }) => {
          const route = this.routes.get(target.provider) ?? { route: 'inline', publicLinks: false };
          const consentNeeded = route.publicLinks && !this.consented.has(target.provider);
          return {
            slot,
            label,
            notes: this.notes.get(slot) ?? [],
            inputs: { ...route, consentNeeded },
          };
        }),
      leftOut: slots.flatMap(({ slot, label }) => {
        const reason = this.leaveOut.get(slot);
        return reason === undefined ? [] : [{ slot, label, reason }];
      }),
      warnings: [],
      ...(this.refusal === undefined ? {} : { refusal: this.refusal }),
    };
  }

  private run(input: RequestInput<'edit:run'>): RequestOutput<'edit:run'> {
    const plan = this.plan(input);
    if (plan.refusal !== undefined) throw new Error(englishText(plan.refusal));
    const now = this.host.now();
    const made = plan.targets.map(({ slot, label }) => {
      const target = input.targets[slot - 1]!;
      return makeTask({
        localId: this.host.nextLocalId(),
        taskId: null,
        request: { prompt: input.prompt, model: target.model, inputs: input.inputs },
        ...(target.provider === 'pictor' ? {} : { provider: target.provider }),
        status: 'submitting',
        createdAt: now,
        updatedAt: now,
        submittedAt: null,
        finishedAt: null,
        compare: { group: plan.group, slot, label },
      });
    });
    this.host.addTasks(made);
    return {
      group: plan.group,
      items: made.map((record) => this.host.item(record)),
      leftOut: plan.leftOut,
    };
  }

  readonly handlers: InputHandlers = {
    'inputs:pickFile': () => {
      const next = this.picks.shift() ?? null;
      return next === null ? null : { image: this.put(next) };
    },
    'inputs:fromLibrary': (ref) => this.fromLibrary(ref),
    'inputs:putMask': ({ source }) => {
      const image = this.stored(source);
      return {
        mask: this.put({
          ...inputImage(3_000 + (this.made += 1)),
          width: image.width,
          height: image.height,
        }),
      };
    },
    'inputs:downscale': (input) => this.downscale(input),
    'inputs:address': ({ sha256 }) => ({
      url: `pictor-gallery://inputs/${this.stored(sha256).sha256}`,
    }),
    'inputs:consent': ({ provider }) => void this.consented.add(provider),
    'edit:plan': (input) => this.plan(input),
    'edit:run': (input) => this.run(input),
    'images:stack': ({ localId, index }) => {
      const stack = this.stacks.get(`${localId}#${String(index)}`);
      return stack ?? { original: { kind: 'library', localId, index }, entries: [] };
    },
  };
}
