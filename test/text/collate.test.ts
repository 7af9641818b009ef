// compareNames orders letters-and-digits names exactly as localeCompare (ICU's root order, which
// en-US uses) without touching ICU (issue 39), and leaves any other text to localeCompare.
import { afterEach, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/shared/random';
import { compareNames } from '../../src/shared/text/collate';

const realLocaleCompare = String.prototype.localeCompare;
afterEach(() => {
  String.prototype.localeCompare = realLocaleCompare;
});

describe('compareNames', () => {
  it('agrees with ICU root collation on letters and digits', () => {
    const rand = mulberry32(39);
    const alphabet = 'aAbBsSzZ019xX';
    const name = () =>
      Array.from(
        { length: Math.floor(rand() * 6) },
        () => alphabet[Math.floor(rand() * alphabet.length)],
      ).join('');
    const root = new Intl.Collator('und');
    for (let k = 0; k < 20_000; k++) {
      const [a, b] = [name(), name()];
      expect(Math.sign(compareNames(a, b)), `${a} vs ${b}`).toBe(Math.sign(root.compare(a, b)));
    }
    const templates = [
      'rewriteSystem',
      'scoreUser',
      'pairScoreUser',
      'pairwiseSystem',
      'pairwiseUser',
      'scoreSystem',
    ];
    expect([...templates].sort(compareNames)).toEqual([...templates].sort((a, b) => root.compare(a, b)));
  });

  it('sorts names without localeCompare, and hands other text to it', () => {
    let calls = 0;
    String.prototype.localeCompare = function (this: string, ...args: Parameters<string['localeCompare']>) {
      calls++;
      return realLocaleCompare.apply(this, args);
    };
    expect(['scoreUser', 'pairwiseSystem', 'Judge2', 'judge10'].sort(compareNames)).toEqual([
      'judge10',
      'Judge2',
      'pairwiseSystem',
      'scoreUser',
    ]);
    expect(calls).toBe(0);
    expect(compareNames('rate_limited', 'rate-limited')).toBe(
      realLocaleCompare.call('rate_limited', 'rate-limited'),
    );
    expect(calls).toBe(1);
  });
});
