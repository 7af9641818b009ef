// The judge report card over a store with one judge model in three protocols (Judge-LS, reference
// sensitivity, bias probes), all answered by the simulated provider: the card lists each
// experiment with the numbers of its own metrics, marks them simulated, holds them to gates set
// to pass and to fail, and `judge-lab report-card` writes the same card as files.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvOnlyKeyStore } from '../../src/main/providers/key-store';
import { Core } from '../../src/main/facade/core';
import type { ReportCard } from '../../src/shared/report-card/types';
import type { JudgeLsMetrics } from '../../src/shared/protocols/judge-ls/types';
import type { BiasMetrics } from '../../src/shared/protocols/bias-probes/types';
import type { RefSensMetrics } from '../../src/shared/protocols/reference-sensitivity/types';
import { assertBuilt, runCliInProcess } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';
import { LATEX_PACKAGES } from '../../src/main/report/latex';
import { metricsJson } from '../../src/main/report/export-folder';
import { getProtocol } from '../../src/main/protocols';
import { cardMarkdown, registryCardText, reportCardFiles, rowsCsv } from '../../src/main/report-card/export';
import { renderSvg } from '../../src/main/report/figures';
import { reportCardFigure } from '../../src/shared/report-card/figure';
import { cardSpeaker, cardView } from '../../src/shared/report-card/phrases';
import { englishWords, svgTexts } from '../helpers/english-words';

/** Every number anywhere in a JSON value. */
function numbersIn(v: unknown, out = new Set<number>()): Set<number> {
  if (typeof v === 'number') out.add(v);
  else if (Array.isArray(v)) v.forEach((x) => numbersIn(x, out));
  else if (v && typeof v === 'object') Object.values(v).forEach((x) => numbersIn(x, out));
  return out;
}

const SIM = { sim: { kind: 'simulated', latencyMs: 0, rpm: 60000, concurrency: 16 } };
const JUDGES = [
  { label: 'Sim strong', provider: 'sim', model: 'sim-judge-strong' },
  { label: 'Sim weak', provider: 'sim', model: 'sim-judge-weak' },
];
const MODEL = 'simulated:sim-judge-strong';

let dir: string;
let dataDir: string;
let cleanup: () => void;
const metrics: { judgeLs?: JudgeLsMetrics; refSens?: RefSensMetrics; bias?: BiasMetrics } = {};
let card: ReportCard;
const metricsFiles = new Map<number, unknown>();
let core: Core;

beforeAll(async () => {
  assertBuilt();
  ({ dir, cleanup } = tempDir());
  dataDir = join(dir, 'data');
  core = new Core({ dataDir, door: 'cli', keys: new EnvOnlyKeyStore({}) });
  await core.call('datasets.loadSample', { sampleId: 'llmbar' });
  await core.call('datasets.loadSample', { sampleId: 'tydiqa' });
  const run = async (config: Record<string, unknown> & { protocol: string }) => {
    const { id } = await core.call('experiments.create', { config: { providers: SIM, ...config } });
    expect((await core.experiments.runToEnd(id)).status).toBe('finished');
    const { metrics } = await core.call('experiments.results', { experimentId: id });
    // The run's metrics.json, the text its export writes (the export folder's own writer; that the
    // folder holds exactly this text is pinned per protocol by golden-metrics.test.ts): the card's
    // numbers must come from it. Not the whole export: its figures, PNGs and workbook were ~2.5
    // CPU-s of this file's ~20, and nothing here reads them.
    metricsFiles.set(
      id,
      JSON.parse(metricsJson(metrics as object, getProtocol(config.protocol).metricsKeys)),
    );
    return metrics;
  };
  metrics.judgeLs = (await run({
    name: 'card-judge-ls',
    protocol: 'judge-ls',
    dataset: 'LLMBar (sample)',
    limit: 12,
    transform: { provider: 'sim', model: 'sim-translator', languages: ['ZH'] },
    judges: JUDGES,
  })) as JudgeLsMetrics;
  metrics.refSens = (await run({
    name: 'card-refsens',
    protocol: 'reference-sensitivity',
    dataset: 'TyDi QA GoldP (en, ar, te) (sample)',
    limit: 9,
    generators: [{ label: 'Sim generator', provider: 'sim', model: 'sim-generator' }],
    judges: JUDGES,
  })) as RefSensMetrics;
  metrics.bias = (await run({
    name: 'card-bias',
    protocol: 'bias-probes',
    dataset: 'LLMBar (sample)',
    limit: 10,
    rewriter: { provider: 'sim', model: 'sim-rewriter' },
    judges: [JUDGES[0]],
  })) as BiasMetrics;
  card = await core.call('judges.reportCard', { model: MODEL });
}, 600_000);

