import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { diffReasons } from './reason-diff';
import { DiffParts } from './DiffParts';
import './i18n';

interface ReasonDiffProps {
  before: string;
  after: string;
  beforeLabel: string;
  afterLabel: string;
}

/**
 * The two reasons as one text: removed words struck through, added ones underlined. Text only,
 * never HTML. Each piece is its own bidi isolate (dir="auto"): a right-to-left override or an
 * unclosed embedding in a model's reason must not reorder the pieces around it.
 */
export function ReasonDiff({ before, after, beforeLabel, afterLabel }: ReasonDiffProps) {
  const { t } = useTranslation('results');
  const { mode, parts } = useMemo(() => diffReasons(before, after), [before, after]);
  return (
    <section className="reason-diff" data-testid="reason-diff" data-mode={mode}>
      <h3 className="section-title">{t('reasonDiff.title')}</h3>
      <p className="hint">
        <del className="diff-removed" dir="auto">
          {beforeLabel}
        </del>{' '}
        <ins className="diff-added" dir="auto">
          {afterLabel}
        </ins>{' '}
        · {mode === 'chars' ? t('reasonDiff.chars') : t('reasonDiff.words')}
      </p>
      <p className="reason-diff__text text" dir="auto">
        <DiffParts parts={parts} />
      </p>
    </section>
  );
}
