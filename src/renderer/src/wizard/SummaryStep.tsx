import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { CostEstimate, TierEstimate } from '../../../shared/experiments';
import { ErrorPanel } from '../components/ErrorPanel';
import {
  batchCapable,
  buildConfig,
  protocolOf,
  stepOfField,
  validateStep,
  wizardPluginOf,
} from '../lib/experiment-config';
import { getRendererProtocol, protocolNamespaces } from '../protocols/registry';
import { isPresetId, presetOf } from '../lib/providers';
import { useFormat } from '../lib/useFormat';
import { useDatasets } from '../stores/datasets';
import { useWizard } from '../stores/wizard';
import { PowerPlanSection } from './PowerPlanSection';
import { PreregisterSection } from './PreregisterSection';
import { PriceEditor } from './PriceEditor';
import { useWizardSteps } from './steps';
import { TableScroll } from '../components/TableScroll';
import { TableHead } from '../kits/ListTable';
import { Button } from '../components/Button';

/** A row's provider (a preset, or its `-batch` twin) is the built-in simulated one. */
function simulatedProvider(provider: string): boolean {
  const preset = provider.replace(/-batch$/, '');
  return isPresetId(preset) && presetOf(preset).kind === 'simulated';
}

/** Models without a price that really cost something (simulated ones are free). */
function unpricedReal(estimate: CostEstimate): string[] {
  const simulated = new Set(estimate.rows.filter((r) => simulatedProvider(r.provider)).map((r) => r.model));
  return estimate.unpricedModels.filter((m) => !simulated.has(m));
}

