// The judge report card (issue 25 §1): pick a judge model, see every experiment of the store that
// used it — its headline figures with dataset, n and 95% intervals, each linked to its results —
// and the gates it is held to, with their thresholds and where those come from. Knows no
// protocol: rows, conditions and gates come from the core's card (protocols' reportCard hooks).
// The chosen judge lives in the route's query (`#/judges?model=kind:model`), so a card can be linked to.
import { createContext, useContext, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { passes } from '../../../shared/report-card/gates';
import { cardSpeaker, type CardSpeaker } from '../../../shared/report-card/phrases';
import { formatInterval, formatValue, gateRule, gateSource } from '../../../shared/report-card/tables';
import { gateName } from '../../../shared/report-card/gates';
import type {
  CardExperiment,
  CardPhrase,
  GateResult,
  HeadlineRow,
  JudgeSummary,
  ReportCard,
  ValueUnit,
} from '../../../shared/report-card/types';
import type { CI } from '../../../shared/report/format';
import { getApi, toApiError, type ApiError } from '../api';
import { ErrorPanel } from '../components/ErrorPanel';
import { StatusBadge } from '../components/StatusBadge';
import { ProtocolName } from '../protocols/ProtocolName';
import { rendererCardText } from '../protocols/registry';
import { useFigureLanguage } from '../lib/figure-language';
import { navigate, routeHref } from '../stores/route';
import { REPORT_CARD_NS } from './i18n';
import { ReportCardDownloads } from './ReportCardDownloads';
import { GatesEditor } from './GatesEditor';
import './report-card.css';
import { PageHeader } from '../kits/PageFrame';
import { TableHead } from '../kits/ListTable';

/** The shown card's protocol words (as the core sent them), for every part of the page. */
const CardWordsContext = createContext<ReportCard['words']>(undefined);

/**
 * The card's words in the page's language, with each protocol's own: those the card carries
 * (a study without a renderer part has only these), else the registry's.
 */
function useSpeaker(): CardSpeaker {
  const lang = useFigureLanguage();
  const words = useContext(CardWordsContext);
  return useMemo(
    () => cardSpeaker(lang, (protocol) => words?.[protocol] ?? rendererCardText(protocol)),
    [lang, words],
  );
}

/**
 * Where a value or its interval is undefined the page says so and why; never a dash alone,
 * never NaN. `protocol` is whose words the note is in.
 */
function Value({
  unit,
  value,
  ci,
  note,
  protocol,
}: {
  unit: ValueUnit;
  value: number | null;
  ci: CI | null;
  note?: CardPhrase;
  protocol: string;
}) {
  const say = useSpeaker();
  const why = say.rowNote({ value, ci, note }, protocol);
  if (value === null)
    return (
      <span className="card-undefined" data-testid="card-undefined">
        {why}
      </span>
    );
  return (
    <>
      <span className="num">{formatValue(unit, value)}</span>{' '}
      <span className="card-ci" data-testid="card-ci">
        {ci ? formatInterval(unit, ci) : `(${why})`}
      </span>
      {ci && why && <div className="card-muted">{why}</div>}
    </>
  );
}

function Marks({ simulated, recorded }: { simulated: boolean; recorded: boolean }) {
  const { t } = useTranslation(REPORT_CARD_NS);
  return (
    <>
      {simulated && (
        <span className="simulated-badge" data-testid="card-simulated" title={t('simulatedHelp')}>
          {t('simulatedBadge')}
        </span>
      )}
      {recorded && (
        <span
          className="simulated-badge recorded-badge"
          data-testid="card-recorded"
          title={t('recordedHelp')}
        >
          {t('recordedBadge')}
        </span>
      )}
    </>
  );
}

function GatesTable({ gates, experiments }: { gates: GateResult[]; experiments: CardExperiment[] }) {
  const { t } = useTranslation(REPORT_CARD_NS);
  const lang = useFigureLanguage();
  const say = useSpeaker();
  return (
    <div className="table-wrap">
      <table className="datasets-table card-gates" data-testid="card-gates">
        <caption className="visually-hidden">{t('gatesTitle')}</caption>
        <TableHead
          columns={[t('gate'), t('rule'), t('status'), t('decisive'), t('experiment'), t('source')]}
        />
        <tbody>
          {gates.map((g) => {
            const d = g.decisive;
            const exp = d && experiments.find((e) => e.experimentId === d.experimentId);
            const protocol = exp?.protocol ?? '';
            return (
              <tr key={g.definition.id} data-testid={`gate-${g.definition.id}`} data-status={g.status}>
                <th scope="row">{gateName(g.definition, lang)}</th>
                <td data-testid="gate-rule">{gateRule(g.definition, lang)}</td>
                <td>
                  <span className={`badge gate-status gate-status--${g.status}`} data-testid="gate-status">
                    {t(`statuses.${g.status}`)}
                  </span>
                </td>
                <td>
                  {d ? (
                    <>
                      <Value
                        unit={g.definition.unit}
                        value={d.value}
                        ci={d.ci}
                        note={d.note}
                        protocol={protocol}
                      />
                      <span className="card-n"> n = {d.n}</span>
                      <div className="card-condition" data-testid="card-condition">
                        {say.phrase(d.condition, protocol)}
                      </div>
                      {(d.status === 'fail' || d.status === 'warn') && (
                        <div className="card-reason">
                          {t(
                            d.status === 'warn' || (d.value !== null && passes(g.definition, d.value))
                              ? 'reasonInterval'
                              : 'reasonValue',
                            {
                              threshold: formatValue(g.definition.unit, g.definition.threshold),
                            },
                          )}
                        </div>
                      )}
                    </>
                  ) : (
                    <span className="card-muted">{t('notMeasuredHelp')}</span>
                  )}
                </td>
                <td>
                  {d && (
                    <>
                      <a href={routeHref({ name: 'results', experimentId: d.experimentId })}>
                        {d.experimentName}
                      </a>
                      {exp && <Marks simulated={exp.simulated} recorded={exp.recorded} />}
                      <div className="card-muted">{d.dataset}</div>
                    </>
                  )}
                </td>
                <td className="card-source">{gateSource(g.definition, lang)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function ExperimentSection({ e }: { e: CardExperiment }) {
  const { t } = useTranslation(REPORT_CARD_NS);
  const say = useSpeaker();
  const measure = (r: HeadlineRow) => say.measure(r, e.protocol);
  return (
    <section
      className="results-section card-experiment"
      data-testid="card-experiment"
      data-experiment-id={e.experimentId}
    >
      <header className="results-section__head">
        <div>
          <h3 className="results-section__title">
            <a
              href={routeHref({ name: 'results', experimentId: e.experimentId })}
              data-testid="card-experiment-link"
            >
              {e.name}
            </a>
            <Marks simulated={e.simulated} recorded={e.recorded} /> <StatusBadge status={e.status} />
          </h3>
          <p className="results-section__help">
            <ProtocolName id={e.protocol} fallback={say.protocolTitle(e)} /> · {t('dataset')}: {e.dataset} ·{' '}
            {e.items} {t('items')} · {t('labels')}: {e.labels.join(', ')}
          </p>
        </div>
        <a className="btn btn--small" href={routeHref({ name: 'results', experimentId: e.experimentId })}>
          {t('openResults')}
        </a>
      </header>
      {e.note && <p className="empty-note">{say.phrase(e.note, e.protocol)}</p>}
      {e.rows.length > 0 && (
        <div className="table-wrap">
          <table className="datasets-table" data-testid="card-rows">
            <caption className="visually-hidden">
              {e.name} — {t('rowsTitle')}
            </caption>
            <thead>
              <tr>
                <th scope="col">{t('measure')}</th>
                {e.labels.length > 1 && <th scope="col">{t('judge')}</th>}
                <th scope="col">{t('condition')}</th>
                <th scope="col" className="num">
                  n
                </th>
                <th scope="col">
                  {t('value')} · {t('interval')}
                </th>
              </tr>
            </thead>
            <tbody>
              {e.rows.map((r, i) => (
                <tr key={i} data-testid="card-row" data-measure={r.measure}>
                  <th scope="row">{measure(r)}</th>
                  {e.labels.length > 1 && <td>{r.judge}</td>}
                  <td data-testid="card-condition">{say.phrase(r.condition, e.protocol)}</td>
                  <td className="num">{r.n}</td>
                  <td>
                    <Value unit={r.unit} value={r.value} ci={r.ci} note={r.note} protocol={e.protocol} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export function ReportCardPage({ query }: { query: Record<string, string> }) {
  const { t } = useTranslation(REPORT_CARD_NS);
  const [judges, setJudges] = useState<JudgeSummary[] | null>(null);
  const [listError, setListError] = useState<ApiError | null>(null);
  const [card, setCard] = useState<ReportCard | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const model = query.model ?? '';
  const [version, setVersion] = useState(0);

  useEffect(() => {
    getApi()
      .call('judges.list')
      .then(setJudges)
      .catch((e: unknown) => setListError(toApiError(e)));
  }, []);
  useEffect(() => {
    if (!model) return;
    let live = true;
    setCard(null);
    setError(null);
    getApi()
      .call('judges.reportCard', { model })
      .then((c) => live && setCard(c))
      .catch((e: unknown) => live && setError(toApiError(e)));
    return () => {
      live = false;
    };
  }, [model, version]);

  const chosen = judges?.find((j) => j.key === model);
  return (
    <div className="page">
      <PageHeader title={t('pageTitle')} intro={t('intro')} />
      {listError ? (
        <ErrorPanel title={t('listFailed')} error={listError} />
      ) : judges === null ? (
        <p className="empty-note">{t('loading')}</p>
      ) : judges.length === 0 ? (
        <p className="empty-note" data-testid="card-no-judges">
          {t('noJudges')}
        </p>
      ) : (
        <form className="card-choose" onSubmit={(e) => e.preventDefault()}>
          <label className="field">
            <span className="field__label">{t('chooseJudge')}</span>
            <select
              data-testid="card-judge"
              value={model}
              onChange={(e) =>
                navigate({ name: 'judges', query: e.target.value ? { model: e.target.value } : {} })
              }
            >
              <option value="">{t('choose')}</option>
              {judges.map((j) => (
                <option key={j.key} value={j.key}>
                  {j.key} — {t('experimentsCount', { count: j.experiments })}
                  {j.simulated ? ` · ${t('simulatedBadge')}` : ''}
                  {j.recorded ? ` · ${t('recordedBadge')}` : ''}
                </option>
              ))}
            </select>
          </label>
        </form>
      )}
      {error && <ErrorPanel title={t('failed')} error={error} />}
      {model && !card && !error && <p className="empty-note">{t('loading')}</p>}
      {card && (
        <CardWordsContext.Provider value={card.words}>
          <div className="report-card" data-testid="report-card">
            <header className="results-section__head">
              <h2 className="card-judge" data-testid="card-title">
                {card.judge.kind}:{card.judge.model}{' '}
                <Marks
                  simulated={chosen?.simulated ?? card.experiments.some((e) => e.simulated)}
                  recorded={chosen?.recorded ?? card.experiments.some((e) => e.recorded)}
                />
              </h2>
              <ReportCardDownloads model={model} />
            </header>
            <section className="results-section">
              <h2 className="results-section__title">{t('gatesTitle')}</h2>
              <p className="results-section__help">
                {t('gatesCaption')} {t('gatesHelp')}
              </p>
              <GatesTable gates={card.gates} experiments={card.experiments} />
              <GatesEditor onSaved={() => setVersion((v) => v + 1)} />
            </section>
            <h2 className="results-section__title">{t('rowsTitle')}</h2>
            <p className="results-section__help">{t('rowsCaption')}</p>
            {card.experiments.length === 0 && <p className="empty-note">{t('noExperiments')}</p>}
            {card.experiments.map((e) => (
              <ExperimentSection key={e.experimentId} e={e} />
            ))}
          </div>
        </CardWordsContext.Provider>
      )}
    </div>
  );
}
