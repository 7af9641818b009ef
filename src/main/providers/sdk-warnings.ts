// The Anthropic SDK prints a console.warn on every messages.create for a model it lists as
// deprecated (claude-sonnet-4-5 in 1.14): a study of 3,352 calls to it wrote 3,352 copies
// to stderr, ~1.7 s of the run's profile (issue 27). The warning is worth reading once, so
// each distinct one is shown the first time only.

const shown = new Set<string>();

/**
 * Runs `fn` (synchronous: the SDK warns before its first await) with console.warn showing
 * each distinct message once per process.
 */
export function warnOnce<T>(fn: () => T): T {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    const text = args.map(String).join(' ');
    if (shown.has(text)) return;
    shown.add(text);
    warn.apply(console, args);
  };
  try {
    return fn();
  } finally {
    console.warn = warn;
  }
}
