import { useTranslation } from 'react-i18next';
import type { JudgmentView } from '../../../../../shared/protocols/judge-ls/views';
import { LANGUAGES, normalizeChoice } from '../../../../../shared/protocols/judge-ls/choice';
import { choiceOf, type Flip } from './flips';
import { JUDGE_LS_NAMESPACES } from '../i18n';

type Column = Pick<JudgmentView, 'kind' | 'language' | 'order'>;

/**
 * Every verdict slot of an item: EN, ZH, LS and the other targets its verdicts hold (issue 37),
 * each in both orders, then the two tie probes of ZH and of each other probed target.
 */
function columnsOf(judgments: readonly JudgmentView[]): Column[] {
  const languages = [
    ...new Set([...LANGUAGES, ...judgments.filter((j) => j.kind === 'quality').map((j) => j.language)]),
  ];
  return [
    ...languages.flatMap((language) =>
      (['orig', 'swap'] as const).map((order): Column => ({ kind: 'quality', language, order })),
    ),
    { kind: 'tie_probe', language: 'EN-ZH', order: 'en_zh' },
    { kind: 'tie_probe', language: 'EN-ZH', order: 'zh_en' },
    // Other probed targets (issue 37): EN-ar in en_target / target_en, as their verdicts hold them.
    ...[
      ...new Set(
        judgments.filter((j) => j.kind === 'tie_probe' && j.language !== 'EN-ZH').map((j) => j.language),
      ),
    ].flatMap((language) =>
      (['en_target', 'target_en'] as const).map((order): Column => ({ kind: 'tie_probe', language, order })),
    ),
  ];
}

interface CellView {
  text: string;
  tone: 'right' | 'wrong' | 'tie' | 'failed' | 'none';
  title: string;
}

function cell(j: JudgmentView | undefined, failedText: string): CellView {
  if (!j) return { text: '–', tone: 'none', title: '' };
  if (j.status !== 'ok' || !j.winner) {
    return { text: failedText, tone: 'failed', title: j.failureReason ?? '' };
  }
  const title = [j.winner && `${j.winner}`, j.confidence !== null ? `${j.confidence}` : '', j.reason ?? '']
    .filter(Boolean)
    .join(' · ');
  if (j.kind === 'tie_probe') {
    // The language the probe preferred (a non-ZH probe's translation by its code).
    const choice = String(normalizeChoice(j.order, j.winner));
    const text = choice === 'target' ? j.language.slice(3) : choice;
    return { text, tone: text === 'tie' ? 'tie' : 'none', title };
  }
  const c = choiceOf(j);
  if (c === 'tie') return { text: 'tie', tone: 'tie', title };
  return { text: String(c), tone: c === j.gold ? 'right' : 'wrong', title };
}

/** Every verdict on this item by every judge, one row per judge; the open flip's two cells outlined. */
export function VerdictGrid({ judgments, flip }: { judgments: JudgmentView[]; flip: Flip }) {
  const { t } = useTranslation(JUDGE_LS_NAMESPACES);
  const judges = [...new Set(judgments.map((j) => j.judge))];
  const COLUMNS = columnsOf(judgments);
  const find = (judge: string, c: Column) =>
    judgments.find(
      (j) => j.judge === judge && j.kind === c.kind && j.language === c.language && j.order === c.order,
    );
  const current = (judge: string, c: Column) =>
    judge === flip.judge &&
    c.kind === 'quality' &&
    c.order === flip.order &&
    (c.language === 'EN' || c.language === flip.target);
  return (
    <section className="verdict-grid" aria-labelledby="verdict-grid-title">
      <h3 id="verdict-grid-title" className="section-title">
        {t('detail.allVerdicts')}
      </h3>
      <p className="hint">{t('detail.gridHint')}</p>
      <div className="verdict-grid__scroll">
        <table className="verdict-grid__table" data-testid="verdict-grid">
          <thead>
            <tr>
              <th scope="col">{t('flips.col.judge')}</th>
              {COLUMNS.map((c) => (
                <th key={`${c.language}-${c.order}`} scope="col" className="nowrap">
                  {c.kind === 'quality'
                    ? `${c.language} ${t(`order.${c.order}`)}`
                    : t(`probe.${c.order}`, { language: c.language.slice(3) })}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {judges.map((judge) => (
              <tr key={judge}>
                <th scope="row" className="ellipsis verdict-grid__judge" title={judge}>
                  {judge}
                </th>
                {COLUMNS.map((c) => {
                  const v = cell(find(judge, c), t('detail.failed'));
                  return (
                    <td
                      key={`${c.language}-${c.order}`}
                      title={v.title}
                      className={`verdict-cell verdict-cell--${v.tone}${current(judge, c) ? ' verdict-cell--current' : ''}`}
                    >
                      {v.text}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
