// The power plan beside the cost (issue 24): per confirmatory comparison the smallest effect the
// chosen items detect, the rates it rests on (a pilot's or the defaults, said which), and the
// items an effect the user types needs. Protocol-neutral: a comparison's words come from its
// protocol's UI strings by key, the figures from the core.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { EffectSource, PowerComparison, PowerPlan } from '../../../shared/paper/types';
import { getApi } from '../api';
import { toApiError } from '../api/errors';
import { GlossaryLink } from '../glossary/Glossary';
import { useFormat } from '../lib/useFormat';
import { TableScroll } from '../components/TableScroll';
import { TableHead } from '../kits/ListTable';

const fixed = (x: number) => (Math.abs(x) >= 100 ? x.toFixed(0) : x.toFixed(3));

export function PowerPlanSection({
  plan: initial,
  config,
  namespaces,
}: {
  plan: PowerPlan;
  /** The config the plan is for (asked again with typed effects). */
  config: () => unknown;
  namespaces: string[];
}) {
  const { t } = useTranslation();
  const f = useFormat();
  const [plan, setPlan] = useState(initial);
  const [effects, setEffects] = useState<Record<string, number>>({});
  const [error, setError] = useState<string | null>(null);

  const ask = async (next: Record<string, number>) => {
    setEffects(next);
    try {
      const estimate = await getApi().call('experiments.estimate', { config: config(), effects: next });
      if (estimate.power) setPlan(estimate.power);
      setError(null);
    } catch (err) {
      setError(toApiError(err).message);
    }
  };
  const label = (c: PowerComparison) =>
    c.labelKey ? t(c.labelKey, { ns: namespaces, defaultValue: c.label, ...c.labelParams }) : c.label;
  const undefinedText = (reason: string | undefined) => t('wizard.power.undefined', { reason: reason ?? '' });
  // Every figure says where it came from: the app's default, the pilot run (by name), or the user.
  const sourceText = (source: EffectSource) =>
    t(`wizard.power.source.${source}`, { name: plan.pilot?.name ?? '' });

  return (
    <section className="power-plan" data-testid="power-plan" aria-labelledby="power-plan-title">
      <h3 id="power-plan-title" className="power-plan__title">
        {t('wizard.power.title')} <GlossaryLink id="power" />
      </h3>
      <p className="hint" data-testid="power-pilot">
        {plan.pilot
          ? t(plan.pilot.simulated ? 'wizard.power.pilotSimulated' : 'wizard.power.pilotFrom', {
              name: plan.pilot.name,
              id: plan.pilot.experimentId,
            })
          : t('wizard.power.noPilot')}
      </p>
      <p>{t('wizard.power.lead', { power: `${Math.round(plan.power * 100)}%`, alpha: plan.alpha })}</p>
      <TableScroll className="table-wrap" label={t('wizard.power.title')}>
        <table className="datasets-table power-table">
          <TableHead
            columns={[
              t('wizard.power.comparison'),
              t('wizard.power.test'),
              { label: t('wizard.power.units'), num: true },
              { label: t('wizard.power.mde'), num: true },
              t('wizard.power.rates'),
              t('wizard.power.effect'),
              { label: t('wizard.power.itemsNeeded'), num: true },
            ]}
          />
          <tbody>
            {plan.comparisons.map((c) => (
              <tr key={c.id} data-testid="power-row" data-id={c.id}>
                <td>{label(c)}</td>
                <td>{t(`wizard.power.models.${c.model}`)}</td>
                <td className="num">{f.number(c.n)}</td>
                <td className="num" data-testid="power-mde">
                  {c.mde === null ? undefinedText(c.mdeUndefined) : fixed(c.mde)}
                </td>
                <td className="small">
                  {c.assumptions
                    .map(
                      (a) =>
                        `${t(`wizard.power.assumptions.${a.key}`)} = ${fixed(a.value)} (${sourceText(a.source)})`,
                    )
                    .join('; ')}
                </td>
                <td>
                  <input
                    type="number"
                    step="any"
                    className="power-effect"
                    data-testid="power-effect"
                    aria-label={t('wizard.power.effectLabel', { comparison: label(c) })}
                    defaultValue={effects[c.id] ?? c.effect}
                    onBlur={(e) => {
                      const v = Number(e.currentTarget.value);
                      if (e.currentTarget.value.trim() !== '' && Number.isFinite(v) && v !== c.effect)
                        void ask({ ...effects, [c.id]: v });
                    }}
                  />{' '}
                  <span className="small" data-testid="power-effect-source" data-source={c.effectSource}>
                    ({sourceText(c.effectSource)})
                  </span>
                </td>
                <td className="num" data-testid="power-items">
                  {c.itemsNeeded === null
                    ? undefinedText(c.itemsUndefined)
                    : t('wizard.power.items', { count: c.itemsNeeded })}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {error && (
        <p className="inline-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
