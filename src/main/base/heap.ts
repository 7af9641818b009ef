// How far V8 lets the heap grow past what is live, for a desktop app on a laptop.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * After each full collection V8 lets the old generation grow to a multiple of what survived
 * before it collects again. On a machine with gigabytes of memory that multiple reaches 4: a
 * 92,000-call study with ~100 MB live peaked at 600–800 MB of heap, nearly all of it garbage
 * waiting (bench:refsens). At 1.5 the same run peaked at ~190 MB of heap and ~350 MiB RSS, and
 * used no more CPU (collections are more frequent but smaller; marking runs on another core).
 * The hard limit is unchanged: a heap that truly needs more still gets it.
 */
export const HEAP_GROWING_PERCENT = 50;

let applied = false;

/** Sets the growing factor for this process (the CLI, `serve` and the desktop app's main process). */
export function useLaptopHeap(): void {
  if (applied) return;
  applied = true;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

let gc: (() => void) | undefined;

/**
 * A full collection now, on this thread's heap. For the moments where much just became garbage
 * and more is about to be made: V8 would otherwise collect only at its limit, so the old garbage
 * and the new sit in memory together. Also for memory V8 cannot see: native objects (resvg's
 * pixmaps) freed only when their small JS wrappers are collected. `gc` comes from a fresh context
 * made with --expose-gc on. The flag stays on: V8's flags are the process's, not the thread's,
 * and switching it back off raced with the PNG worker's own first call (the other thread's
 * context then came without `gc`, and the export failed with "gc is not defined"). Nothing the
 * app runs reads that global. A collection is only ever a help: without `gc` it does nothing.
 */
export function collectGarbage(): void {
  gc ??= exposedGc();
  gc?.();
}

function exposedGc(): (() => void) | undefined {
  setFlagsFromString('--expose-gc');
  const found: unknown = runInNewContext('typeof gc === "function" ? gc : undefined');
  return typeof found === 'function' ? (found as () => void) : undefined;
}

/**
 * The growing factor while `judge-lab run` exports (withExportHeap). The export makes ~50–80 MB
 * of short-lived garbage (ECharts' SVGs, the workbook) over ~60–75 MB live, and at 1.5 it all
 * waited beside the PNG worker's pixmaps. Study export (bench:overhead study, one run each at
 * load 2–3): 50 % → 381 MiB peak, 1.97 s last answer → exit; 30 % → 324 MiB, 2.62 s; 20 % →
 * 321 MiB, 3.75 s (collections back to back slowed the workbook); 10 % → 341 MiB, 3.80 s.
 */
export const EXPORT_HEAP_GROWING_PERCENT = 30;

/**
 * Runs `work` (the export after a run) with the heap collected first, the run's state being
 * garbage by then, and held closer to what is live while it runs; then the process's policy again.
 */
export async function withExportHeap<T>(work: () => Promise<T>): Promise<T> {
  setFlagsFromString(`--heap-growing-percent=${EXPORT_HEAP_GROWING_PERCENT}`);
  collectGarbage();
  try {
    return await work();
  } finally {
    // Back to this process's policy: the laptop's if it set one, else V8's own (0: dynamic).
    setFlagsFromString(`--heap-growing-percent=${applied ? HEAP_GROWING_PERCENT : 0}`);
  }
}
