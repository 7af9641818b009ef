import { useTranslation } from 'react-i18next';
import type { Item } from '../../../../../shared/domain';
import type { JudgmentView, VariantView } from '../../../../../shared/protocols/judge-ls/views';
import { type ApiError, ErrorPanel, ReasonDiff } from '../../host';
import { choiceOf, type Flip } from './flips';
import { VerdictGrid } from './VerdictGrid';
import { JUDGE_LS_NAMESPACES } from '../i18n';
import { StepNav } from '../../../kits/StepNav';

interface FlipDetailProps {
  flip: Flip;
  itemJudgments: JudgmentView[];
  item: Item | null;
  variant: VariantView | null;
  variantsLoaded: boolean;
  flaggedReasons: string[] | undefined;
  index: number;
  total: number;
  error: ApiError | null;
  onBack: () => void;
  onPrevious?: () => void;
  onNext?: () => void;
}

function Text({ text, testId }: { text: string | undefined; testId?: string }) {
  const { t } = useTranslation(JUDGE_LS_NAMESPACES);
  if (text === undefined) return <div className="text-block text-block--empty">{t('loading')}</div>;
  return (
    <div className={`text text-block${text ? '' : ' text-block--empty'}`} data-testid={testId}>
      {text || t('detail.emptyText')}
    </div>
  );
}

function VerdictCard({ j, language, testId }: { j: JudgmentView; language: string; testId: string }) {
  const { t } = useTranslation(JUDGE_LS_NAMESPACES);
  const choice = choiceOf(j);
  const aIs = j.order === 'orig' ? 1 : 2;
  const right = choice !== null && choice === j.gold;
  return (
    <section
      className={`verdict-card verdict-card--${choice === 'tie' ? 'tie' : right ? 'right' : 'wrong'}`}
      data-testid={testId}
    >
      <header className="verdict-card__head">
        <h3 className="verdict-card__title">{t('detail.verdictIn', { language })}</h3>
        <span className="chip">{t('detail.positions', { a: aIs, b: 3 - aIs })}</span>
      </header>
      <dl className="verdict-card__facts">
        <dt>{t('detail.winner')}</dt>
        <dd data-testid={`${testId}-winner`}>
          {j.winner === 'tie' || j.winner === null
            ? t('detail.tie')
            : t('detail.winnerIs', { position: j.winner, output: choice })}{' '}
          <span className={`verdict-mark${right ? ' verdict-mark--right' : ''}`}>
            {choice === 'tie' ? '' : right ? t('detail.correct') : t('detail.wrong')}
          </span>
        </dd>
        <dt>{t('detail.confidence')}</dt>
        <dd>{j.confidence === null ? '–' : j.confidence.toFixed(2)}</dd>
      </dl>
      <h4 className="verdict-card__reason-title">{t('detail.reason')}</h4>
      <div className="text verdict-card__reason" data-testid={`${testId}-reason`}>
        {j.reason ?? ''}
      </div>
    </section>
  );
}

/** One flip: both verdicts, the reasons' diff, the texts in both languages, and every other verdict on the item. */
export function FlipDetail(props: FlipDetailProps) {
  const { flip, item, variant, variantsLoaded, flaggedReasons } = props;
  const { t } = useTranslation(JUDGE_LS_NAMESPACES);
  const target = flip.target;
  const goldBadge = (n: 1 | 2) =>
    n === flip.gold ? <span className="badge badge--gold">{t('detail.gold')}</span> : null;
  const variantText = (k: 'instruction' | 'output1' | 'output2') =>
    variant ? variant[k] : variantsLoaded ? '' : undefined;

  return (
    <article className="flip-detail" data-testid="flip-detail" aria-labelledby="flip-detail-title">
      <nav className="flip-detail__nav">
        <button type="button" className="btn btn--ghost" onClick={props.onBack}>
          ← {t('detail.back')}
        </button>
        <StepNav
          position={t('detail.position', { index: props.index + 1, total: props.total })}
          previous={t('detail.previous')}
          next={t('detail.next')}
          onPrevious={props.onPrevious}
          onNext={props.onNext}
        />
      </nav>
      <p className="hint">{t('detail.keysHint')}</p>

      <header className="flip-detail__meta">
        <h2 id="flip-detail-title" className="flip-detail__id mono">
          {flip.sourceId}
        </h2>
        {flip.subset && <span className="chip">{flip.subset}</span>}
        <span className="chip">{flip.judge}</span>
        <span className="chip">
          {flip.comparison} · {t(`order.${flip.order}`)}
        </span>
        <span className={`flip-type flip-type--${flip.type}`}>{t(`flipType.${flip.type}`)}</span>
        {flip.repeatFlipped && (
          <span className="chip" data-testid="repeat-flipped-detail" title={t('flips.repeatFlippedHelp')}>
            {t('flips.repeatFlipped')}
          </span>
        )}
        <span className="gold-label">{t('detail.goldIs', { n: flip.gold })}</span>
      </header>
      {flaggedReasons && (
        <div className="flip-detail__flagged" role="note">
          <strong>{t('detail.flagged')}</strong>
          <ul>
            {flaggedReasons.map((r, i) => (
              <li key={i} className="text">
                {r}
              </li>
            ))}
          </ul>
        </div>
      )}
      {props.error && <ErrorPanel title={t('detail.loadFailed')} error={props.error} />}

      <div className="flip-detail__verdicts">
        <VerdictCard j={flip.en} language="EN" testId="verdict-en" />
        <VerdictCard j={flip.other} language={target} testId="verdict-target" />
      </div>

      <ReasonDiff
        before={flip.en.reason ?? ''}
        after={flip.other.reason ?? ''}
        beforeLabel={t('detail.onlyIn', { language: 'EN' })}
        afterLabel={t('detail.onlyIn', { language: target })}
      />

      <VerdictGrid judgments={props.itemJudgments} flip={flip} />

      <section className="flip-texts" aria-label={t('detail.texts')}>
        <div className="flip-texts__head">
          <span />
          <h3 className="section-title">{t('detail.english')}</h3>
          <h3 className="section-title">{t(`language.${target}`)}</h3>
        </div>
        {(
          [
            ['instruction', 'instruction', t('detail.instruction'), null],
            ['output1', 'output1', t('detail.output', { n: 1 }), 1],
            ['output2', 'output2', t('detail.output', { n: 2 }), 2],
          ] as const
        ).map(([key, field, label, n]) => (
          <div key={key} className="flip-texts__row">
            <div className="flip-texts__label">
              {label} {n !== null && goldBadge(n)}
            </div>
            <Text text={item ? (item[field] ?? undefined) : undefined} testId={`text-en-${key}`} />
            <Text text={variantText(field)} testId={`text-target-${key}`} />
          </div>
        ))}
        {variantsLoaded && !variant && <p className="hint">{t('detail.noVariant', { language: target })}</p>}
      </section>
    </article>
  );
}
