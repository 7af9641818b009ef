import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { VerdictRow } from '../../../shared/verdicts';
import { TextBlock } from '../components/TextBlock';
import { diffReasons } from '../results/reason-diff';
import { DiffParts } from '../results/DiffParts';
import './i18n';

/**
 * A verdict on a changed text (issue 38 item 7): the text before the change and the one the judge
 * saw after it, side by side, and what changed between them (removed struck through, added
 * underlined). Model text is only ever a text node; each diff piece is its own bidi isolate.
 */
export function ComparedTexts({ compared }: { compared: NonNullable<VerdictRow['compared']> }) {
  const { t, i18n } = useTranslation('verdicts');
  const label = (c: string) =>
    i18n.exists(`conditions.${c}`, { ns: 'verdicts' }) ? t(`conditions.${c}`) : c;
  const { mode, parts } = useMemo(
    () => diffReasons(compared.before, compared.after),
    [compared.before, compared.after],
  );
  const before = label(compared.beforeLabel);
  const after = label(compared.afterLabel);
  return (
    <section
      className="verdicts-compared"
      data-testid="verdict-compared"
      aria-labelledby="verdict-compared-title"
    >
      <h2 id="verdict-compared-title" className="verdicts-detail__head">
        {t('compared.title')}
      </h2>
      <div className="verdicts-compared__pair">
        <div>
          <h3 className="verdicts-compared__label">{t('compared.before', { condition: before })}</h3>
          <TextBlock text={compared.before} testId="verdict-text-before" />
        </div>
        <div>
          <h3 className="verdicts-compared__label">{t('compared.after', { condition: after })}</h3>
          <TextBlock text={compared.after} testId="verdict-text-after" />
        </div>
      </div>
      <h3 className="verdicts-compared__label">
        {t('compared.diff', { before, after })} ·{' '}
        {mode === 'chars' ? t('compared.chars') : t('compared.words')}
      </h3>
      <p
        className="reason-diff__text text verdicts-compared__diff"
        dir="auto"
        data-testid="verdict-text-diff"
      >
        <DiffParts parts={parts} />
      </p>
    </section>
  );
}
