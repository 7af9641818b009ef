// The agreement dashboard: agreement among people (with the warning below 0.6), judge vs human,
// by band and category, the calibration mapping, the two figures, and the decision panel with an
// editable threshold. Every number comes from the core's report (annotation.agreement), the
// same one the zip export writes.
import { LineChart, ScatterChart } from 'echarts/charts';
import * as echarts from 'echarts/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AgreementReport, JudgeHumanRow } from '../../../shared/annotation/agreement';
import { agreementFigures, agreementTables, ci, num } from '../../../shared/annotation/report';
import { formatCell, type Table } from '../../../shared/report/table';
import { AGREEMENT_FIGURES_ZH } from '../../../shared/annotation/figure-zh';
import { localizeFigure } from '../../../shared/report/figure-i18n';
import { getApi } from '../api';
import { figureLanguageOf, useExportLanguage } from '../lib/figure-language';
import { downloadBase64 } from '../results/download';
import { EChart } from '../results/EChart';
import { ExportLanguage } from '../results/ExportLanguage';
import { ApplyMapping } from './ApplyMapping';
import './i18n';
import { Button } from '../components/Button';

// The scatter with its mapping curve needs these two chart types beside the app's bars.
echarts.use([ScatterChart, LineChart]);

const WORD_COLUMNS = new Set(['variant', 'decision', 'band', 'warning', 'method', 'result']);
/** Interval columns whose "undefined (reason)" text is translated. */
const INTERVAL_COLUMNS = new Set([
  'rho_ci',
  'kappa_ci',
  'icc_ci',
  'gwet_ci',
  'est_ci',
  'sensitivity_ci',
  'specificity_ci',
]);

/** The estimates' note ("clipped…; sensitivity …, specificity …; undefined (…)"), part by part. */
function noteText(text: string, t: (key: string, options?: Record<string, unknown>) => string): string {
  return text
    .split('; ')
    .map((part) => {
      const m = /^sensitivity (\S+), specificity (\S+)$/.exec(part);
      const few = /^(\d+) human labels of the rarer verdict, under (\d+): the interval may run short$/.exec(
        part,
      );
      return m
        ? t('judgePeople.sensSpec', { sens: m[1], spec: m[2] })
        : few
          ? t('judgePeople.fewRarer', { k: few[1], min: few[2] })
          : t(`cell.${part}`, { defaultValue: part });
    })
    .join('；');
}

/** "p1: p = 0.0012, won; p2: 12 items, skipped": names stay, the words are translated. */
function perAnnotatorText(text: string, lang: string): string {
  if (!lang.startsWith('zh') || !text) return text;
  return text
    .split('; ')
    .map((part) => part.replace(/, won$/, '，胜出').replace(/: (\d+) items, skipped$/, '：$1 个条目，未检验'))
    .join('；');
}

/** The quantity the corrected estimates are about, in the UI's language. */
function targetText(
  report: AgreementReport,
  t: (key: string, options?: Record<string, unknown>) => string,
): string {
  const target = report.judge_and_people?.target;
  return target ? t(`judgePeople.target.${target.kind}`, { positive: target.positive }) : '';
}

/**
 * A table's caption in the UI's language: the report's English, or in 中文 the same sentence
 * with the report's numbers (the export keeps the English one).
 */
function captionText(
  table: Table,
  report: AgreementReport,
  lang: string,
  t: (key: string, options?: Record<string, unknown>) => string,
): string {
  if (!lang.startsWith('zh')) return table.caption;
  const score = report.scale.kind === 'score';
  const ia = report.inter_annotator;
  const params = {
    complete: ia.n_complete,
    items: ia.n_items,
    level: t(`caption.${ia.alpha_level}`),
    weights: t(score ? 'caption.quadratic' : 'caption.unweighted'),
    reference: t(score ? 'caption.median' : 'caption.majority'),
    threshold: report.threshold,
    gwetKind: t(report.scale.kind === 'label' ? 'caption.ac1' : 'caption.ac2'),
    target: targetText(report, t),
    epsilon: report.judge_and_people?.judges[0]?.alt_test.epsilon ?? '',
    positive: report.scale.kind === 'label' ? (report.scale.positive ?? '') : '',
  };
  const text = t(`caption.${table.id}`, { ...params, defaultValue: table.caption });
  return table.id === 'inter_annotator' && report.scale.kind === 'preference'
    ? `${text}${t('caption.preference')}`
    : text;
}

