// Compare two runs (issue 14, item 7): pick A and B (experiment, optionally a judge of it),
// see the report kit's comparison table, export it as CSV/XLSX/LaTeX. Protocol-neutral: the
// core pairs what the protocol's `comparable` hook grades. The choice lives in the route's
// query, so a comparison can be linked to.
import { useEffect, useState } from 'react';
import { undefinedTextZh } from '../../../shared/report/undefined-zh';
import { useTranslation } from 'react-i18next';
import type { CompareResult, CompareSide } from '../../../shared/compare';
import type { TableColumn } from '../../../shared/report/table';
import { getApi, toApiError, type ApiError } from '../api';
import { ErrorPanel } from '../components/ErrorPanel';
import { downloadBase64 } from '../results/download';
import { SortableTable } from '../results/SortableTable';
import { useExperiments } from '../stores/experiments';
import { navigate, routeHref } from '../stores/route';
import { COMPARE_NS } from './i18n';
import '../results/results.css';
import './compare.css';
import { PageHeader } from '../kits/PageFrame';
import { Button } from '../components/Button';

const FORMATS = [
  { label: 'CSV', format: 'csv' },
  { label: 'XLSX', format: 'xlsx' },
  { label: 'LaTeX', format: 'tex' },
] as const;

/** The sides a route's query names (`a`, `b`: experiment ids; `ja`, `jb`: judge labels). */
export function sidesOf(query: Record<string, string>): { a: CompareSide; b: CompareSide } | null {
  const a = Number(query.a);
  const b = Number(query.b);
  if (!Number.isInteger(a) || a <= 0 || !Number.isInteger(b) || b <= 0) return null;
  return {
    a: { experimentId: a, ...(query.ja ? { judge: query.ja } : {}) },
    b: { experimentId: b, ...(query.jb ? { judge: query.jb } : {}) },
  };
}

export function ComparePage({ query }: { query: Record<string, string> }) {
  const { t, i18n } = useTranslation(COMPARE_NS);
  const { experiments, refresh } = useExperiments();
  const [draft, setDraft] = useState(query);
  const [result, setResult] = useState<CompareResult | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const sides = sidesOf(query);
  const key = JSON.stringify(sides);

  useEffect(() => {
    void refresh();
  }, [refresh]);
  useEffect(() => setDraft(query), [key]);
  useEffect(() => {
    if (!sides) return;
    let live = true;
    setResult(null);
    setError(null);
    setBusy('compare');
    getApi()
      .call('experiments.compare', sides)
      .then((r) => live && setResult(r))
      .catch((e: unknown) => live && setError(toApiError(e)))
      .finally(() => live && setBusy(null));
    return () => {
      live = false;
    };
  }, [key]);

  const expA = experiments.find((e) => e.id === Number(draft.a));
  const candidatesB = experiments.filter((e) => !expA || e.protocol === expA.protocol);
  const expB = experiments.find((e) => e.id === Number(draft.b));
  const set = (patch: Record<string, string>) => setDraft((d) => ({ ...d, ...patch }));

  const download = async (format: 'csv' | 'xlsx' | 'tex', label: string) => {
    if (!sides) return;
    setBusy(label);
    try {
      downloadBase64(await getApi().call('experiments.compareFile', { ...sides, format }));
    } catch (e) {
      setError(toApiError(e));
    } finally {
      setBusy(null);
    }
  };
  const header = (c: TableColumn) => t(`col.${c.key}`, { defaultValue: c.header });

  const judgeSelect = (side: 'a' | 'b', exp: typeof expA) => (
    <label className="field">
      <span className="field__label">{t('judge')}</span>
      <select
        data-testid={`compare-judge-${side}`}
        value={draft[`j${side}`] ?? ''}
        onChange={(e) => set({ [`j${side}`]: e.target.value })}
      >
        <option value="">{t('sharedJudges')}</option>
        {(exp?.judges ?? []).map((j) => (
          <option key={j} value={j}>
            {j}
          </option>
        ))}
      </select>
    </label>
  );

  return (
    <div className="page">
      <PageHeader
        title={t('title')}
        intro={t('intro')}
        tools={
          <a className="btn btn--ghost" href={routeHref({ name: 'experiments' })}>
            {t('back')}
          </a>
        }
      />
      <form
        className="compare-form"
        data-testid="compare-form"
        onSubmit={(e) => {
          e.preventDefault();
          navigate({ name: 'compare', query: draft });
        }}
      >
        {(['a', 'b'] as const).map((side) => (
          <fieldset key={side} className="compare-form__side">
            <legend>{t(side === 'a' ? 'sideA' : 'sideB')}</legend>
            <label className="field">
              <span className="field__label">{t('experiment')}</span>
              <select
                data-testid={`compare-exp-${side}`}
                value={draft[side] ?? ''}
                onChange={(e) => set({ [side]: e.target.value, [`j${side}`]: '' })}
              >
                <option value="">{t('choose')}</option>
                {(side === 'a' ? experiments : candidatesB).map((e) => (
                  <option key={e.id} value={String(e.id)}>
                    {e.name} ({e.id})
                  </option>
                ))}
              </select>
            </label>
            {judgeSelect(side, side === 'a' ? expA : expB)}
          </fieldset>
        ))}
        <div className="compare-form__go">
          <button type="submit" className="btn btn--primary" disabled={!draft.a || !draft.b}>
            {t('compare')}
          </button>
        </div>
      </form>
      {experiments.length > 0 && experiments.length < 2 && experiments[0].judges.length < 2 && (
        <p className="empty-note">{t('needTwo')}</p>
      )}
      {busy === 'compare' && <p className="empty-note">{t('loading')}</p>}
      {error && <ErrorPanel title={t('failed')} error={error} />}
      {result && (
        <section className="results-section" data-testid="compare-result">
          <header className="results-section__head">
            <div>
              <h2 className="results-section__title">{t('tableTitle')}</h2>
              <p className="results-section__help">
                A: {result.a.name} · B: {result.b.name}. {t('tableHelp')}
              </p>
            </div>
            <div className="results-export">
              {FORMATS.map((f) => (
                <Button
                  key={f.label}
                  className="btn btn--small"
                  disabled={busy !== null}
                  onClick={() => void download(f.format, f.label)}
                >
                  {f.label}
                </Button>
              ))}
            </div>
          </header>
          <SortableTable
            columns={result.table.columns}
            rows={result.table.rows}
            caption={result.table.title}
            headerText={header}
            cellText={(_c, _row, text) => (i18n.language.startsWith('zh') ? undefinedTextZh(text) : text)}
            testId="table-compare"
          />
        </section>
      )}
    </div>
  );
}
