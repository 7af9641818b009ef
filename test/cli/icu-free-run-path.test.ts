// Issue 39: a one-study `judge-lab run` paged in ~7 MiB of Node's ICU data that stayed resident
// (the CLI's progress counts and the rate-limit messages through toLocaleString, two
// Intl.DisplayNames made when the core loaded, NFD of every LaTeX cell). The texts must stay
// byte-identical; these tests pin that, and that the ICU entry points are no longer reached.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { groupedInt } from '../../src/shared/report/format';

const realDisplayNames = Intl.DisplayNames;
const realToLocale = Number.prototype.toLocaleString;
const realNormalize = String.prototype.normalize;

// Intl's members are read-only in TypeScript's lib, not at run time.
const intl = Intl as { DisplayNames: typeof Intl.DisplayNames };

afterEach(() => {
  intl.DisplayNames = realDisplayNames;
  Number.prototype.toLocaleString = realToLocale;
  String.prototype.normalize = realNormalize;
});

/** Counts calls to the ICU entry points the run path used to reach. */
function countIcu() {
  const calls = { displayNames: 0, toLocale: 0, normalize: 0 };
  intl.DisplayNames = class extends realDisplayNames {
    constructor(...args: ConstructorParameters<typeof Intl.DisplayNames>) {
      calls.displayNames++;
      super(...args);
    }
  } as typeof Intl.DisplayNames;
  Number.prototype.toLocaleString = function (this: number, ...args: Parameters<number['toLocaleString']>) {
    calls.toLocale++;
    return realToLocale.apply(this, args);
  };
  String.prototype.normalize = function (this: string, form?: string) {
    calls.normalize++;
    return realNormalize.call(this, form);
  };
  return calls;
}

describe('groupedInt', () => {
  it('prints what toLocaleString("en-US") prints', () => {
    const values = [0, -0, 1, -1, 7, 12, 999, 1000, -1000, 12_345, 999_999, 1_000_000, 123_456_789];
    values.push(Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 1.5, -2.25, 1e21, Infinity, NaN);
    for (let k = 0; k < 200; k++) values.push(Math.round(Math.sin(k + 1) * 10 ** (k % 16)));
    for (const v of values) expect(groupedInt(v), String(v)).toBe(realToLocale.call(v, 'en-US'));
  });
});

describe('the run path without ICU', () => {
  it('loads the core and its importers without making an Intl.DisplayNames', async () => {
    vi.resetModules();
    const calls = countIcu();
    await import('../../src/main/facade/core');
    const qa = await import('../../src/main/import/qa-record');
    const prompts = await import('../../src/main/protocols/reference-sensitivity/prompts');
    expect(calls.displayNames).toBe(0);
    expect(calls.toLocale).toBe(0);
    // Made when first asked, with the same answers.
    expect(qa.canonicalLanguage('te')).toEqual({ ok: true, tag: 'te' });
    expect(qa.canonicalLanguage('xx').ok).toBe(false);
    expect(prompts.languageName('te')).toBe('Telugu');
    expect(calls.displayNames).toBe(2);
  });

  it('prints progress and estimates without toLocaleString', async () => {
    const { progressLine } = await import('../../src/main/cli/progress');
    const calls = countIcu();
    const line = progressLine({
      phase: 'judge',
      phases: { judge: { done: 12_000, failed: 345, total: 1_234_567 } },
      failuresByReason: {},
      callsPerMinute: 3000,
      etaSeconds: 60,
      costUsd: 1.5,
      status: 'running',
    } as unknown as Parameters<typeof progressLine>[0]);
    expect(line).toContain(' 12,345/1,234,567 ');
    expect(calls.toLocale).toBe(0);
  });

  it('escapes ASCII LaTeX cells without normalizing them, and the rest as before', async () => {
    const { escapeLatex } = await import('../../src/main/report/latex');
    const calls = countIcu();
    expect(escapeLatex('Position-A rate 50% & n_pairs #1 {x}')).toBe(
      'Position-A rate 50\\% \\& n\\_pairs \\#1 \\{x\\}',
    );
    expect(calls.normalize).toBe(0);
    expect(escapeLatex('Café ≠ 中')).toBe("Caf\\'{e} $\\neq$ {\\ttfamily U+4E2D}");
    expect(calls.normalize).toBe(1);
  });
});
