import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  PREREG_CORRECTIONS,
  type PreregistrationPlan,
  type PreregistrationView,
} from '../../../shared/paper/preregistration';
import type { InputIssue } from '../../../shared/domain';
import { getApi } from '../api';
import { toApiError, type ApiError } from '../api/errors';
import { ErrorPanel } from '../components/ErrorPanel';
import { useRefusalText } from '../refusals/refusal-text';
import { checkDraft, draftOf, fieldOfIssue, planOf, type FormField, type PlanDraft } from './plan-form';
import './i18n';
import { Button } from '../components/Button';

interface PlanFormProps {
  experimentId: number;
  /** The comparisons the power plan offers (empty: the protocol has none; ids are typed). */
  comparisons: { id: string; label: string }[];
  /** The plan in force: the form supersedes it (starts from it and needs a reason). */
  current: PreregistrationPlan | null;
  onLocked: (view: PreregistrationView) => void;
  onCancel?: () => void;
  /**
   * Answers of the experiment stored now: a first lock then is registered after data
   * collection, and the form asks to confirm that before it locks.
   */
  answersStored?: number;
}

/**
 * The lock form: checks what it can before asking the core, then shows the core's refusal on
 * the field it names (the core is the one that knows the power plan and the locks).
 */
export function PlanForm({
  experimentId,
  comparisons,
  current,
  onLocked,
  onCancel,
  answersStored = 0,
}: PlanFormProps) {
  const { t } = useTranslation('prereg');
  const [draft, setDraft] = useState<PlanDraft>(() => draftOf(current));
  const [shown, setShown] = useState<FormField[]>([]);
  const [busy, setBusy] = useState(false);
  const [coreError, setCoreError] = useState<ApiError | null>(null);
  const [confirming, setConfirming] = useState(false);
  const supersede = current !== null;
  // An edited field's own complaint goes until the next submit checks it again.
  const set = <K extends keyof PlanDraft>(k: K, v: PlanDraft[K]) => {
    setDraft((d) => ({ ...d, [k]: v }));
    setShown((s) => s.filter((f) => f !== k));
  };

  const errorOf = usePlanFieldErrors(shown, coreError?.issues ?? []);

  const submit = async (confirmed = false) => {
    const bad = checkDraft(draft, supersede);
    setShown(bad);
    setCoreError(null);
    if (bad.length) return;
    // Answers already stored: the lock would read as a preregistration unless the person sees
    // first that it is registered after data collection (and reported so).
    if (!supersede && answersStored > 0 && !confirmed) {
      setConfirming(true);
      return;
    }
    setConfirming(false);
    setBusy(true);
    try {
      const view = await getApi().call('experiments.preregister', {
        experimentId,
        plan: planOf(draft),
        ...(supersede ? { reason: draft.reason.trim() } : {}),
      });
      onLocked(view);
    } catch (err) {
      setCoreError(toApiError(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="prereg-form"
      data-testid="prereg-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h3 className="prereg__subtitle">{t(supersede ? 'form.supersedeTitle' : 'form.lockTitle')}</h3>
      {supersede && <p className="hint">{t('form.supersedeIntro')}</p>}
      <PlanFields
        draft={draft}
        set={set}
        comparisons={comparisons}
        errorOf={errorOf}
        withReason={supersede}
      />
      {coreError && <ErrorPanel title={t('form.failed')} error={coreError} testId="prereg-core-error" />}
      {confirming && (
        <div className="prereg-form__confirm" role="alertdialog" data-testid="prereg-after-data">
          <p className="inline-error">{t('form.afterData', { answers: answersStored })}</p>
          <div className="prereg-form__actions">
            <Button
              className="btn btn--primary"
              testId="prereg-after-data-lock"
              disabled={busy}
              onClick={() => void submit(true)}
            >
              {t('form.afterDataLock')}
            </Button>
            <Button className="btn btn--ghost" onClick={() => setConfirming(false)}>
              {t('form.cancel')}
            </Button>
          </div>
        </div>
      )}
      <div className="prereg-form__actions">
        <button type="submit" className="btn btn--primary" data-testid="prereg-submit" disabled={busy}>
          {busy ? t('form.busy') : t(supersede ? 'form.supersede' : 'form.lock')}
        </button>
        {onCancel && (
          <Button className="btn btn--ghost" onClick={onCancel}>
            {t('form.cancel')}
          </Button>
        )}
      </div>
    </form>
  );
}

/**
 * A field's error under it: the form's own check (`shown`: fields the last submit found wrong)
 * first, else the core's issue naming it, in the page's language.
 */
export function usePlanFieldErrors(
  shown: FormField[],
  coreIssues: InputIssue[],
): (f: FormField) => ReactNode {
  const { t } = useTranslation('prereg');
  const refusalText = useRefusalText();
  const coreFieldErrors = new Map<FormField, string>();
  for (const issue of coreIssues) {
    const f = fieldOfIssue(issue);
    if (f && !coreFieldErrors.has(f)) coreFieldErrors.set(f, refusalText(issue));
  }
  return (f) => {
    const own = shown.includes(f) ? t(`errors.${f}`) : null;
    const core = coreFieldErrors.get(f);
    const label = t(fieldLabel(f));
    const text = own ?? (core !== undefined ? t('form.fieldError', { field: label, message: core }) : null);
    return text === null ? null : (
      <span className="field__error" role="alert" data-testid={`prereg-error-${f}`}>
        {text}
      </span>
    );
  };
}

type TextField = 'hypotheses' | 'exclusions' | 'stopping' | 'reason';

function fieldLabel(f: FormField): string {
  return f === 'confirmatory' ? 'form.confirmatory' : `form.${f}`;
}

interface PlanFieldsProps {
  draft: PlanDraft;
  set: <K extends keyof PlanDraft>(k: K, v: PlanDraft[K]) => void;
  /** The comparisons the power plan offers (empty: ids are typed). */
  comparisons: { id: string; label: string }[];
  /** A field's error under it (null: none). */
  errorOf: (f: FormField) => ReactNode;
  /** The supersede form's reason field. */
  withReason: boolean;
}

/**
 * The plan's fields, shared by the run page's lock form and the wizard's Preregister section
 * (which passes the same plan in the config at create): the draft and its errors are the caller's.
 */
export function PlanFields({ draft, set, comparisons, errorOf, withReason }: PlanFieldsProps) {
  const { t } = useTranslation('prereg');
  /** A free-text field of the plan (the user's words, kept as typed) with its error under it. */
  const textField = (f: TextField, multiline: boolean, placeholder?: string) => {
    const props = {
      'data-testid': `prereg-${f}`,
      placeholder,
      value: draft[f],
      onChange: (e: { target: { value: string } }) => set(f, e.target.value),
    };
    return (
      <label className="prereg-form__field">
        <span className="field__label">{t(`form.${f}`)}</span>
        {multiline ? <textarea rows={2} {...props} /> : <input type="text" {...props} />}
        {errorOf(f)}
      </label>
    );
  };

  const toggle = (id: string, on: boolean) =>
    set('confirmatory', on ? [...draft.confirmatory, id] : draft.confirmatory.filter((x) => x !== id));

  return (
    <>
      {comparisons.length > 0 ? (
        <fieldset className="prereg-form__field" data-testid="prereg-confirmatory">
          <legend className="field__label">{t('form.confirmatory')}</legend>
          <span className="field__hint">{t('form.confirmatoryHelp')}</span>
          {comparisons.map((c) => (
            <label key={c.id} className="prereg-form__check">
              <input
                type="checkbox"
                value={c.id}
                checked={draft.confirmatory.includes(c.id)}
                onChange={(e) => toggle(c.id, e.target.checked)}
              />
              <span>{c.label}</span> <code className="small muted">{c.id}</code>
            </label>
          ))}
          {errorOf('confirmatory')}
        </fieldset>
      ) : (
        <label className="prereg-form__field">
          <span className="field__label">{t('form.confirmatoryIds')}</span>
          <span className="field__hint">{t('form.confirmatoryIdsHelp')}</span>
          <textarea
            rows={2}
            data-testid="prereg-confirmatory-ids"
            value={draft.confirmatory.join('\n')}
            onChange={(e) =>
              set(
                'confirmatory',
                e.target.value
                  .split('\n')
                  .map((s) => s.trim())
                  .filter(Boolean),
              )
            }
          />
          {errorOf('confirmatory')}
        </label>
      )}
      <div className="prereg-form__row">
        <label className="prereg-form__field">
          <span className="field__label">{t('form.primary')}</span>
          <select
            data-testid="prereg-primary"
            value={draft.primary}
            onChange={(e) => set('primary', e.target.value)}
          >
            <option value="">—</option>
            {draft.confirmatory.map((id) => (
              <option key={id} value={id}>
                {comparisons.find((c) => c.id === id)?.label ?? id}
              </option>
            ))}
          </select>
          {errorOf('primary')}
        </label>
        <label className="prereg-form__field prereg-form__field--narrow">
          <span className="field__label">{t('form.alpha')}</span>
          <input
            type="text"
            inputMode="decimal"
            data-testid="prereg-alpha"
            value={draft.alpha}
            onChange={(e) => set('alpha', e.target.value)}
          />
          {errorOf('alpha')}
        </label>
        <label className="prereg-form__field">
          <span className="field__label">{t('form.correction')}</span>
          <select
            data-testid="prereg-correction"
            value={draft.correction}
            onChange={(e) => set('correction', e.target.value as PlanDraft['correction'])}
          >
            {PREREG_CORRECTIONS.map((c) => (
              <option key={c} value={c}>
                {t(`corrections.${c}`)}
              </option>
            ))}
          </select>
          {errorOf('correction')}
        </label>
      </div>
      {textField('hypotheses', true)}
      {textField('exclusions', false, t('form.exclusionsPlaceholder'))}
      {textField('stopping', false, t('form.stoppingPlaceholder'))}
      {withReason && textField('reason', true)}
    </>
  );
}
