import { useTranslation } from 'react-i18next';
import { ReasonDiff, type ProtocolPageProps } from '../host';
import {
  readRepeatsView,
  REPEATS_VIEW,
  type QuestionView,
  type RepeatsViewResult,
} from '../../../../shared/protocols/self-consistency/views';
import {
  asOptions,
  browserTestIds,
  browserTexts,
  type BrowserSource,
  ItemBrowser,
  type DetailFrame,
  ItemDetail,
  ModelText,
  TextRow,
  VerdictCard,
  VerdictReason,
} from '../../kits/ItemBrowser';
import { SC_NAMESPACES } from './i18n';
import { apiQuery, rowKey, SC_UNSTABLE_PAGE } from './query';
import { GridHead, TextCell } from '../../kits/VirtualGrid';
import './self-consistency.css';

/** Where the unstable-items browser reads its rows, and its test ids. */
const UNSTABLE_SOURCE: BrowserSource<RepeatsViewResult> = {
  page: SC_UNSTABLE_PAGE,
  view: REPEATS_VIEW,
  apiQuery,
  read: readRepeatsView,
  rowKey,
  testIds: browserTestIds('sc', 'unstable', 'unstable', 'sc-question'),
};

/**
 * Self-consistency's unstable-items browser: the questions whose repeats disagree (or all of
 * them), filtered by judge, temperature and category; one question opened shows its texts, every
 * repeat's verdict and reason side by side, and the word diff of each dissenting reason.
 */
export function UnstablePage(props: ProtocolPageProps) {
  const { t } = useTranslation(SC_NAMESPACES);
  const condition = (c: string) => (c === 'own' ? t('unstable.own') : c);
  return (
    <ItemBrowser
      {...props}
      source={UNSTABLE_SOURCE}
      texts={browserTexts(t, 'unstable', ['none'])}
      filters={(data) => [
        { name: 'judge', label: t('unstable.judge'), options: asOptions(data?.judges) },
        {
          name: 'condition',
          label: t('unstable.condition'),
          options: asOptions(data?.conditions, condition),
        },
        { name: 'category', label: t('unstable.category'), options: asOptions(data?.categories) },
      ]}
      grid={() => ({
        className: 'sc-table',
        head: (
          <GridHead
            labels={[
              t('unstable.col.item'),
              t('unstable.col.judge'),
              t('unstable.col.condition'),
              t('unstable.col.order'),
              t('unstable.col.verdicts'),
            ]}
          />
        ),
        cells: (r) => (
          <>
            <TextCell text={r.itemId} mono />
            <TextCell text={r.judge} />
            <span role="cell">{condition(r.condition)}</span>
            <span role="cell">{t(`unstable.order.${r.order}`)}</span>
            <span role="cell" className="mono nowrap">
              {r.repeats.map((x) => (x.status === 'ok' ? x.verdict : '×')).join(' ')}
            </span>
          </>
        ),
      })}
      detail={(row, data, frame) => (
        <QuestionDetail row={row} mode={data.mode} condition={condition} frame={frame} />
      )}
    />
  );
}

function QuestionDetail({
  row,
  mode,
  condition,
  frame,
}: {
  row: QuestionView;
  mode: 'pairwise' | 'pointwise';
  condition: (c: string) => string;
  frame: DetailFrame;
}) {
  const { t } = useTranslation(SC_NAMESPACES);
  const first = row.repeats[0];
  const dissent = row.repeats.filter(
    (x) => x.sample > 0 && x.status === 'ok' && first.status === 'ok' && x.verdict !== first.verdict,
  );
  return (
    <ItemDetail
      {...frame}
      title={row.itemId}
      chips={[
        row.judge,
        condition(row.condition),
        t(`unstable.order.${row.order}`),
        row.gold !== null && t('unstable.gold', { gold: row.gold }),
      ]}
    >
      <section className="flip-texts">
        <TextRow label={t('unstable.instruction')}>
          <ModelText text={row.instruction} testId="sc-instruction" />
        </TextRow>
        {row.shown.map((text, i) => (
          <TextRow
            key={i}
            label={
              mode === 'pairwise'
                ? t(i === 0 ? 'unstable.responseA' : 'unstable.responseB')
                : t('unstable.response')
            }
          >
            <ModelText text={text} />
          </TextRow>
        ))}
      </section>
      <div className="flip-detail__verdicts sc-repeats" data-testid="sc-repeats">
        {row.repeats.map((x) => (
          <VerdictCard
            key={x.sample}
            // Against the gold label where there is one (pairwise: the letter shown at the better
            // output's place; pointwise: the human score), else neutral.
            tone={x.status !== 'ok' || row.gold === null ? 'tie' : x.verdict === row.gold ? 'right' : 'wrong'}
            title={t('unstable.repeat', { n: x.sample + 1 })}
            verdict={
              x.status === 'ok'
                ? (x.verdict ?? '')
                : x.status === 'failed'
                  ? t('unstable.failed')
                  : t('unstable.pending')
            }
            testId="sc-repeat"
            verdictTestId="sc-repeat-verdict"
          >
            {x.confidence !== null && (
              <p className="hint">{t('unstable.confidence', { value: x.confidence.toFixed(2) })}</p>
            )}
            <VerdictReason text={x.status === 'ok' ? (x.reason ?? '') : (x.failure ?? '')} />
          </VerdictCard>
        ))}
      </div>
      {dissent.map((x) => (
        <div key={x.sample} data-testid="sc-reason-diff">
          <h3 className="section-title">{t('unstable.diffTitle', { n: x.sample + 1 })}</h3>
          <ReasonDiff
            before={first.reason ?? ''}
            after={x.reason ?? ''}
            beforeLabel={t('unstable.onlyIn', { n: 1 })}
            afterLabel={t('unstable.onlyIn', { n: x.sample + 1 })}
          />
        </div>
      ))}
    </ItemDetail>
  );
}
