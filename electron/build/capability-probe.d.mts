/** Types of capability-probe.mjs (plain JavaScript, so it runs without tsx or a build). */
import type { Worker } from 'node:worker_threads';

/** How long a worker may take to start and answer. */
export const WORKER_TIMEOUT_MS: number;

/** One capability: its name, as printed, and its check (throws or rejects when missing). */
export interface Capability {
  readonly name: string;
  readonly run: () => unknown;
}

export type Outcome =
  | { readonly ok: true; readonly name: string; readonly ms: number }
  | { readonly ok: false; readonly name: string; readonly reason: string };

/** What the probe loads and uses; tests pass stand-ins that lack one capability. */
export interface ProbeRuntime {
  readonly loadSqlite?: () => Promise<{ DatabaseSync: new (file: string) => unknown }>;
  readonly loadWorkers?: () => Promise<{ Worker: typeof Worker }>;
  readonly WebAssembly?: typeof WebAssembly;
}

export function probeFts5Trigram(sqlite: { DatabaseSync: new (file: string) => unknown }): void;

export function probeWorkerAndSharedMemory(
  runtime: {
    readonly Worker: typeof Worker;
    readonly WebAssembly: typeof WebAssembly;
  },
  timeoutMs?: number,
): Promise<void>;

export function capabilities(runtime?: ProbeRuntime): Capability[];

export function runProbe(list: Capability[], print: (line: string) => void): Promise<Outcome[]>;