/** Per model, what is left at the standard rate, through a Batch API, on flex and on one's own cluster. */
export function TierTable({ estimate, protocol }: { estimate: CostEstimate; protocol?: string }) {
  const { t } = useTranslation();
  const f = useFormat();
  const kindNs = protocolNamespaces(protocol === undefined ? undefined : getRendererProtocol(protocol));
  // Who, in the words the estimate table above uses.
  const who = (x: { role: string; label: string }) =>
    x.role === 'transformer'
      ? t('wizard.summary.transformer')
      : x.role === 'judge'
        ? x.label
        : t(`estimateRoles.${x.label}`, { ns: kindNs, defaultValue: x.label });
  const tiers = (estimate.tiers ?? []).filter((x) => x.calls > 0 && !simulatedProvider(x.provider));
  if (!tiers.length) return null;
  const cost = (usd: number, priced: boolean) => (priced ? f.usd(usd) : t('wizard.summary.unpriced'));
  const time = (minutes: number) =>
    minutes < 1
      ? t('wizard.summary.tiers.underMinute')
      : t('wizard.summary.tiers.minutes', { duration: f.duration(minutes * 60) });
  // The tier the config sends on, set in the provider's card: marked in words, not by colour alone.
  const chosen = (x: TierEstimate, tier: 'standard' | 'batch' | 'flex') =>
    x.chosen === tier ? (
      <>
        {' '}
        <strong className="small" data-testid="tier-chosen">
          {t('wizard.summary.tiers.chosen')}
        </strong>
      </>
    ) : null;
  return (
    <div className="estimate-tiers" data-testid="estimate-tiers">
      <TableScroll className="table-wrap" label={t('wizard.summary.tiers.title')}>
        <table className="datasets-table estimate-table">
          <caption>{t('wizard.summary.tiers.title')}</caption>
          <TableHead
            columns={[
              t('wizard.summary.tiers.model'),
              t('wizard.summary.tiers.standard'),
              t('wizard.summary.tiers.batch'),
              t('wizard.summary.tiers.flex'),
              t('wizard.summary.tiers.cluster'),
            ]}
          />
          <tbody>
            {tiers.map((x) => (
              <tr key={x.label} data-testid="estimate-tier-row">
                <td>
                  {who(x)} <span className="mono small">{x.model}</span>
                </td>
                <td data-testid="tier-standard">
                  {cost(x.standard.usd, x.priced)} · {time(x.standard.minutes)}
                  {chosen(x, 'standard')}
                </td>
                <td data-testid="tier-batch">
                  {x.batch
                    ? `${cost(x.batch.usd, x.priced)} · ${t('wizard.summary.tiers.batchTime', { hours: x.batch.windowHours, count: x.batch.rounds })}`
                    : t('wizard.summary.tiers.notOffered')}
                  {chosen(x, 'batch')}
                </td>
                <td data-testid="tier-flex">
                  {x.flex
                    ? `${cost(x.flex.usd, x.priced)} · ${t('wizard.summary.tiers.flexTime', { duration: x.flex.minutes < 1 ? t('wizard.summary.tiers.underMinute') : f.duration(x.flex.minutes * 60) })}`
                    : t('wizard.summary.tiers.notOffered')}
                  {chosen(x, 'flex')}
                </td>
                <td data-testid="tier-cluster">
                  {t('wizard.summary.tiers.clusterCost', { cost: f.usd(0) })} ·{' '}
                  {t('wizard.summary.tiers.clusterTime')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <p className="hint">{t('wizard.summary.tiers.note')}</p>
    </div>
  );
}

/** `protocol`: whose words name its kinds of call (its `estimateKinds`), before the app's. */
export function EstimateTable({ estimate, protocol }: { estimate: CostEstimate; protocol?: string }) {
  const { t } = useTranslation();
  const kindNs = protocolNamespaces(protocol === undefined ? undefined : getRendererProtocol(protocol));
  const f = useFormat();
  const simulated = new Set(estimate.rows.filter((r) => simulatedProvider(r.provider)).map((r) => r.model));
  // A simulated model costs nothing by construction: "free — simulated", not "unpriced" (issue 38).
  const unpriced = estimate.unpricedModels.some((m) => !simulated.has(m));
  const tokens = (x: { inputTokens: number; outputTokens: number }) =>
    t('wizard.summary.tokensInOut', { input: f.compact(x.inputTokens), output: f.compact(x.outputTokens) });
  return (
    <TableScroll className="table-wrap" label={t('wizard.summary.title')}>
      <table className="datasets-table estimate-table" data-testid="estimate-table">
        <TableHead
          columns={[
            t('wizard.summary.who'),
            t('wizard.summary.model'),
            t('wizard.summary.kind'),
            ...(['calls', 'cached', 'tokens', 'cost'] as const).map((c) => ({
              label: t(`wizard.summary.${c}`),
              num: true,
            })),
          ]}
        />
        <tbody>
          {estimate.rows.map((r) => (
            <tr key={`${r.role}|${r.label}|${r.kind}`} data-testid="estimate-row" data-kind={r.kind}>
              <td>
                {r.role === 'transformer'
                  ? t('wizard.summary.transformer')
                  : r.role === 'judge'
                    ? r.label
                    : // A protocol's own helper model (e.g. bias probes' rewriter) may have a name in its words.
                      t(`estimateRoles.${r.label}`, { ns: kindNs, defaultValue: r.label })}
              </td>
              <td className="mono small">{r.model}</td>
              <td>
                {t([`estimateKinds.${r.kind}`, `wizard.summary.kinds.${r.kind}`], {
                  ns: kindNs,
                  defaultValue: r.kind,
                })}
              </td>
              <td className="num">{f.number(r.calls)}</td>
              <td className="num">{f.number(r.cachedCalls)}</td>
              <td className="num">{tokens(r)}</td>
              <td className="num" data-testid="estimate-row-cost">
                {simulatedProvider(r.provider)
                  ? t('wizard.summary.freeSimulated')
                  : r.priced
                    ? f.usd(r.costUsd)
                    : t('wizard.summary.unpriced')}
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={3}>
              {t('wizard.summary.total')}
            </th>
            <td className="num" data-testid="estimate-total-calls">
              {f.number(estimate.calls)}
            </td>
            <td className="num">{f.number(estimate.cachedCalls)}</td>
            <td className="num">{tokens(estimate)}</td>
            <td className="num" data-testid="estimate-total-cost">
              {unpriced
                ? t('wizard.summary.atLeast', { cost: f.usd(estimate.costUsd) })
                : estimate.rows.every((r) => simulatedProvider(r.provider))
                  ? t('wizard.summary.freeSimulated')
                  : f.usd(estimate.costUsd)}
            </td>
          </tr>
        </tfoot>
      </table>
    </TableScroll>
  );
}

function ConfigProblems() {
  const { t } = useTranslation();
  const estimate = useWizard((s) => s.estimate);
  const createError = useWizard((s) => s.createError);
  const goTo = useWizard((s) => s.goTo);
  const loadEstimate = useWizard((s) => s.loadEstimate);
  const draft = useWizard((s) => s.draft);
  const allSteps = useWizardSteps();
  const error = createError ?? (estimate.status === 'error' ? estimate.error : null);
  if (!error) return null;
  const steps = new Set(error.issues.map((i) => stepOfField(i.field, draft)).filter((s) => s !== null));
  return (
    <div className="stack">
      <ErrorPanel
        testId="wizard-error"
        title={createError ? t('wizard.summary.createFailed') : t('wizard.summary.estimateFailed')}
        error={error}
        onRetry={createError ? undefined : () => void loadEstimate()}
      />
      {steps.size > 0 && (
        <p className="fix-links">
          {t('wizard.summary.fixIn')}{' '}
          {allSteps
            .filter((s) => steps.has(s.id))
            .map((s) => (
              <Button key={s.id} className="btn btn--small" onClick={() => goTo(s.id)}>
                {s.label}
              </Button>
            ))}
        </p>
      )}
    </div>
  );
}

export function SummaryStep() {
  const { t } = useTranslation();
  const f = useFormat();
  const draft = useWizard((s) => s.draft);
  const estimate = useWizard((s) => s.estimate);
  const loadEstimate = useWizard((s) => s.loadEstimate);
  const missingKeys = useWizard((s) => s.missingKeys);
  const checkKeys = useWizard((s) => s.checkKeys);
  const dataset = useDatasets((s) => s.datasets.find((d) => d.id === draft.datasetId));
  const pricesInvalid = validateStep('summary', draft).length > 0;

  // Any edit resets the estimate to idle, so coming back here always shows a fresh one.
  useEffect(() => {
    if (estimate.status === 'idle') void loadEstimate();
  }, [estimate.status, loadEstimate]);
  // A run without its key pauses at once ("No API key"): say so here, before anything starts.
  useEffect(() => {
    if (missingKeys === null) void checkKeys();
  }, [missingKeys, checkKeys]);

  const ProtocolLines = wizardPluginOf(draft)?.SummaryLines;
  return (
    <section className="wizard-step" aria-labelledby="step-title">
      <h2 id="step-title" className="wizard-step__title">
        {t('wizard.summary.title')}
      </h2>
      <dl className="recap">
        <dt>{t('wizard.summary.name')}</dt>
        <dd>{draft.name}</dd>
        <dt>{t('wizard.summary.dataset')}</dt>
        <dd>
          {dataset?.name ?? '—'}
          {dataset &&
            ` · ${
              draft.limit.trim()
                ? draft.sample === 'random'
                  ? t('wizard.summary.randomItems', { count: Number(draft.limit), seed: draft.seed ?? '0' })
                  : t('wizard.summary.firstItems', {
                      count: Math.min(Number(draft.limit), dataset.itemCount),
                    })
                : t('datasets.itemCount', { count: dataset.itemCount })
            }`}
          {draft.subsets?.length
            ? ` · ${t('wizard.summary.subsets', { names: draft.subsets.join(', ') })}`
            : ''}
        </dd>
        <dt>{t('wizard.summary.judges')}</dt>
        <dd>
          {draft.judges
            .map(
              (j) =>
                `${j.label} (${presetOf(j.provider).title}, ${j.model}, T=${j.temperature}${
                  j.batch && batchCapable(j.provider, draft.providers) ? `, ${t('wizard.judges.batch')}` : ''
                })`,
            )
            .join(' · ')}
        </dd>
        {ProtocolLines && <ProtocolLines />}
      </dl>
      {missingKeys && missingKeys.length > 0 && (
        <p className="inline-error" role="alert" data-testid="summary-missing-keys">
          {t('wizard.summary.missingKeys', { names: missingKeys.join(', '), count: missingKeys.length })}
        </p>
      )}
      <PriceEditor />

      {estimate.status === 'loading' && (
        <div className="progress-card" role="status" data-testid="estimate-loading">
          <span className="progress-card__label">{t('wizard.summary.estimating')}</span>
          <progress aria-label={t('wizard.summary.estimating')} />
        </div>
      )}
      <ConfigProblems />
      {estimate.status === 'done' && (
        <>
          {pricesInvalid && (
            <p className="hint" data-testid="estimate-stale">
              {t('wizard.prices.staleEstimate')}
            </p>
          )}
          <EstimateTable estimate={estimate.estimate} protocol={protocolOf(draft)} />
          {estimate.estimate.batchWindowHours !== undefined && (
            <p className="estimate-batch" data-testid="estimate-batch">
              {t('wizard.summary.batchLine', {
                calls: f.number(
                  estimate.estimate.rows
                    .filter((r) => r.batch)
                    .reduce((n, r) => n + r.calls - r.cachedCalls, 0),
                ),
                cost: f.usd(estimate.estimate.rows.filter((r) => r.batch).reduce((n, r) => n + r.costUsd, 0)),
                live: f.usd(
                  (estimate.estimate.liveCostUsd ?? 0) -
                    estimate.estimate.rows.filter((r) => !r.batch).reduce((n, r) => n + r.costUsd, 0),
                ),
                hours: estimate.estimate.batchWindowHours,
              })}
            </p>
          )}
          <TierTable estimate={estimate.estimate} protocol={protocolOf(draft)} />
          <p className="estimate-time" data-testid="estimate-time">
            {/* "about under a minute" reads wrong: below a minute the sentence has no "about". */}
            {estimate.estimate.minutesAtRateLimits < 1
              ? t('wizard.summary.timeUnderMinute')
              : t('wizard.summary.time', {
                  duration: f.duration(estimate.estimate.minutesAtRateLimits * 60),
                })}
            {estimate.estimate.minutesRange && (
              <>
                {' '}
                <span data-testid="estimate-time-range">
                  {t('wizard.summary.timeRange', {
                    low: f.duration(estimate.estimate.minutesRange[0] * 60),
                    high: f.duration(estimate.estimate.minutesRange[1] * 60),
                  })}
                </span>
              </>
            )}
          </p>
          {estimate.estimate.power && (
            <PowerPlanSection
              key={JSON.stringify(estimate.estimate.power)}
              plan={estimate.estimate.power}
              config={() => buildConfig(useWizard.getState().draft)}
              namespaces={protocolNamespaces(getRendererProtocol(protocolOf(draft)))}
            />
          )}
          <PreregisterSection power={estimate.estimate.power ?? null} />
          {unpricedReal(estimate.estimate).length > 0 && (
            <p className="hint">
              {t('wizard.summary.unpricedNote', { models: unpricedReal(estimate.estimate).join(', ') })}
            </p>
          )}
          {estimate.estimate.note && (
            <p className="hint" data-testid="estimate-note">
              {estimate.estimate.noteKey
                ? t(estimate.estimate.noteKey, {
                    ns: protocolNamespaces(getRendererProtocol(protocolOf(draft))),
                    defaultValue: estimate.estimate.note,
                  })
                : estimate.estimate.note}
            </p>
          )}
        </>
      )}
    </section>
  );
}
