import { useEffect, useMemo, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Breadcrumb, LoadState, PageHeader } from '../kits/PageFrame';
import { matchVerdicts, type VerdictFilter, type VerdictRow } from '../../../shared/verdicts';
import { ErrorPanel } from '../components/ErrorPanel';
import { ItemViewer } from '../components/ItemViewer';
import { TextBlock } from '../components/TextBlock';
import { ComparedTexts } from './ComparedTexts';
import { routeHref } from '../stores/route';
import { filterOfQuery, VERDICTS_PAGE } from './links';
import { useItemOf, useVerdicts } from './useVerdicts';
import './i18n';
import './verdicts.css';
import { TableScroll } from '../components/TableScroll';
import { HeadCells } from '../kits/ListTable';
import { Button } from '../components/Button';

interface VerdictBrowserPageProps {
  experimentId: number;
  /** `table` (the cell's), `f.<field>` filters, `excludeFlagged`, `open` (the opened row's position). */
  query: Record<string, string>;
  onQuery: (query: Record<string, string>) => void;
}

/**
 * A field's words: known field names and answer words translated, anything else as stored. A
 * verdict of several words (a pair's "tie → 1", a question's repeats "A tie A") is translated
 * word by word.
 */
function useWords() {
  const { t, i18n } = useTranslation('verdicts');
  const has = (group: 'fields' | 'values', key: string) => i18n.exists(`${group}.${key}`, { ns: 'verdicts' });
  const known = (group: 'fields' | 'values', key: string) => (has(group, key) ? t(`${group}.${key}`) : key);
  const value = (v: string) =>
    has('values', v) || !v.includes(' ')
      ? known('values', v)
      : v
          .split(' ')
          .map((w) => known('values', w))
          .join(' ');
  return { field: (k: string) => known('fields', k), value };
}

/**
 * The verdicts behind one number of a results table (issue 26 item 4), for every protocol: the
 * cell's filter arrives in the address, each field can be narrowed or widened here, and a row
 * opens the item with the judge's verdict and reason. Model text is only ever a text node.
 */
export function VerdictBrowserPage({ experimentId, query, onQuery }: VerdictBrowserPageProps) {
  const { t } = useTranslation(['verdicts', 'translation']);
  const words = useWords();
  const excludeFlagged = query.excludeFlagged === '1';
  const { list, name, error, retry } = useVerdicts(experimentId, excludeFlagged);
  const filter = useMemo(() => filterOfQuery(query), [query]);
  const rows = useMemo(() => (list ? matchVerdicts(list.rows, filter) : []), [list, filter]);
  const openIndex = query.open !== undefined && /^\d+$/.test(query.open) ? Number(query.open) : null;
  const opened = openIndex !== null ? (rows[openIndex] ?? null) : null;

  const setFilter = (next: VerdictFilter) => {
    const q: Record<string, string> = {};
    for (const [k, v] of Object.entries(query)) if (!k.startsWith('f.') && k !== 'open') q[k] = v;
    for (const [k, v] of Object.entries(next)) q[`f.${k}`] = v;
    onQuery(q);
  };
  const setOpen = (i: number | null) => {
    const q = { ...query };
    delete q.open;
    onQuery(i === null ? q : { ...q, open: String(i) });
  };

  // Each field's values in the whole list, so a filter can be widened again.
  const options = useMemo(() => {
    const out = new Map<string, string[]>();
    for (const f of list?.fields ?? [])
      out.set(f, [...new Set((list?.rows ?? []).map((r) => r.fields[f]).filter((v) => v !== undefined))]);
    return out;
  }, [list]);

  return (
    <div className="page verdicts-page" data-testid="verdicts-page">
      <Breadcrumb current={t('title')}>
        <a href={routeHref({ name: 'experiments' })}>{t('experiments.title', { ns: 'translation' })}</a>
        <a href={routeHref({ name: 'experiment', experimentId })}>{name ?? '…'}</a>
        <a href={routeHref({ name: 'results', experimentId, excludeFlagged })} data-testid="verdicts-back">
          {t('results')}
        </a>
      </Breadcrumb>
      <PageHeader
        title={t('title')}
        intro={
          <>
            {t('intro')}
            {excludeFlagged ? ` ${t('excluded')}` : ''}
          </>
        }
      />

      {(error || !list) && (
        <LoadState
          error={error}
          failed={t('loadFailed')}
          loading={t('loading')}
          onRetry={retry}
          testId="verdicts-error"
        />
      )}
      {list && (
        <>
          <fieldset className="verdicts-filters" data-testid="verdict-filters">
            <legend>{t('filters')}</legend>
            {list.fields.map((f) => (
              <label key={f} className="verdicts-filters__field">
                {words.field(f)}
                <select
                  data-testid={`verdict-filter-${f}`}
                  value={filter[f] ?? ''}
                  onChange={(e) => {
                    const next = { ...filter };
                    if (e.target.value === '') delete next[f];
                    else next[f] = e.target.value;
                    setFilter(next);
                  }}
                >
                  <option value="">{t('all')}</option>
                  {(options.get(f) ?? []).map((v) => (
                    <option key={v} value={v}>
                      {words.value(v)}
                    </option>
                  ))}
                </select>
              </label>
            ))}
            <Button className="btn btn--ghost" onClick={() => setFilter({})}>
              {t('clear')}
            </Button>
          </fieldset>
          <p className="verdicts-count" data-testid="verdict-count" data-count={rows.length}>
            {t('count', { count: rows.length })}
          </p>
          {opened ? (
            <VerdictDetail
              row={opened}
              index={openIndex!}
              total={rows.length}
              backHref={routeHref({
                name: 'experiment-page',
                experimentId,
                page: VERDICTS_PAGE,
                query: Object.fromEntries(Object.entries(query).filter(([k]) => k !== 'open')),
              })}
              onStep={(i) => setOpen(i)}
              onClose={() => setOpen(null)}
            />
          ) : (
            <VerdictTable rows={rows} fields={list.fields} onOpen={setOpen} />
          )}
        </>
      )}
    </div>
  );
}

