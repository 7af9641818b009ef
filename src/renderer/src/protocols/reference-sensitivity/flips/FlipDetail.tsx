import { useTranslation } from 'react-i18next';
import { SETTINGS, type Setting } from '../../../../../shared/protocols/reference-sensitivity/types';
import type { FlipRowView } from '../../../../../shared/protocols/reference-sensitivity/views';
import { ReasonDiff } from '../../host';
import { REF_SENS_NAMESPACES } from '../i18n';

// Model and dataset texts are React text children, never HTML; each is its own bidi isolate
// (dir="auto"), so an Arabic question reads right to left and cannot reorder what is around it.
function Text({ text, testId }: { text: string; testId?: string }) {
  return (
    <div className="text text-block" dir="auto" data-testid={testId}>
      {text}
    </div>
  );
}

function VerdictCard({ row, setting }: { row: FlipRowView; setting: Setting }) {
  const { t } = useTranslation(REF_SENS_NAMESPACES);
  const v = row.verdicts[setting];
  const tone = !v || v.status !== 'ok' ? 'tie' : v.verdict === 'CORRECT' ? 'right' : 'wrong';
  return (
    <section className={`verdict-card verdict-card--${tone}`} data-testid={`verdict-${setting}`}>
      <header className="verdict-card__head">
        <h3 className="verdict-card__title">{t(`flips.setting.${setting}`)}</h3>
        <span className="chip" data-testid={`verdict-${setting}-verdict`}>
          {!v ? t('flips.notJudged') : v.status === 'ok' ? v.verdict : t('flips.failed')}
        </span>
      </header>
      {v?.status === 'ok' ? (
        <>
          <h4 className="verdict-card__reason-title">{t('flips.extracted')}</h4>
          <div className="text verdict-card__reason" dir="auto" data-testid={`verdict-${setting}-extracted`}>
            {v.extracted ?? ''}
          </div>
          <h4 className="verdict-card__reason-title">{t('flips.explanation')}</h4>
          <div
            className="text verdict-card__reason"
            dir="auto"
            data-testid={`verdict-${setting}-explanation`}
          >
            {v.explanation ?? ''}
          </div>
        </>
      ) : (
        v && (
          <div className="text verdict-card__reason" dir="auto">
            {v.reason ?? ''}
          </div>
        )
      )}
    </section>
  );
}

interface FlipDetailProps {
  row: FlipRowView;
  /** The transition whose two explanations the diff compares. */
  from: Setting;
  to: Setting;
  onBack: () => void;
}

/** One answer as one judge graded it: the texts, each setting's verdict, the explanations' diff. */
export function FlipDetail({ row, from, to, onBack }: FlipDetailProps) {
  const { t } = useTranslation(REF_SENS_NAMESPACES);
  const settings = SETTINGS.filter((s) => row.verdicts[s]);
  return (
    <article
      className="flip-detail refsens-flip-detail"
      data-testid="refsens-flip-detail"
      aria-labelledby="refsens-flip-title"
    >
      <nav className="flip-detail__nav">
        <button type="button" className="btn btn--ghost" onClick={onBack}>
          ← {t('flips.back')}
        </button>
      </nav>
      <header className="flip-detail__meta">
        <h2 id="refsens-flip-title" className="flip-detail__id mono">
          {row.sourceId}
        </h2>
        <span className="chip">{row.judge}</span>
        <span className="chip">{row.generator}</span>
        <span className="chip">{row.language}</span>
        {row.humanLabel && (
          <span className="chip" data-testid="human-label">
            {t('flips.human', { label: row.humanLabel })}
          </span>
        )}
        {row.nrRepeatFlipped && (
          <span className="chip" data-testid="repeat-flipped-detail" title={t('flips.repeatFlippedHelp')}>
            {t('flips.repeatFlipped')}
          </span>
        )}
      </header>
      <section className="flip-texts" aria-label={t('flips.texts')}>
        <div className="flip-texts__row">
          <div className="flip-texts__label">{t('flips.question')}</div>
          <Text text={row.question} testId="flip-question" />
        </div>
        <div className="flip-texts__row">
          <div className="flip-texts__label">{t('flips.gold')}</div>
          <ul className="text-block" data-testid="flip-gold">
            {row.gold.map((g, i) => (
              <li key={i} dir="auto" className="text">
                {g}
              </li>
            ))}
          </ul>
        </div>
        <div className="flip-texts__row">
          <div className="flip-texts__label">{t('flips.answer')}</div>
          <Text text={row.answer} testId="flip-answer" />
        </div>
      </section>
      <div className="flip-detail__verdicts">
        {settings.map((s) => (
          <VerdictCard key={s} row={row} setting={s} />
        ))}
      </div>
      {row.verdicts[from]?.explanation != null && row.verdicts[to]?.explanation != null && (
        <ReasonDiff
          before={row.verdicts[from]!.explanation!}
          after={row.verdicts[to]!.explanation!}
          beforeLabel={t('flips.onlyIn', { setting: from })}
          afterLabel={t('flips.onlyIn', { setting: to })}
        />
      )}
    </article>
  );
}
