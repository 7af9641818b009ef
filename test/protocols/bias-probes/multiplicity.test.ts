// Issue 32 item 2 for bias probes: Holm's family is one judge × category (its probe rows and, in
// pairwise mode, its position test), category "all" a family of its own; and with one category,
// "all" pools nothing more than that category, so the tables show its rows once.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildBiasTables } from '../../../src/shared/protocols/bias-probes/report/tables';
import type { BiasMetrics } from '../../../src/shared/protocols/bias-probes/types';
import { holmAdjust } from '../../../src/shared/stats';

const golden = (name: string) =>
  JSON.parse(
    readFileSync(
      join(import.meta.dirname, '../../fixtures/golden', `bias-probes.${name}.metrics.json`),
      'utf8',
    ),
  ) as BiasMetrics;

describe('bias probes: families and pooled rows', () => {
  for (const name of ['pairwise.simulated', 'pointwise.mock'])
    it(`${name}: one Holm family per judge × category, "all" its own`, () => {
      const m = golden(name);
      const families = new Map<string, { p: number | null; holm: number | null }[]>();
      const add = (judge: string, category: string, p: number | null, holm: number | null) =>
        families.set(`${judge}/${category}`, [...(families.get(`${judge}/${category}`) ?? []), { p, holm }]);
      for (const r of m.probes) add(r.judge, r.category, r.p, r.p_holm);
      for (const r of m.position) add(r.judge, r.category, r.lean_p, r.p_holm);
      expect([...families.keys()].some((k) => k.endsWith('/all'))).toBe(true);
      for (const family of families.values())
        expect(family.map((e) => e.holm)).toEqual(holmAdjust(family.map((e) => e.p)));
    });

  it('shows the rows of the only category once (no "all" copy), and "all" beside two categories', () => {
    const m = golden('pairwise.simulated');
    // The sample's slice has one category, so "all" equals it row for row.
    expect(new Set(m.probes.map((r) => r.category))).toEqual(new Set(['all', 'Natural']));
    const tables = buildBiasTables(m);
    for (const t of tables.filter((t) => t.columns.some((c) => c.key === 'category'))) {
      expect(t.rows.length, t.id).toBeGreaterThan(0);
      expect(
        t.rows.filter((r) => r.category === 'all'),
        t.id,
      ).toEqual([]);
    }
    expect(tables.find((t) => t.id === 'bias_profile')!.caption).toMatch(
      /category "all" pools the categories and is a family of its own/,
    );
    // A second category: "all" pools two and is shown.
    const two: BiasMetrics = {
      ...m,
      probes: [
        ...m.probes,
        ...m.probes.filter((r) => r.category === 'Natural').map((r) => ({ ...r, category: 'Other' })),
      ],
    };
    expect(
      buildBiasTables(two)
        .find((t) => t.id === 'bias_profile')!
        .rows.some((r) => r.category === 'all'),
    ).toBe(true);
  });
});