/** A report table; headers and cell words translated where the language has them (else as in the report). */
function PlainTable({ table, report }: { table: Table; report: AgreementReport }) {
  const { t, i18n } = useTranslation('annotation');
  // Only columns of fixed words; judge and category names stay as given.
  const cell = (key: string, text: string) =>
    key === 'note' && text
      ? noteText(text, t)
      : key === 'per_annotator'
        ? perAnnotatorText(text, i18n.language)
        : key === 'who' && text === 'people'
          ? t('cell.people', { defaultValue: text })
          : (WORD_COLUMNS.has(key) || (INTERVAL_COLUMNS.has(key) && text.startsWith('undefined'))) && text
            ? t(`cell.${text}`, { defaultValue: text })
            : text;
  return (
    <div className="results-table__scroll agreement__table">
      <table className="results-table" data-testid={`agreement-table-${table.id}`}>
        <thead>
          <tr>
            {table.columns.map((c) => (
              <th key={c.key} className={c.align === 'r' ? 'num' : undefined}>
                {t(`col.${c.key}`, { defaultValue: c.header })}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row, i) => (
            <tr key={i}>
              {table.columns.map((c) => (
                <td key={c.key} className={c.align === 'r' ? 'num' : undefined} data-key={c.key}>
                  {cell(c.key, formatCell(c, row[c.key]))}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <p className="small muted agreement__caption" data-testid={`agreement-caption-${table.id}`}>
        {captionText(table, report, i18n.language, t)}
      </p>
    </div>
  );
}

export function DecisionPanel({
  rows,
  threshold,
  peopleAgreePoorly = false,
}: {
  rows: JudgeHumanRow[];
  threshold: number;
  /**
   * People's own agreement is below the floor: no judge can be validated against them, so no
   * row advises rating more items or replacing people (issue 38 item 10).
   */
  peopleAgreePoorly?: boolean;
}) {
  const { t } = useTranslation('annotation');
  return (
    <section className="decision" data-testid="decision-panel" aria-labelledby="decision-title">
      <h2 id="decision-title">{t('decision.title')}</h2>
      {rows.map((r) => (
        <div
          key={`${r.judge}/${r.variant}`}
          className={`decision__row decision__row--${r.decision}`}
          data-decision={r.decision}
          data-judge={r.judge}
        >
          <p className="decision__judge">
            <strong>{r.judge}</strong>
            {r.variant !== 'raw' && <span className="muted"> ({r.variant})</span>}
            <span className="muted">
              {' '}
              ·{' '}
              {t('decision.rho', {
                rho: num(r.spearman_rho),
                ci: t(`cell.${ci(r.spearman_rho_ci, r.spearman_rho_ci_undefined_reason)}`, {
                  defaultValue: ci(r.spearman_rho_ci, r.spearman_rho_ci_undefined_reason),
                }),
                n: r.n,
              })}
            </span>
          </p>
          <p>
            {r.decision === 'undefined' && r.decision_reason
              ? t(`decision.undefined.${r.decision_reason}`, { n: r.n })
              : peopleAgreePoorly
                ? t('decision.peopleFirst')
                : r.decision === 'undecided' && r.more_items === null
                  ? t('decision.undecidedNoEstimate')
                  : t(`decision.${r.decision}`, { threshold, more: r.more_items })}
          </p>
          {r.decision_warning && (
            <p className="notice notice--warning" role="alert" data-testid="decision-warning">
              {t('decision.perfectWarning', { rho: num(r.spearman_rho), n: r.n })}
            </p>
          )}
          {r.more_items !== null && !peopleAgreePoorly && (
            <p className="small muted" data-testid="decision-more-rule">
              {t('decision.moreRule', { threshold })}
            </p>
          )}
        </div>
      ))}
    </section>
  );
}

export function AgreementDashboard({ setId }: { setId: number }) {
  const { t, i18n } = useTranslation('annotation');
  const [threshold, setThreshold] = useState(0.8);
  const [epsilon, setEpsilon] = useState(0.2);
  const exportLang = useExportLanguage();
  const [report, setReport] = useState<AgreementReport | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    void getApi()
      .call('annotation.agreement', { setId, threshold, epsilon })
      .then(
        (r) => live && setReport(r),
        (e: Error) => live && setError(e.message),
      );
    return () => {
      live = false;
    };
  }, [setId, threshold, epsilon]);

  if (error) return <p className="text-danger">{error}</p>;
  if (!report) return <p className="muted">{t('loading')}</p>;
  const tables = agreementTables(report);
  const byId = new Map(tables.map((x) => [x.id, x]));
  const ia = report.inter_annotator;
  const measure =
    ia.primary === 'icc21' ? 'ICC(2,1)' : ia.primary === 'fleiss_kappa' ? 'Fleiss κ' : 'Krippendorff α';
  return (
    <div className="agreement" data-testid="agreement-dashboard">
      <div className="agreement__tools">
        <label className="agreement__threshold">
          {t('dash.threshold')}{' '}
          <input
            type="number"
            min={0}
            max={1}
            step={0.05}
            value={threshold}
            data-testid="agreement-threshold"
            onChange={(e) => {
              const v = Number(e.target.value);
              if (Number.isFinite(v) && v >= -1 && v <= 1) setThreshold(v);
            }}
          />
        </label>
        <label className="agreement__threshold" title={t('dash.epsilonHelp')}>
          {t('dash.epsilon')}{' '}
          <input
            type="number"
            min={0}
            max={1}
            step={0.05}
            value={epsilon}
            data-testid="agreement-epsilon"
            onChange={(e) => {
              const v = Number(e.target.value);
              if (Number.isFinite(v) && v >= 0 && v <= 1) setEpsilon(v);
            }}
          />
        </label>
        <Button
          className="btn"
          onClick={() =>
            void getApi()
              .call('annotation.exportZip', { setId, threshold, epsilon, lang: exportLang })
              .then(downloadBase64)
          }
        >
          {t('dash.exportZip')}
        </Button>
        <ExportLanguage />
      </div>
      {report.judge_human.length > 0 && (
        <DecisionPanel
          rows={report.judge_human}
          threshold={report.threshold}
          peopleAgreePoorly={ia.warning}
        />
      )}
      <section>
        <h2>{t('dash.people')}</h2>
        {ia.warning && (
          <p className="notice notice--warning" role="alert" data-testid="people-warning">
            {t('dash.peopleWarning', { measure, value: num(ia.primary_value) })}
          </p>
        )}
        <PlainTable report={report} table={byId.get('inter_annotator')!} />
      </section>
      {byId.has('gwet') && (
        <section>
          <h2>{t('dash.gwet')}</h2>
          <PlainTable report={report} table={byId.get('gwet')!} />
        </section>
      )}
      {report.judge_human.length > 0 && (
        <>
          <section>
            <h2>{t('dash.judgeHuman')}</h2>
            <PlainTable report={report} table={byId.get('judge_human')!} />
          </section>
          <section>
            <h2>{t('dash.bands')}</h2>
            <PlainTable report={report} table={byId.get('bands')!} />
          </section>
          <section>
            <h2>{t('dash.categories')}</h2>
            <PlainTable report={report} table={byId.get('categories')!} />
          </section>
          {byId.has('calibration') && (
            <section>
              <h2>{t('dash.calibration')}</h2>
              <PlainTable report={report} table={byId.get('calibration')!} />
              <ApplyMapping
                setId={setId}
                judges={[...new Set(report.calibration_mapping.map((m) => m.judge))]}
              />
            </section>
          )}
          {byId.has('estimates') && (
            <section data-testid="judge-people-estimates">
              <h2>{t('dash.estimates')}</h2>
              <p className="small muted">{t('dash.estimatesIntro', { target: targetText(report, t) })}</p>
              <PlainTable report={report} table={byId.get('estimates')!} />
            </section>
          )}
          {byId.has('alt_test') && (
            <section>
              <h2>{t('dash.altTest')}</h2>
              <PlainTable report={report} table={byId.get('alt_test')!} />
            </section>
          )}
          {byId.has('check_accuracy') && (
            <section data-testid="check-accuracy">
              <h2>{t('dash.checkAccuracy')}</h2>
              <PlainTable report={report} table={byId.get('check_accuracy')!} />
            </section>
          )}
          <section>
            <h2>{t('dash.charts')}</h2>
            <div className="agreement__charts">
              {agreementFigures(report)
                .map((f) => localizeFigure(f, figureLanguageOf(i18n.language), [AGREEMENT_FIGURES_ZH]))
                .map((f) => (
                  <EChart key={f.id} spec={f} label={f.title} />
                ))}
            </div>
          </section>
        </>
      )}
    </div>
  );
}
