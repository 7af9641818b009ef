// The label budget in the set creator (issue 36): before anyone rates, how many human labels PPI++
// needs for a 95% CI of a given width on a rate, at an assumed judge–human correlation, beside what
// people alone would need, and which items: the count over the judge's score bands by Neyman
// allocation (neymanBandAllocation). Planning numbers from shared/stats; "Use" copies the count
// into the set size and the band counts into the sample.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { JUDGE_BANDS, neymanBandAllocation, ppiLabelBudget, type JudgeBand } from '../../../shared/stats';
import { getApi } from '../api';
import './i18n';
import { NumberField } from './NumberField';
import { Button } from '../components/Button';

export function LabelBudget({
  experimentId,
  size,
  onUse,
}: {
  experimentId: number;
  size: number;
  onUse: (n: number, bandCounts: Record<JudgeBand, number>) => void;
}) {
  const { t } = useTranslation('annotation');
  const [width, setWidth] = useState(0.1);
  const [rho, setRho] = useState(0.6);
  const [items, setItems] = useState<number | null>(null);
  useEffect(() => {
    let live = true;
    void getApi()
      .call('experiments.get', { experimentId })
      .then(
        (e) => live && setItems(e.itemCount),
        // Without the experiment's size the researcher types it; nothing else depends on it.
        () => live && setItems(null),
      );
    return () => {
      live = false;
    };
  }, [experimentId]);
  // Rated sets of this experiment: a pilot whose disagreement per band replaces the assumption.
  const [pilots, setPilots] = useState<{ id: number; name: string }[]>([]);
  const [pilotNote, setPilotNote] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void getApi()
      .call('annotation.listSets', { experimentId })
      .then(
        (sets) =>
          live &&
          setPilots(
            sets
              .filter((x) => x.progress.some((p) => p.labelled > 0))
              .map((x) => ({ id: x.id, name: x.name })),
          ),
        () => live && setPilots([]),
      );
    return () => {
      live = false;
    };
  }, [experimentId]);
  const fromPilot = async (setId: number) => {
    const report = await getApi().call('annotation.agreement', { setId });
    const judge = report.judge_and_people?.judges[0];
    if (!judge) return setPilotNote(t('budget.pilotNone'));
    // A band the pilot has no labels in keeps the assumed share.
    setDisagreement((d) => {
      const next = { ...d };
      for (const b of judge.band_disagreement)
        if (b.disagreement !== null) next[b.band] = Number(b.disagreement.toFixed(3));
      return next;
    });
    setPilotNote(
      t('budget.pilotFrom', {
        judge: judge.judge,
        counts: judge.band_disagreement.map((b) => `${t(`budget.band_${b.band}`)} ${b.labelled}`).join(', '),
      }),
    );
  };
  const [typed, setTyped] = useState<number | null>(null);
  const total = typed ?? items;
  const valid = width > 0 && width <= 1 && rho >= -1 && rho <= 1 && total !== null && total >= 0;
  const unlabelled = total === null ? 0 : Math.max(0, total - size);
  const budget = valid ? ppiLabelBudget({ width, rho, unlabelled }) : null;
  const [disagreement, setDisagreement] = useState<Record<JudgeBand, number>>({
    low: 0.1,
    mid: 0.3,
    high: 0.1,
  });
  const [floor, setFloor] = useState(10);
  const n = budget?.ppi_plus_plus ?? null;
  const planOk =
    Number.isInteger(floor) &&
    floor >= 0 &&
    JUDGE_BANDS.every((b) => disagreement[b] >= 0 && disagreement[b] <= 1);
  // The bands are terciles of the judge's score: about a third of the units each.
  const allocation =
    n !== null && planOk && total !== null
      ? (Object.fromEntries(
          neymanBandAllocation({
            total: n,
            floor,
            bands: JUDGE_BANDS.map((band) => ({
              band,
              size: Math.ceil(Math.max(total, n) / 3),
              disagreement: disagreement[band],
            })),
          }).map((a) => [a.band, a.count]),
        ) as Record<JudgeBand, number>)
      : null;
  return (
    <fieldset className="annotation-budget" data-testid="label-budget">
      <legend>{t('budget.title')}</legend>
      <NumberField
        label={t('budget.width')}
        min={0.01}
        max={1}
        step={0.01}
        value={width}
        testId="budget-width"
        onChange={setWidth}
      />
      <NumberField
        label={t('budget.rho')}
        min={-1}
        max={1}
        step={0.05}
        value={rho}
        testId="budget-rho"
        onChange={setRho}
      />
      <label>
        {t('budget.items')}{' '}
        <input
          type="number"
          min={0}
          value={total ?? ''}
          data-testid="budget-items"
          onChange={(e) => setTyped(e.target.value === '' ? null : Number(e.target.value))}
        />
      </label>
      <fieldset className="annotation-budget__bands">
        <legend>{t('budget.disagreement')}</legend>
        {JUDGE_BANDS.map((b) => (
          <label key={b}>
            {t(`budget.band_${b}`)}{' '}
            <input
              type="number"
              min={0}
              max={1}
              step={0.05}
              value={disagreement[b]}
              data-testid={`budget-disagreement-${b}`}
              onChange={(e) => setDisagreement({ ...disagreement, [b]: Number(e.target.value) })}
            />
          </label>
        ))}
        {pilots.length > 0 && (
          <label>
            {t('budget.pilot')}{' '}
            <select
              data-testid="budget-pilot"
              defaultValue=""
              onChange={(e) => e.target.value && void fromPilot(Number(e.target.value))}
            >
              <option value="">{t('budget.pilotAssumed')}</option>
              {pilots.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          </label>
        )}
        {pilotNote && (
          <span className="small muted" data-testid="budget-pilot-note">
            {pilotNote}
          </span>
        )}
        <NumberField
          label={t('budget.floor')}
          min={0}
          step={1}
          value={floor}
          testId="budget-floor"
          onChange={setFloor}
        />
      </fieldset>
      {budget && (
        <p data-testid="budget-result">
          {budget.ppi_plus_plus === null
            ? t('budget.unreachable', { human: budget.human_only })
            : t('budget.result', {
                n: budget.ppi_plus_plus,
                human: budget.human_only,
                width,
                unlabelled,
              })}{' '}
          {budget.ppi_plus_plus !== null && (
            <Button
              className="btn btn--small"
              testId="budget-use"
              onClick={() => allocation && onUse(budget.ppi_plus_plus!, allocation)}
            >
              {t('budget.use', { n: budget.ppi_plus_plus })}
            </Button>
          )}
        </p>
      )}
      {allocation && <p data-testid="budget-allocation">{t('budget.allocation', allocation)}</p>}
      <p className="small muted">{t('budget.note')}</p>
    </fieldset>
  );
}
