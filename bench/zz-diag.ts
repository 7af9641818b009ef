import { openLab } from './validate-e2e/studies';
import { wilcoxonSignedRank } from '../src/shared/stats/wilcoxon';
const lab = await openLab();
const hist = new Map<number, number>();
let rej = 0, runs = 0, units = 0;
for (let s = 0; s < 30; s++) {
  const m = (await lab.run({ protocol: 'bias-probes', limit: 60, sample: 'random', seed: 500 + s,
    judges: [{ label: 'J', provider: 'sim', model: `sim-judge-strong-rdg${s}-long0-noise30` }], rewriter: { provider: 'sim', model: 'sim-rewriter' },
    mode: 'pointwise', probes: ['length'], shorter: false })) as any;
  const row = m.probes.find((r: any) => r.judge === 'J' && r.category === 'all' && r.effect === 'longer');
  const d = (m.differences ?? []).find((x: any) => x.judge === 'J' && x.effect === 'longer');
  if (d) for (const x of d.diffs) { hist.set(x, (hist.get(x) ?? 0) + 1); units++; }
  runs++; if ((row.p_holm ?? row.p) < 0.05) rej++;
  if (s < 3) console.log(JSON.stringify({ n: row.n, items: row.items, mean: row.mean, p: row.p, method: row.p_method, keys: Object.keys(m) }));
}
console.log('rej', rej, runs, 'hist', JSON.stringify([...hist].sort((a, b) => a[0] - b[0]).map(([k, v]) => [k, (v / units).toFixed(3)])), 'units', units);
await lab.close();
