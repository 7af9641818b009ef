import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ShippedPriceRow } from '../../../shared/api';
import { getApi, toApiError } from '../api';
import { Field } from '../components/Field';
import {
  PRICE_FIELDS,
  modelsInUse,
  priceField,
  type PriceDraft,
  type PriceField,
} from '../lib/experiment-config';
import { useFormat } from '../lib/useFormat';
import { useWizard } from '../stores/wizard';
import { useStepIssues } from './issues';

type Shipped =
  | { status: 'loading' }
  | { status: 'done'; rows: Map<string, ShippedPriceRow>; asOf: string }
  | { status: 'error'; message: string };

const EMPTY: PriceDraft = { input: '', cachedInput: '', output: '' };

/** The shipped price as the fields show it, so a first keystroke edits from there. */
function draftOf(row: ShippedPriceRow | undefined): PriceDraft {
  if (!row?.price) return EMPTY;
  return {
    input: String(row.price.input),
    cachedInput: String(row.price.cachedInput),
    output: String(row.price.output),
  };
}

/** The shipped price table for the models in use; refetched when that list changes. */
function useShippedPrices(models: string[]): { shipped: Shipped; retry: () => void } {
  const [shipped, setShipped] = useState<Shipped>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const key = models.join('\n');
  useEffect(() => {
    let live = true;
    setShipped({ status: 'loading' });
    getApi()
      .call('prices.get', { models: key ? key.split('\n') : [] })
      .then((r) => {
        if (live)
          setShipped({ status: 'done', rows: new Map(r.rows.map((x) => [x.model, x])), asOf: r.asOf });
      })
      .catch((err: unknown) => {
        if (live) setShipped({ status: 'error', message: toApiError(err).message });
      });
    return () => {
      live = false;
    };
  }, [key, attempt]);
  return { shipped, retry: () => setAttempt((n) => n + 1) };
}

/**
 * A $0 price on a model the shipped table does not know (the simulated provider's models, which
 * the demo prices at 0 so the estimate has no unknown model): free, not a person's edit.
 */
function isFree(override: PriceDraft | undefined, row: ShippedPriceRow | undefined): boolean {
  if (!override || row?.price) return false;
  return (
    PRICE_FIELDS.every((f) => override[f].trim() === '' || Number(override[f]) === 0) &&
    override.input.trim() !== ''
  );
}

const FIELD_LABEL: Record<PriceField, string> = {
  input: 'wizard.prices.input',
  cachedInput: 'wizard.prices.cachedInput',
  output: 'wizard.prices.output',
};

interface PriceRowProps {
  model: string;
  row: ShippedPriceRow | undefined;
  /** Until the shipped price is known, an edit would start from empty fields. */
  disabled: boolean;
}

function PriceRow({ model, row, disabled }: PriceRowProps) {
  const { t } = useTranslation();
  const f = useFormat();
  const override = useWizard((s) => s.draft.prices[model]);
  const setPrice = useWizard((s) => s.setPrice);
  const resetPrice = useWizard((s) => s.resetPrice);
  const issues = useStepIssues('summary');
  const base = draftOf(row);
  const shown = override ?? base;
  const source = isFree(override, row) ? 'free' : override ? 'edited' : row?.source;

  return (
    <div className="price-row" data-testid="price-row" data-model={model} data-source={source}>
      <div className="price-row__head">
        <span className="mono price-row__model">{model}</span>
        {source && (
          <span className={`badge price-row__source price-row__source--${source}`} data-testid="price-source">
            {t(`wizard.prices.source.${source}`)}
          </span>
        )}
        {override && row?.price && (
          <span className="hint price-row__was">
            {t('wizard.prices.shippedWas', {
              input: f.usd(row.price.input),
              cachedInput: f.usd(row.price.cachedInput),
              output: f.usd(row.price.output),
            })}
          </span>
        )}
        {override && (
          <button
            type="button"
            className="btn btn--small price-row__reset"
            data-testid="price-reset"
            onClick={() => resetPrice(model)}
          >
            {row?.price ? t('wizard.prices.reset') : t('wizard.prices.clear')}
          </button>
        )}
      </div>
      <div className="form-grid price-row__fields">
        {PRICE_FIELDS.map((field) => (
          <Field
            key={field}
            label={t(FIELD_LABEL[field])}
            error={issues.find((i) => i.field === priceField(model, field))?.message}
          >
            <input
              type="text"
              inputMode="decimal"
              autoComplete="off"
              data-testid={`price-${field}`}
              value={shown[field]}
              disabled={disabled}
              placeholder={field === 'cachedInput' ? t('wizard.prices.sameAsInput') : undefined}
              onChange={(e) => setPrice(model, { ...shown, [field]: e.target.value })}
            />
          </Field>
        ))}
      </div>
    </div>
  );
}

/**
 * The price table of the models this run calls: shipped prices shown, any of them
 * editable; edits go into the config, so the estimate and the run's spend use them.
 */
export function PriceEditor() {
  const { t } = useTranslation();
  const draft = useWizard((s) => s.draft);
  const models = modelsInUse(draft);
  const { shipped, retry } = useShippedPrices(models);
  const issues = useStepIssues('summary').filter((i) => i.field.startsWith('prices.'));
  const rows = shipped.status === 'done' ? shipped.rows : undefined;
  const edited = models.filter((m) => draft.prices[m] && !isFree(draft.prices[m], rows?.get(m))).length;
  const [open, setOpen] = useState(edited > 0);

  return (
    <details
      className="disclosure price-editor"
      data-testid="price-editor"
      open={open || issues.length > 0}
      onToggle={(e) => setOpen(e.currentTarget.open)}
    >
      <summary>
        {t('wizard.prices.title')}
        {edited > 0 && ` · ${t('wizard.prices.editedCount', { count: edited })}`}
      </summary>
      {shipped.status === 'done' && (
        <p className="hint">{t('wizard.prices.intro', { date: shipped.asOf })}</p>
      )}
      {shipped.status === 'loading' && <p className="hint">{t('common.loading')}</p>}
      {shipped.status === 'error' && (
        <p className="inline-error" role="alert">
          {t('wizard.prices.loadFailed', { message: shipped.message })}{' '}
          <button type="button" className="btn btn--small" onClick={retry}>
            {t('common.retry')}
          </button>
        </p>
      )}
      {models.map((model) => (
        <PriceRow key={model} model={model} row={rows?.get(model)} disabled={shipped.status === 'loading'} />
      ))}
    </details>
  );
}
