import type { TFunction } from 'i18next';
import { type ProtocolPageProps } from '../../host';
import { useTranslation } from 'react-i18next';
import {
  TRANSITION_SETTINGS,
  type Setting,
  type Transition,
} from '../../../../../shared/protocols/reference-sensitivity/types';
import {
  FLIPS_VIEW,
  type FlipRowView,
  type FlipsView,
} from '../../../../../shared/protocols/reference-sensitivity/views';
import {
  asOptions,
  browserTestIds,
  browserTexts,
  ItemBrowser,
  type BrowserGrid,
  type BrowserSource,
} from '../../../kits/ItemBrowser';
import { REF_SENS_NAMESPACES } from '../i18n';
import { FlipDetail } from './FlipDetail';
import { apiQuery, CHANGES, REFSENS_FLIPS_PAGE, rowKey, TRANSITION_IDS } from './query';
import { GridHead, TextCell } from '../../../kits/VirtualGrid';
import './refsens-flips.css';

const asFlipsView = (data: unknown) => data as FlipsView;

/** Where the flip browser reads its rows, and its test ids. */
const FLIPS_SOURCE: BrowserSource<FlipsView> = {
  page: REFSENS_FLIPS_PAGE,
  view: FLIPS_VIEW,
  apiQuery,
  read: asFlipsView,
  rowKey,
  testIds: browserTestIds('refsens', 'flips', 'flip', 'refsens-flip'),
};

/**
 * Reference sensitivity's flip browser: every answer whose verdict changes between settings
 * (or every answer), filtered by judge, language, generator, transition and direction; a
 * virtualized list, and one answer opened with its texts, verdicts and the explanations' diff.
 */
export function RefSensFlipsPage(props: ProtocolPageProps) {
  const { query } = props;
  const { t } = useTranslation(REF_SENS_NAMESPACES);
  const transition = (query.transition as Transition | undefined) ?? 'NR-RV';
  const [from, to] = TRANSITION_SETTINGS[TRANSITION_IDS.includes(transition) ? transition : 'NR-RV'];
  return (
    <ItemBrowser
      {...props}
      source={FLIPS_SOURCE}
      texts={browserTexts(t, 'flips', ['filters'])}
      filters={(data) => [
        { name: 'judge', label: t('flips.judge'), options: asOptions(data?.judges) },
        { name: 'language', label: t('flips.language'), options: asOptions(data?.languages) },
        { name: 'generator', label: t('flips.generator'), options: asOptions(data?.generators) },
        {
          name: 'transition',
          label: t('flips.transition'),
          options: asOptions(TRANSITION_IDS, (x) => x.replace('-', ' → ')),
        },
        {
          name: 'change',
          label: t('flips.direction'),
          options: asOptions(CHANGES, (c) => t(`flips.change.${c}`)),
        },
      ]}
      grid={(rows) => flipGrid(rows, t)}
      detail={(row, _data, frame) => <FlipDetail row={row} from={from} to={to} frame={frame} />}
    />
  );
}

function verdictMark(row: FlipRowView, s: Setting): string {
  const v = row.verdicts[s];
  if (!v) return '·';
  if (v.status !== 'ok') return '!';
  return v.verdict === 'CORRECT' ? '✓' : '✗';
}

// With the noise floor on, each row says whether NR's own repeat changed its verdict.
function flipGrid(rows: FlipRowView[], t: TFunction): BrowserGrid<FlipRowView> {
  const repeats = rows.some((r) => r.nrRepeatFlipped !== undefined);
  return {
    className: `refsens-flip-table${repeats ? ' refsens-flip-table--repeat' : ''}`,
    head: (
      <GridHead
        labels={[
          t('flips.col.item'),
          t('flips.col.judge'),
          t('flips.col.generator'),
          t('flips.col.language'),
          t('flips.col.question'),
          'NR · RV · RC',
          repeats && t('flips.repeatCol'),
        ]}
      />
    ),
    cells: (r) => (
      <>
        <TextCell text={r.sourceId} mono />
        <TextCell text={r.judge} />
        <TextCell text={r.generator} />
        <span role="cell">{r.language}</span>
        <TextCell text={r.question} dirAuto />
        <span role="cell" className="mono nowrap">
          {(['NR', 'RV', 'RC'] as const).map((s) => verdictMark(r, s)).join(' · ')}
        </span>
        {repeats && (
          <span role="cell" className="ellipsis">
            {r.nrRepeatFlipped ? (
              <span className="chip" data-testid="repeat-flipped" title={t('flips.repeatFlippedHelp')}>
                {t('flips.repeatFlipped')}
              </span>
            ) : r.nrRepeatFlipped === false ? (
              t('flips.repeatSame')
            ) : (
              '·'
            )}
          </span>
        )}
      </>
    ),
  };
}
