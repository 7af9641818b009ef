import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exportJudgeLs } from './judge-ls-folder';
import { escapeLatex, LATEX_PACKAGES, LONGTABLE_ROWS, tableToLatex } from '../../src/main/report/latex';
import { buildTables } from '../../src/shared/protocols/judge-ls/report/tables';
import { makeJudgments, makeMetrics } from './fixture';

const HOSTILE = 'a&b%c$d#e_f{g}h~i^j\\k';

describe('escapeLatex', () => {
  it('escapes every LaTeX special character', () => {
    expect(escapeLatex(HOSTILE)).toBe(
      'a\\&b\\%c\\$d\\#e\\_f\\{g\\}h\\textasciitilde{}i\\textasciicircum{}j\\textbackslash{}k',
    );
    expect(escapeLatex('GPT-4.1 mini')).toBe('GPT-4.1 mini');
    expect(escapeLatex('p < 0.001')).toBe('p \\textless{} 0.001');
    expect(escapeLatex('"A"')).toBe('{\\ttfamily\\char34}A{\\ttfamily\\char34}');
  });

  it('turns accents into accent commands and other non-ASCII into code points', () => {
    expect(escapeLatex('Café – naïve')).toBe('Caf\\\'{e} -- na\\"{i}ve');
    expect(escapeLatex('中文')).toBe('{\\ttfamily U+4E2D}{\\ttfamily U+6587}');
    expect(escapeLatex('line\nbreak')).toBe('line break');
    // The symbols our captions and Methods use are typeset, not shown as code points.
    expect(escapeLatex('α = 0.05; ½ of ties; ψ → ρ ≠ κ ✓')).toBe(
      '$\\alpha$ = 0.05; $\\frac{1}{2}$ of ties; $\\psi$ $\\rightarrow$ $\\rho$ $\\neq$ $\\kappa$ $\\surd$',
    );
  });
});

function findPdflatex(): string | null {
  const r = spawnSync('sh', ['-c', 'command -v pdflatex'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

describe('LaTeX tables', () => {
  const dir = mkdtempSync(join(tmpdir(), 'jl-latex-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('compile with pdflatex: every exported table plus a long, hostile audit table', async () => {
    const pdflatex = findPdflatex();
    expect(
      pdflatex,
      'pdflatex not found: install the Debian packages texlive-latex-base and texlive-latex-recommended',
    ).toBeTruthy();

    const metrics = makeMetrics();
    metrics.quality[0].judge = `${HOSTILE} 中文 Café`;
    // Subset names and failure reasons come from datasets and model answers: anything goes.
    for (const r of [...metrics.subset_quality, ...metrics.subset_flip]) {
      if (r.subset === 'Natural') r.subset = `[Natural] ${HOSTILE} 自然`;
    }
    metrics.failures.push({
      judge: `*${HOSTILE}`,
      kind: 'quality',
      language: 'EN',
      reason: `unparseable: ${'{"winner": "C", "reason": "…"} '.repeat(12)}\n\\end{table} ${HOSTILE}`,
      count: 4,
    });
    await exportJudgeLs(
      join(dir, 'out'),
      { metrics, judgments: makeJudgments(), manifest: manifest() },
      {
        figures: [],
        png: false,
        xlsx: false,
      },
    );
    const tableFiles = readdirSync(join(dir, 'out', 'tables')).filter((f) => f.endsWith('.tex'));
    expect(tableFiles.sort()).toEqual(
      buildTables(metrics)
        .map((t) => `${t.id}.tex`)
        .sort(),
    );
    expect(tableFiles).toEqual(
      expect.arrayContaining(['subset_quality.tex', 'subset_flip.tex', 'failures.tex']),
    );
    expect(readFileSync(join(dir, 'out', 'tables', 'failures.tex'), 'utf8')).toContain(
      '\\textbackslash{}end',
    );

    const long = makeMetrics();
    long.audit.flagged = Array.from({ length: LONGTABLE_ROWS + 15 }, (_, i) => ({
      item_id: `item_${i}#${HOSTILE}`,
      reasons: [`[ZH] output_${i % 2}: length_ratio 0.0${i % 10} < 0.10`, '*LS* empty'],
    }));
    const longTable = tableToLatex(buildTables(long).find((t) => t.id === 'audit_items')!);
    expect(longTable).toContain('\\begin{longtable}');
    writeFileSync(join(dir, 'out', 'tables', 'long_audit.tex'), longTable);

    const inputs = [...tableFiles.map((f) => f.replace(/\.tex$/, '')), 'long_audit']
      .map((f) => `\\input{tables/${f}}\n\\clearpage`)
      .join('\n');
    writeFileSync(
      join(dir, 'out', 'wrapper.tex'),
      `\\documentclass{article}\n\\usepackage{${LATEX_PACKAGES.join(',')}}\n\\begin{document}\n${inputs}\n\\end{document}\n`,
    );
    const run = spawnSync(pdflatex!, ['-interaction=nonstopmode', '-halt-on-error', 'wrapper.tex'], {
      cwd: join(dir, 'out'),
      encoding: 'utf8',
      timeout: 60_000,
    });
    const log = readFileSync(join(dir, 'out', 'wrapper.log'), 'utf8');
    expect(run.status, `pdflatex failed:\n${run.stdout.slice(-3000)}`).toBe(0);
    expect(log).not.toMatch(/Missing character/);
    expect(
      readFileSync(join(dir, 'out', 'wrapper.pdf'))
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  });
});

function manifest() {
  return { config: {}, promptTemplates: {}, models: [], counts: { items: 3, requests: 8 } };
}
