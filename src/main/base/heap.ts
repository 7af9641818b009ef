// How far V8 lets the heap grow past what is live, for a desktop app on a laptop.
import { setFlagsFromString } from 'node:v8';

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
