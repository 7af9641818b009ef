import { useTranslation } from 'react-i18next';
import { ReasonDiff } from '../../host';
import { SETTINGS, type Setting } from '../../../../../shared/protocols/reference-sensitivity/types';
import type { FlipRowView } from '../../../../../shared/protocols/reference-sensitivity/views';
import {
  ItemDetail,
  type DetailFrame,
  ModelText,
  TextRow,
  VerdictCard,
  VerdictReason,
} from '../../../kits/ItemBrowser';
import { REF_SENS_NAMESPACES } from '../i18n';

function SettingVerdict({ row, setting }: { row: FlipRowView; setting: Setting }) {
  const { t } = useTranslation(REF_SENS_NAMESPACES);
  const v = row.verdicts[setting];
  return (
    <VerdictCard
      tone={!v || v.status !== 'ok' ? 'tie' : v.verdict === 'CORRECT' ? 'right' : 'wrong'}
      title={t(`flips.setting.${setting}`)}
      verdict={!v ? t('flips.notJudged') : v.status === 'ok' ? (v.verdict ?? '') : t('flips.failed')}
      testId={`verdict-${setting}`}
      verdictTestId={`verdict-${setting}-verdict`}
    >
      {v?.status === 'ok' ? (
        <>
          <h4 className="verdict-card__reason-title">{t('flips.extracted')}</h4>
          <VerdictReason text={v.extracted ?? ''} testId={`verdict-${setting}-extracted`} />
          <h4 className="verdict-card__reason-title">{t('flips.explanation')}</h4>
          <VerdictReason text={v.explanation ?? ''} testId={`verdict-${setting}-explanation`} />
        </>
      ) : (
        v && <VerdictReason text={v.reason ?? ''} />
      )}
    </VerdictCard>
  );
}

interface FlipDetailProps {
  row: FlipRowView;
  /** The transition whose two explanations the diff compares. */
  from: Setting;
  to: Setting;
  frame: DetailFrame;
}

/** One answer as one judge graded it: the texts, each setting's verdict, the explanations' diff. */
export function FlipDetail({ row, from, to, frame }: FlipDetailProps) {
  const { t } = useTranslation(REF_SENS_NAMESPACES);
  const settings = SETTINGS.filter((s) => row.verdicts[s]);
  const chips = [
    row.judge,
    row.generator,
    row.language,
    !!row.humanLabel && { text: t('flips.human', { label: row.humanLabel }), testId: 'human-label' },
    !!row.nrRepeatFlipped && {
      text: t('flips.repeatFlipped'),
      testId: 'repeat-flipped-detail',
      title: t('flips.repeatFlippedHelp'),
    },
  ];
  return (
    <ItemDetail {...frame} title={row.sourceId} chips={chips}>
      <section className="flip-texts" aria-label={t('flips.texts')}>
        <TextRow label={t('flips.question')}>
          <ModelText text={row.question} testId="flip-question" />
        </TextRow>
        <TextRow label={t('flips.gold')}>
          <ul className="text-block" data-testid="flip-gold">
            {row.gold.map((g, i) => (
              <li key={i} dir="auto" className="text">
                {g}
              </li>
            ))}
          </ul>
        </TextRow>
        <TextRow label={t('flips.answer')}>
          <ModelText text={row.answer} testId="flip-answer" />
        </TextRow>
      </section>
      <div className="flip-detail__verdicts">
        {settings.map((s) => (
          <SettingVerdict key={s} row={row} setting={s} />
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
    </ItemDetail>
  );
}
