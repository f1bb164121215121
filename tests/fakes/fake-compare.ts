/**
 * Compare for the in-memory `window.pictor` (fake-pictor-api.ts): a plan that sends every target
 * but those a test leaves out (`leaveOut`), a run that adds one task per target and prompt with
 * its compare field, the group's tasks by slot, and "Cancel all" answering `stopping` for the
 * unfinished ones. Browser-safe: imports only shared/. Main's planning, addresses and caps are tested
 * over the real wiring (tests/integration/ipc/compare-ipc.test.ts).
 */
import { PROVIDERS } from '../../shared/domain/providers';
import type { TaskRecord } from '../../shared/domain/task-record';
import { englishText, type Sentence } from '../../shared/i18n/sentence';
import type { RequestChannel, RequestInput, RequestOutput } from '../../shared/ipc/contract';
import type { TaskItem } from '../../shared/ipc/task-item';
import { makeTask } from '../support/task-records';

type Channel = Extract<RequestChannel, `compare:${string}`>;
type CompareHandlers = {
  [C in Channel]: (input: RequestInput<C>) => RequestOutput<C> | Promise<RequestOutput<C>>;
};

export interface FakeCompareHost {
  records(): readonly TaskRecord[];
  addTasks(records: readonly TaskRecord[]): void;
  item(record: TaskRecord): TaskItem;
  nextLocalId(): string;
  now(): number;
}

/** The group id of the fake's next compare (a UUID, as main's are). */
const groupOf = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

export class FakeCompare {
  /** Targets (by slot) the next plans leave out, with their sentence. */
  readonly leaveOut = new Map<number, Sentence>();
  /** Warnings and a refusal the next plans carry. */
  warnings: Sentence[] = [];
  refusal: Sentence | undefined;
  private groups = 0;

  constructor(private readonly host: FakeCompareHost) {}

  private plan(input: RequestInput<'compare:plan'>): RequestOutput<'compare:plan'> {
    this.groups += 1;
    const labels = input.targets.map(
      (target) =>
        `${PROVIDERS[target.provider].label}${target.model === undefined ? '' : ` · ${target.model}`}`,
    );
    const slots = labels.map((label, n) => ({ slot: n + 1, label, target: input.targets[n]! }));
    const sent = slots.filter(({ slot }) => !this.leaveOut.has(slot));
    const none = { micros: {}, unpriced: 0 };
    return {
      group: groupOf(this.groups),
      targets: sent.map(({ slot, label, target }) => ({
        slot,
        label,
        notes: [],
        tasks: input.prompts.length * (target.count ?? 1),
        estimate: none,
      })),
      leftOut: slots
        .filter(({ slot }) => this.leaveOut.has(slot))
        .flatMap(({ slot, label }) => {
          const reason = this.leaveOut.get(slot);
          return reason === undefined ? [] : [{ slot, label, reason }];
        }),
      total: none,
      warnings: [...this.warnings],
      ...(this.refusal === undefined ? {} : { refusal: this.refusal }),
    };
  }

  private run(input: RequestInput<'compare:run'>): RequestOutput<'compare:run'> {
    const plan = this.plan(input);
    if (plan.refusal !== undefined) throw new Error(englishText(plan.refusal));
    const now = this.host.now();
    const made = plan.targets.flatMap(({ slot, label }) =>
      input.prompts.map((prompt) => {
        const target = input.targets[slot - 1]!;
        return makeTask({
          localId: this.host.nextLocalId(),
          taskId: null,
          request: { prompt, ...(target.model === undefined ? {} : { model: target.model }) },
          ...(target.provider === 'pictor' ? {} : { provider: target.provider }),
          status: 'submitting',
          createdAt: now,
          updatedAt: now,
          submittedAt: null,
          finishedAt: null,
          compare: { group: plan.group, slot, label },
        });
      }),
    );
    this.host.addTasks(made);
    return {
      group: plan.group,
      items: made.map((record) => this.host.item(record)),
      leftOut: plan.leftOut,
    };
  }

  private tasksOf(group: string): TaskRecord[] {
    return this.host
      .records()
      .filter((record) => record.compare?.group === group)
      .sort((a, b) => (a.compare?.slot ?? 0) - (b.compare?.slot ?? 0) || a.createdAt - b.createdAt);
  }

  /** The groups as main lists them: newest (by latest task) first, each from its first task. */
  private groupsOf(limit: number) {
    const byGroup = new Map<string, TaskRecord[]>();
    for (const record of this.host.records()) {
      if (record.compare)
        byGroup.set(record.compare.group, [...(byGroup.get(record.compare.group) ?? []), record]);
    }
    const latest = (records: TaskRecord[]) => Math.max(...records.map((r) => r.createdAt));
    return [...byGroup.entries()]
      .sort(([a, x], [b, y]) => latest(y) - latest(x) || b.localeCompare(a))
      .slice(0, limit)
      .map(([group, records]) => {
        const first = [...records].sort((a, b) => a.createdAt - b.createdAt)[0]!;
        return {
          group,
          prompt: first.request.prompt.slice(0, 200),
          createdAt: first.createdAt,
          targets: new Set(records.map((record) => record.compare?.slot)).size,
          tasks: records.length,
        };
      });
  }

  readonly handlers: CompareHandlers = {
    'compare:plan': (input) => this.plan(input),
    'compare:run': (input) => this.run(input),
    'compare:show': ({ group }) => ({
      items: this.tasksOf(group).map((record) => this.host.item(record)),
    }),
    'compare:groups': ({ limit }) => ({ groups: this.groupsOf(limit ?? 100) }),
    'compare:cancel': ({ group }) => ({
      outcomes: this.tasksOf(group).map((record) => {
        const running = record.status === 'processing' || record.status === 'submitting';
        if (!running)
          return { kind: 'not_running', localId: record.localId, item: this.host.item(record) };
        return { kind: 'stopping', localId: record.localId, item: this.host.item(record) };
      }),
    }),
  };
}