afterAll(async () => {
  await core?.shutdown();
  cleanup?.();
});

describe('the judge report card', () => {
  it('lists the judge models of the store, the simulated ones marked', async () => {
    const judges = await core.call('judges.list', undefined);
    const strong = judges.find((j) => j.key === MODEL)!;
    expect(strong).toMatchObject({ kind: 'simulated', model: 'sim-judge-strong', experiments: 3 });
    expect(strong.simulated).toBe(true);
    expect(strong.recorded).toBe(false);
    expect(strong.protocols.sort()).toEqual(['bias-probes', 'judge-ls', 'reference-sensitivity']);
    expect(judges.find((j) => j.key === 'simulated:sim-judge-weak')?.experiments).toBe(2);
    // A model id alone names the judge when one provider kind judged it.
    expect((await core.call('judges.reportCard', { model: 'sim-judge-strong' })).judge).toEqual(card.judge);
    await expect(core.call('judges.reportCard', { model: 'no-such-model' })).rejects.toThrow(
      /no experiment in this store used "no-such-model" as a judge/,
    );
  });

  it("shows every experiment's own numbers, with dataset and n, flagged simulated", () => {
    expect(card.experiments.map((e) => e.name).sort()).toEqual([
      'card-bias',
      'card-judge-ls',
      'card-refsens',
    ]);
    for (const e of card.experiments) {
      expect(e.simulated).toBe(true);
      expect(e.recorded).toBe(false);
      expect(e.labels).toEqual(['Sim strong']);
      expect(e.rows.length).toBeGreaterThan(0);
    }
    const byName = (n: string) => card.experiments.find((e) => e.name === n)!;
    expect(byName('card-judge-ls').dataset).toBe('LLMBar (sample)');
    expect(byName('card-refsens').dataset).toBe('TyDi QA GoldP (en, ar, te) (sample)');

    const ls = byName('card-judge-ls').rows;
    for (const q of metrics.judgeLs!.quality.filter((r) => r.judge === 'Sim strong')) {
      const r = ls.find((x) => x.measure === 'accuracy' && x.condition.params?.language === q.language)!;
      expect(r).toMatchObject({ n: q.n, value: q.accuracy_strict, ci: q.accuracy_strict_ci });
    }
    for (const f of metrics.judgeLs!.language_invariance.filter((r) => r.judge === 'Sim strong')) {
      const r = ls.find((x) => x.measure === 'flip_rate' && x.condition.params?.comparison === f.comparison)!;
      expect(r).toMatchObject({ n: f.n, value: f.flip_rate, ci: f.flip_rate_ci });
    }
    const rs = byName('card-refsens').rows;
    for (const c of metrics.refSens!.calibration.filter((r) => r.judge === 'Sim strong')) {
      const r = rs.find((x) => x.measure === 'c1_accept' && x.condition.params?.language === c.language)!;
      expect(r).toMatchObject({ n: c.n, value: c.c1_accept });
    }
    const bias = byName('card-bias').rows;
    const lengthProbe = metrics.bias!.probes.find(
      (p) => p.judge === 'Sim strong' && p.probe === 'length' && p.category === 'all',
    )!;
    expect(
      bias.find((x) => x.measure === 'effect_dz' && x.condition.params?.probe === 'length'),
    ).toMatchObject({
      n: lengthProbe.n,
      value: lengthProbe.dz,
    });
  });

  it('holds the judge to gates: pass, warn, fail and not measured, each naming its experiment', async () => {
    const position = card.gates.find((g) => g.definition.id === 'position_consistency')!;
    const flips = card.gates.find((g) => g.definition.id === 'language_flip')!;
    const values = (checks: { value: number | null }[]) =>
      checks.map((c) => c.value).filter((v): v is number => v !== null);
    const lowest = Math.min(...values(position.checks));
    const lowestBound = Math.min(...position.checks.map((c) => c.ci?.[0] ?? 1));
    const highestFlip = Math.max(...values(flips.checks));
    expect(highestFlip).toBeGreaterThan(0);
    expect(lowestBound).toBeLessThan(lowest);
    const at = async (position: number, flip: number) =>
      (
        await core.call('judges.reportCard', {
          model: MODEL,
          gates: { position_consistency: { threshold: position }, language_flip: { threshold: flip } },
        })
      ).gates;
    // Planted: a position threshold under every interval passes; one just under the worst value,
    // but above its interval's lower end, warns; a flip ceiling under the worst flip rate fails,
    // on the experiment that measured it.
    const planted = await at(lowestBound - 0.001, highestFlip - 0.001);
    const g = (id: string) => planted.find((x) => x.definition.id === id)!;
    expect(g('position_consistency').status).toBe('pass');
    expect(g('position_consistency').definition.source).toBeNull();
    const warned = (await at(lowest - 0.001, 1)).find((x) => x.definition.id === 'position_consistency')!;
    expect(warned.status).toBe('warn');
    expect(warned.decisive?.reason).toMatchObject({ key: 'interval_not_clear' });
    expect(cardSpeaker('en').phrase(warned.decisive!.reason!, 'judge-ls')).toMatch(
      /^the 95% interval \[.*\] is not clear of \d/,
    );
    expect(g('language_flip').status).toBe('fail');
    expect(g('language_flip').decisive).toMatchObject({
      experimentName: 'card-judge-ls',
      value: highestFlip,
    });
    // No person rated anything and no self-consistency study ran: not measured, never a zero.
    expect(g('human_rho').status).toBe('not_measured');
    expect(g('human_rho').decisive).toBeNull();
    expect(g('self_disagreement').status).toBe('not_measured');
    // Defaults say where they come from.
    expect(g('length_effect').definition.source).toMatch(/Cohen \(1988\)/);
  });

  it('keeps a gate turned off on the card and in every export, as "off", unchecked (issue 38 item 10)', async () => {
    const off = await core.call('judges.reportCard', {
      model: MODEL,
      gates: { language_flip: { enabled: false } },
    });
    const gate = off.gates.find((x) => x.definition.id === 'language_flip')!;
    expect(gate).toMatchObject({ status: 'off', decisive: null, checks: [] });
    const files = await reportCardFiles(off, 'en');
    const gates = parse(files.get('report-card-gates.csv') as string, { bom: true, columns: true }) as Record<
      string,
      string
    >[];
    expect(gates.find((r) => r.gate === 'language_flip')).toMatchObject({ gate_status: 'off' });
    expect(files.get('report-card.md') as string).toMatch(/off \(turned off\)/);
    // The 中文 Markdown as reportCardFiles writes it (its report-card.md is this call; the 中文 files
    // test below goes through reportCardFiles whole), without the 中文 PNG nothing here reads.
    expect(cardMarkdown(cardView(off, 'zh', registryCardText))).toContain('已关闭');
  });

  it('`judge-lab report-card` writes the card as JSON, LaTeX (compiles), Markdown, CSV (numbers from the runs), SVG and PNG, and refuses a bad gates file', async () => {
    await core.shutdown();
    const gatesFile = join(dir, 'gates.json');
    writeFileSync(gatesFile, JSON.stringify({ language_flip: { threshold: 1 } }));
    const out = join(dir, 'card');
    const r = await runCliInProcess([
      'report-card',
      MODEL,
      '--out',
      out,
      '--gates',
      gatesFile,
      '--data-dir',
      dataDir,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Judge report card: ${MODEL} (3 experiments)`);
    expect(r.stdout).toMatch(/card-judge-ls \[simulated: made-up answers\] — /);
    expect(r.stdout).toMatch(/pass\s+Language flip rate ≤ 100\.0%/);
    expect(r.stdout).toMatch(/not measured\s+ρ with people/);
    const json = JSON.parse(readFileSync(join(out, 'report-card.json'), 'utf8')) as ReportCard;
    expect(json.experiments.map((e) => e.rows)).toEqual(card.experiments.map((e) => e.rows));
    expect(readFileSync(join(out, 'report-card.png')).subarray(1, 4).toString()).toBe('PNG');
    expect(readFileSync(join(out, 'report-card.svg'), 'utf8')).toContain('card-refsens');
    expect(readFileSync(join(out, 'report-card.tex'), 'utf8')).toContain('\\begin{tabular}');

    // Every number of the card's CSV is one of its run's metrics.json, as written there (or, for
    // position consistency, one minus the inconsistency rate written there).
    const rows = parse(readFileSync(join(out, 'report-card.csv'), 'utf8'), {
      bom: true,
      columns: true,
    }) as Record<string, string>[];
    expect(rows.length).toBe(card.experiments.reduce((s, e) => s + e.rows.length, 0));
    let checked = 0;
    for (const row of rows) {
      const leaves = numbersIn(metricsFiles.get(Number(row.experiment_id)));
      for (const key of ['value', 'ci_low', 'ci_high']) {
        if (row[key] === '') continue;
        const v = Number(row[key]);
        expect(
          leaves.has(v) || [...leaves].some((x) => 1 - x === v),
          `${row.experiment} ${row.measure} ${row.condition} ${key} = ${v}`,
        ).toBe(true);
        checked++;
      }
      if (row.value === '') expect(row.note).toMatch(/^undefined: /);
      expect(row.simulated).toBe('1');
    }
    expect(checked).toBeGreaterThan(30);
    const ls = metricsFiles.get(card.experiments.find((e) => e.name === 'card-judge-ls')!.experimentId) as {
      quality: { judge: string; language: string; accuracy_strict: number; n: number }[];
    };
    for (const q of ls.quality.filter((x) => x.judge === 'Sim strong')) {
      const r = rows.find((x) => x.measure === 'accuracy' && x.condition === q.language)!;
      expect([Number(r.value), Number(r.n)]).toEqual([q.accuracy_strict, q.n]);
    }
    const gates = parse(readFileSync(join(out, 'report-card-gates.csv'), 'utf8'), {
      bom: true,
      columns: true,
    }) as Record<string, string>[];
    expect(gates.find((g) => g.gate === 'language_flip')).toMatchObject({
      threshold: '1',
      threshold_source: 'researcher',
      gate_status: 'pass',
    });
    expect(gates.find((g) => g.gate === 'human_rho')).toMatchObject({
      gate_status: 'not_measured',
      value: '',
    });
    const md = readFileSync(join(out, 'report-card.md'), 'utf8');
    expect(md).toContain(`# Judge report card: ${MODEL}`);
    expect(md).toContain('| Gate | Rule | Status |');
    // Brackets escaped: Markdown shows them as text, never as a link.
    expect(md).toContain('card-judge-ls \\[simulated: made-up answers\\]');

    // The LaTeX compiles.
    writeFileSync(
      join(out, 'wrapper.tex'),
      `\\documentclass{article}\n\\usepackage{${LATEX_PACKAGES.join(',')}}\n\\begin{document}\n\\input{report-card}\n\\end{document}\n`,
    );
    const tex = spawnSync('pdflatex', ['-interaction=nonstopmode', '-halt-on-error', 'wrapper.tex'], {
      cwd: out,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(tex.status, tex.stdout.slice(-3000)).toBe(0);
    expect(readFileSync(join(out, 'wrapper.log'), 'utf8')).not.toMatch(/Missing character/);
    expect(readFileSync(join(out, 'wrapper.pdf')).subarray(0, 5).toString()).toBe('%PDF-');

    const bad = join(dir, 'bad-gates.json');
    writeFileSync(bad, '{\n  "position_consistency": { "treshold": 0.9 }\n}\n');
    const out2 = join(dir, 'card2');
    const b = await runCliInProcess([
      'report-card',
      MODEL,
      '--out',
      out2,
      '--gates',
      bad,
      '--data-dir',
      dataDir,
    ]);
    expect(b.code).toBe(2);
    expect(b.stderr).toContain(`${bad}:2: field "position_consistency.treshold": unknown key`);
    expect(existsSync(out2)).toBe(false);
  }, 300_000);
});

// Issue 25: the card's words (conditions, reasons, protocol titles, run status) in the chosen
// language, in every file; English as it always was.
describe('the report card files in 中文 and English', () => {
  /** What a user named (experiments, datasets, judges, the model) and what is a code or a name. */
  const names = () => [
    MODEL,
    ...card.experiments.flatMap((e) => [e.name, e.dataset, ...e.labels]),
    'sim-judge-strong',
  ];
  const ALLOWED = [
    // Language, setting and transition codes; the metric's and the format's proper names.
    ...['EN', 'ZH', 'LS', 'NR', 'RV', 'RC'],
    ...['Cohen', 'ICC', 'Spearman', 'Markdown', 'Judge'],
  ];
  const csv = (text: string) => parse(text, { bom: true, columns: true }) as Record<string, string>[];

  it("says every condition, reason, title and status in 中文: no English word in the Markdown, the CSVs' words or the figure", async () => {
    const files = await reportCardFiles(card, 'zh');
    const md = files.get('report-card.md') as string;
    // The gates' literature sources cite English titles; everything else is Chinese.
    const mdBody = md
      .split('\n')
      .map((l) => l.replace(/Zheng et al\.[^|]*|Cohen \(1988\)[^|]*|Bavaresco et al\.[^|]*|Judge Lab/g, ''))
      .join('\n');
    expect(englishWords(mdBody, names(), ALLOWED)).toEqual([]);
    expect(md).toContain('长度：加长（逐项评分）');
    expect(md).toMatch(/EN-ZH（未测量噪声底）|EN-ZH，超出噪声底的部分/);
    expect(md).toContain('偏差探针');
    expect(md).toContain('(已完成)');

    const rows = csv(files.get('report-card.csv') as string);
    const rowWords = rows.flatMap((r) => englishWords(`${r.condition} ${r.note}`, names(), ALLOWED));
    expect(rowWords).toEqual([]);
    // d_z has no interval on the card, and says why, in Chinese.
    const dz = rows.find((r) => r.measure === 'effect_dz' && r.value !== '')!;
    expect(dz.note).toBe('无区间：不计算 d_z 的区间；平均变化的区间见上一行');
    const gates = csv(files.get('report-card-gates.csv') as string);
    expect(gates.flatMap((g) => englishWords(`${g.condition} ${g.reason}`, names(), ALLOWED))).toEqual([]);

    const drawn = svgTexts(files.get('report-card.svg') as string).join('\n');
    expect(englishWords(drawn, names(), ALLOWED)).toEqual([]);
    expect(drawn).toContain('偏差探针');
    expect(drawn).toContain('已完成');
    expect(drawn).toContain('无区间：不计算 d_z 的区间');

    // One format asked for (the app's download): that file alone, the same bytes as in the whole set.
    const one = await reportCardFiles(card, 'zh', registryCardText, 'report-card.md');
    expect([...one.keys()]).toEqual(['report-card.md']);
    expect(one.get('report-card.md')).toBe(md);
    await expect(reportCardFiles(card, 'zh', registryCardText, 'report-card.docx')).rejects.toThrow(
      'a report card has no file "report-card.docx"',
    );
  });

  it('keeps the English wording: conditions as the protocols always wrote them, and says why an interval is missing', async () => {
    // The files this test reads, each asked for alone (no PNG drawn that nothing reads).
    const files = new Map<string, string | Buffer>();
    for (const name of ['report-card.csv', 'report-card-gates.csv', 'report-card.md', 'report-card.svg'])
      for (const [n, content] of await reportCardFiles(card, 'en', registryCardText, name))
        files.set(n, content);
    const rows = csv(files.get('report-card.csv') as string);
    const bias = metrics.bias!;
    for (const p of bias.probes.filter((r) => r.judge === 'Sim strong' && r.category === 'all')) {
      const old = `${p.probe}: ${p.effect} (${bias.mode})`;
      const dz = rows.find(
        (r) => r.experiment === 'card-bias' && r.measure === 'effect_dz' && r.condition === old,
      );
      expect(dz, old).toBeDefined();
      expect(dz!.note).toBe(
        p.dz === null
          ? `undefined: ${p.n < 2 ? 'fewer than 2 paired differences' : 'zero variance of the paired differences (all equal)'}`
          : "no interval: no interval is computed for d_z; the mean change's interval is in the row above",
      );
    }
    for (const q of metrics.judgeLs!.quality.filter((r) => r.judge === 'Sim strong'))
      expect(rows.some((r) => r.experiment === 'card-judge-ls' && r.condition === q.language)).toBe(true);
    const gates = csv(files.get('report-card-gates.csv') as string);
    for (const f of metrics.judgeLs!.language_invariance.filter((r) => r.judge === 'Sim strong'))
      expect(gates.map((g) => g.condition)).toContain(
        metrics.judgeLs!.noise_floor
          ? `${f.comparison} beyond the noise floor`
          : `${f.comparison} (no noise floor measured)`,
      );
    const md = files.get('report-card.md') as string;
    expect(md).toContain('Bias probes: position, length and format effects by controlled edits');
    // No value without its interval goes unexplained.
    for (const r of rows)
      if (r.value !== '' && r.ci_low === '')
        expect(r.note, `${r.experiment} ${r.measure}`).toMatch(/^no interval: ./);
    const drawn = svgTexts(files.get('report-card.svg') as string).join('\n');
    expect(drawn).toContain('finished');
  });

  it('wraps every label of the card figure inside its column: nothing is cut with "…" (issue 38 item 10)', async () => {
    const long = structuredClone(card);
    const e = long.experiments[0];
    e.name =
      'A second pilot of multilingual invariance on the natural subset, with the revised rubric and new prompts';
    e.dataset = 'LLMBar (sample), the twenty natural and adversarial pairs shipped with Judge Lab';
    for (const lang of ['en', 'zh'] as const) {
      // The figure and the rows as reportCardFiles draws and writes them (its SVG and CSV are these
      // calls), without the PNG it would render too and nothing here reads: a 中文 card's PNG alone
      // was ~4 CPU-s (resvg reads the 19 MB CJK font file again and again as it lays out the texts).
      const view = cardView(long, lang, registryCardText);
      const drawn = svgTexts(renderSvg(reportCardFigure(view)));
      expect(drawn.filter((t) => t.includes('…'))).toEqual([]);
      // A cell's lines follow each other: joined by spaces they give its text back whole.
      const text = drawn.join(' ');
      expect(text).toContain(e.name);
      expect(text).toContain(e.dataset);
      if (lang === 'en')
        for (const r of csv(rowsCsv(view))) {
          expect(text, r.measure).toContain(r.condition);
          if (r.note) expect(text, r.measure).toContain(r.note.replace(/^[a-z ]+: /, ''));
        }
    }
  });
});
