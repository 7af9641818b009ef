export interface Throttled {
  (): void;
  cancel(): void;
}

/**
 * Calls `fn` at most once per `ms`: the first call runs at once, and any call inside the window
 * schedules one more run at its end, so the last change is never missed.
 */
export function throttle(fn: () => void, ms: number): Throttled {
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const run = () => {
    timer = null;
    last = Date.now();
    fn();
  };
  const throttled = (() => {
    if (timer !== null) return;
    const wait = last + ms - Date.now();
    if (wait <= 0) run();
    else timer = setTimeout(run, wait);
  }) as Throttled;
  throttled.cancel = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };
  return throttled;
}