function correctText(t: (k: string) => string, correct: boolean | null): string {
  return correct === null ? t('ungraded') : correct ? t('yes') : t('no');
}

function VerdictTable({
  rows,
  fields,
  onOpen,
}: {
  rows: VerdictRow[];
  fields: string[];
  onOpen: (i: number) => void;
}) {
  const { t } = useTranslation('verdicts');
  const words = useWords();
  if (rows.length === 0) return <p className="empty-note">{t('none')}</p>;
  const onKey = (e: KeyboardEvent<HTMLTableRowElement>, i: number) => {
    if (e.key === 'Enter') onOpen(i);
  };
  return (
    <>
      <p className="hint">{t('listHint')}</p>
      <TableScroll className="results-table__scroll" label={t('title')}>
        <table className="results-table verdicts-table" data-testid="verdict-list">
          <thead>
            <tr>
              <th scope="col">{t('item')}</th>
              {fields.map((f) => (
                <th key={f} scope="col">
                  {words.field(f)}
                </th>
              ))}
              <HeadCells
                columns={[{ label: t('verdict') }, { label: t('correct') }, { label: t('reason') }]}
              />
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr
                key={i}
                tabIndex={0}
                className="verdicts-table__row"
                data-testid="verdict-row"
                onClick={() => onOpen(i)}
                onKeyDown={(e) => onKey(e, i)}
              >
                <td>{r.sourceId}</td>
                {fields.map((f) => (
                  <td key={f}>{words.value(r.fields[f] ?? '')}</td>
                ))}
                <td data-testid="verdict-value">{words.value(r.verdict)}</td>
                <td>{correctText(t, r.correct)}</td>
                {/* Model text: a text node, cut to one line here; the opened row shows it whole. */}
                <td className="verdicts-table__reason" dir="auto">
                  {r.reason}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </>
  );
}

function VerdictDetail({
  row,
  index,
  total,
  backHref,
  onStep,
  onClose,
}: {
  row: VerdictRow;
  index: number;
  total: number;
  backHref: string;
  onStep: (i: number) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('verdicts');
  const words = useWords();
  const { item, error } = useItemOf(row.itemId);
  // The item view's keys (its hint names them): j next, k previous, Esc back to the list.
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      const el = e.target as HTMLElement | null;
      if (e.altKey || e.ctrlKey || e.metaKey || (el && ['INPUT', 'SELECT', 'TEXTAREA'].includes(el.tagName)))
        return;
      if (e.key === 'j' && index < total - 1) onStep(index + 1);
      else if (e.key === 'k' && index > 0) onStep(index - 1);
      else if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [index, total, onStep, onClose]);
  return (
    <div className="verdicts-detail" data-testid="verdict-detail">
      <dl className="verdicts-detail__facts">
        {Object.entries(row.fields).map(([k, v]) => (
          <div key={k}>
            <dt>{words.field(k)}</dt>
            <dd>{words.value(v)}</dd>
          </div>
        ))}
        <div>
          <dt>{t('verdict')}</dt>
          <dd data-testid="verdict-detail-value">{words.value(row.verdict)}</dd>
        </div>
        <div>
          <dt>{t('correct')}</dt>
          <dd>{correctText(t, row.correct)}</dd>
        </div>
      </dl>
      <h2 className="verdicts-detail__head">{t('reason')}</h2>
      <TextBlock text={row.reason} testId="verdict-reason" />
      {row.compared && <ComparedTexts compared={row.compared} />}
      {row.shown !== null && (
        <>
          <h2 className="verdicts-detail__head">{t('shown')}</h2>
          <TextBlock text={row.shown} testId="verdict-shown" />
        </>
      )}
      {error && <ErrorPanel title={t('itemFailed')} error={error} />}
      {item && (
        <ItemViewer
          item={item}
          index={index}
          total={total}
          backHref={backHref}
          onPrevious={index > 0 ? () => onStep(index - 1) : undefined}
          onNext={index < total - 1 ? () => onStep(index + 1) : undefined}
        />
      )}
    </div>
  );
}
