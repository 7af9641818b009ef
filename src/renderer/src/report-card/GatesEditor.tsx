// The store's gates, edited on the page: a threshold per gate (shares in percent), whether the
// whole 95% interval must clear it, and whether the gate applies. Saved through judges.setGates
// (the core checks them as it checks a gates file); "Literature defaults" clears every change.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { gateName, gateSettingIssues } from '../../../shared/report-card/gates';
import { useFigureLanguage } from '../lib/figure-language';
import type { GateDefinition, GateSettings } from '../../../shared/report-card/types';
import { getApi, toApiError, type ApiError } from '../api';
import { ErrorPanel } from '../components/ErrorPanel';
import { REPORT_CARD_NS } from './i18n';
import { TableHead } from '../kits/ListTable';
import { Button } from '../components/Button';

type Draft = Record<string, { threshold: string; ciMustClear: boolean; enabled: boolean }>;

const shown = (d: GateDefinition) =>
  String(d.unit === 'pct' ? Math.round(d.threshold * 1e6) / 1e4 : d.threshold);

function draftOf(gates: GateDefinition[]): Draft {
  return Object.fromEntries(
    gates.map((g) => [g.id, { threshold: shown(g), ciMustClear: g.ciMustClear, enabled: g.enabled }]),
  );
}

export function GatesEditor({ onSaved }: { onSaved: () => void }) {
  const { t } = useTranslation(REPORT_CARD_NS);
  const lang = useFigureLanguage();
  const [gates, setGates] = useState<GateDefinition[] | null>(null);
  const [draft, setDraft] = useState<Draft>({});
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  // Each threshold's problem in the field's own unit (percent beside a % field), checked before
  // anything is sent; the core's own words speak of shares 0–1 (issue 38 item 10).
  const [problems, setProblems] = useState<Record<string, string>>({});

  const take = (r: { gates: GateDefinition[] }) => {
    setGates(r.gates);
    setDraft(draftOf(r.gates));
  };
  useEffect(() => {
    getApi()
      .call('judges.gates')
      .then(take)
      .catch((e: unknown) => setError(toApiError(e)));
  }, []);

  const save = async (settings: GateSettings) => {
    setBusy(true);
    setError(null);
    try {
      take(await getApi().call('judges.setGates', { settings }));
      onSaved();
    } catch (e) {
      setError(toApiError(e));
    } finally {
      setBusy(false);
    }
  };
  const settingsOf = (): GateSettings =>
    Object.fromEntries(
      (gates ?? []).map((g) => {
        const d = draft[g.id];
        const v = Number(d.threshold);
        return [
          g.id,
          { threshold: g.unit === 'pct' ? v / 100 : v, ciMustClear: d.ciMustClear, enabled: d.enabled },
        ];
      }),
    );

  if (!gates) return error ? <ErrorPanel title={t('gatesLoadFailed')} error={error} /> : null;
  return (
    <details className="gates-editor" data-testid="gates-editor">
      <summary>{t('editGates')}</summary>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const settings = settingsOf();
          const found: Record<string, string> = {};
          for (const issue of gateSettingIssues(settings, gates)) {
            const id = issue.path.split('.')[0];
            const g = gates.find((x) => x.id === id);
            if (!g || found[id]) continue;
            const r = g.thresholdRange;
            // A declared range is a correlation's [-1, 1] for the card's own gate; a study's
            // gate may declare another.
            found[id] =
              g.unit === 'pct'
                ? t('gatePercent')
                : r && r[0] === -1 && r[1] === 1
                  ? t('gateCorrelation')
                  : r
                    ? t('gateRange', { min: r[0], max: r[1] })
                    : t('gateAbove0');
          }
          setProblems(found);
          if (Object.keys(found).length === 0) void save(settings);
        }}
      >
        <table className="datasets-table">
          <TableHead columns={[t('gate'), t('threshold'), t('wholeCi'), t('applies')]} />
          <tbody>
            {gates.map((g) => {
              const d = draft[g.id];
              const set = (patch: Partial<Draft[string]>) =>
                setDraft((x) => ({ ...x, [g.id]: { ...d, ...patch } }));
              return (
                <tr key={g.id}>
                  <th scope="row">{gateName(g, lang)}</th>
                  <td>
                    <input
                      type="number"
                      step="any"
                      required
                      aria-label={`${gateName(g, lang)}: ${t('threshold')}`}
                      data-testid={`gate-threshold-${g.id}`}
                      value={d.threshold}
                      aria-invalid={problems[g.id] ? true : undefined}
                      aria-describedby={problems[g.id] ? `gate-problem-${g.id}` : undefined}
                      onChange={(e) => set({ threshold: e.target.value })}
                    />{' '}
                    {g.unit === 'pct' ? '%' : ''}
                    {problems[g.id] && (
                      <p
                        className="field__error"
                        id={`gate-problem-${g.id}`}
                        data-testid={`gate-problem-${g.id}`}
                      >
                        {problems[g.id]}
                      </p>
                    )}
                  </td>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`${gateName(g, lang)}: ${t('wholeCi')}`}
                      checked={d.ciMustClear}
                      onChange={(e) => set({ ciMustClear: e.target.checked })}
                    />
                  </td>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`${gateName(g, lang)}: ${t('applies')}`}
                      data-testid={`gate-enabled-${g.id}`}
                      checked={d.enabled}
                      onChange={(e) => set({ enabled: e.target.checked })}
                    />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        <div className="gates-editor__actions">
          <button
            type="submit"
            className="btn btn--primary btn--small"
            disabled={busy}
            data-testid="gates-save"
          >
            {t('saveGates')}
          </button>
          <Button className="btn btn--small" disabled={busy} onClick={() => void save({})}>
            {t('defaultGates')}
          </Button>
        </div>
        {error && <ErrorPanel title={t('gatesFailed')} error={error} />}
      </form>
    </details>
  );
}
