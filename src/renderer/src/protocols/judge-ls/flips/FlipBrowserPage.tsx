import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { ExperimentCrumb, type Navigate, routeHref } from '../../host';
import { useTranslation } from 'react-i18next';
import { Breadcrumb, LoadState, PageHeader } from '../../../kits/PageFrame';
import { FlipDetail } from './FlipDetail';
import { FlipList } from './FlipList';
import { asOptions, FilterSelect } from '../../../kits/ItemBrowser';
import { COMPARISONS } from '../../../../../shared/protocols/judge-ls/choice';
import { FLIP_TYPES, filterFlips, type Flip } from './flips';
import {
  filterFromQuery,
  matchesSelection,
  selectionFromQuery,
  withFilter,
  withSelection,
  type FlipQuery,
} from './query';
import { useFlipData, useItemTexts, useTextMatches } from './useFlipData';
import '../judge-ls.css';
import { JUDGE_LS_NAMESPACES } from '../i18n';
import { flipsRoute } from '../routes';
import { SearchField } from '../../../kits/SearchField';

interface FlipBrowserPageProps {
  experimentId: number;
  query: Record<string, string>;
  onNavigate: Navigate;
}

const SEARCH_DEBOUNCE_MS = 250;
/** Option value for "no subset"; '' is "all subsets". */
const NO_SUBSET = '\u0000none';

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return (
    !!el &&
    (el.tagName === 'INPUT' || el.tagName === 'SELECT' || el.tagName === 'TEXTAREA' || el.isContentEditable)
  );
}

/** Enter on a link or button is that control's own; elsewhere it opens the row under the cursor. */
function isControl(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el?.closest?.('a[href],button,summary,[role="button"],[role="link"]');
}

export function FlipBrowserPage({ experimentId, query, onNavigate }: FlipBrowserPageProps) {
  const { t } = useTranslation(JUDGE_LS_NAMESPACES);
  const { data, error, reload } = useFlipData(experimentId);
  const filter = useMemo(() => filterFromQuery(query), [query]);
  const selection = useMemo(() => selectionFromQuery(query), [query]);
  const textMatches = useTextMatches(data?.datasetId ?? null, filter.q ?? '');

  const flagged = data?.flagged;
  const flagSet = useMemo(() => new Set(flagged?.keys() ?? []), [flagged]);
  const visible = useMemo(
    () =>
      data
        ? filterFlips(
            data.flips,
            filter,
            { flagged: flagSet, textMatches },
            filter.q ? data.haystacks() : undefined,
          )
        : [],
    [data, filter, flagSet, textMatches],
  );
  const selectedIndex = useMemo(
    () => (selection ? visible.findIndex((f) => matchesSelection(f, selection)) : -1),
    [visible, selection],
  );
  const selected: Flip | null = selectedIndex >= 0 ? visible[selectedIndex] : null;

  const [activeIndex, setActiveIndex] = useState(0);
  // The list's cursor follows the opened flip, so Esc comes back to the row that was open.
  useEffect(() => {
    if (selectedIndex >= 0) setActiveIndex(selectedIndex);
  }, [selectedIndex]);
  const cursor = Math.min(activeIndex, Math.max(0, visible.length - 1));

  const go = (q: FlipQuery) => onNavigate(flipsRoute(experimentId, q));
  const open = (f: Flip | null) => go(withSelection(query, f, filter));
  const setFilter = (change: Parameters<typeof withFilter>[1]) => {
    setActiveIndex(0);
    go(withFilter(query, change));
  };

  // Typing is local; the URL (and the filtering) follows once typing pauses.
  const [search, setSearch] = useState(filter.q ?? '');
  const lastSent = useRef(filter.q ?? '');
  useEffect(() => {
    if ((filter.q ?? '') !== lastSent.current) {
      lastSent.current = filter.q ?? '';
      setSearch(filter.q ?? '');
    }
  }, [filter.q]);
  const latest = useRef({ query, go });
  useEffect(() => {
    latest.current = { query, go };
  });
  useEffect(() => {
    if (search === lastSent.current) return;
    const timer = setTimeout(() => {
      lastSent.current = search;
      setActiveIndex(0);
      latest.current.go(withFilter(latest.current.query, { q: search || undefined }));
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [search]);

  // j/k step, o (or Enter) opens, Esc goes back: in the list they move the cursor, in the item view the item.
  // A layout effect (as AnnotateScreen's): the rows on screen and the state the keys read are
  // set in the same task, so a key pressed as soon as the rows show does not step through the
  // rows of the render before (a passive effect ran later: j on a list still empty for the
  // listener left the cursor on the first row).
  const keyState = useRef({ visible, cursor, selectedIndex, open });
  useLayoutEffect(() => {
    keyState.current = { visible, cursor, selectedIndex, open };
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // A key the list already handled (its own Enter, arrows) is not handled twice.
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || isTyping(e.target)) return;
      const s = keyState.current;
      const inItem = s.selectedIndex >= 0;
      const step = (d: number) => {
        const from = inItem ? s.selectedIndex : s.cursor;
        const to = Math.max(0, Math.min(s.visible.length - 1, from + d));
        if (inItem) {
          if (to !== from) s.open(s.visible[to]);
        } else setActiveIndex(to);
      };
      if (e.key === 'j') step(1);
      else if (e.key === 'k') step(-1);
      else if (
        (e.key === 'o' || (e.key === 'Enter' && !isControl(e.target))) &&
        !inItem &&
        s.visible[s.cursor]
      )
        s.open(s.visible[s.cursor]);
      else if (e.key === 'Escape' && inItem) s.open(null);
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const texts = useItemTexts(experimentId, selected?.itemId ?? null);
  // One scan when an item opens (a few ms for 200,000 judgments) rather than an index built up front.
  const selectedItemId = selected?.itemId ?? null;
  const itemJudgments = useMemo(
    () => (data && selectedItemId !== null ? data.judgments.filter((j) => j.itemId === selectedItemId) : []),
    [data, selectedItemId],
  );

  const judges = useMemo(() => [...new Set(data?.judgments.map((j) => j.judge) ?? [])], [data]);
  const subsets = useMemo(() => {
    const set = new Set(data?.judgments.map((j) => j.subset ?? '') ?? []);
    return [...set].sort((a, b) => a.localeCompare(b));
  }, [data]);

  const header = (
    <>
      <Breadcrumb testId="flips-breadcrumb" current={t('flips.title')}>
        <a href={routeHref({ name: 'experiments' })}>{t('experiments.title')}</a>
        <ExperimentCrumb experimentId={experimentId} name={data?.experimentName} />
        <a
          href="#"
          onClick={(e) => {
            e.preventDefault();
            onNavigate({ name: 'results', experimentId, excludeFlagged: filter.flagged === 'no' });
          }}
        >
          {t('title')}
        </a>
      </Breadcrumb>
      <PageHeader compact title={t('flips.title')} intro={t('flips.intro')} />
    </>
  );

  if (!data) {
    return (
      <div className="page results-page">
        {header}
        <LoadState error={error} failed={t('flips.loadFailed')} loading={t('loading')} onRetry={reload} />
      </div>
    );
  }

  if (selected) {
    return (
      <div className="page results-page">
        {header}
        <FlipDetail
          flip={selected}
          itemJudgments={itemJudgments}
          item={texts.item}
          variant={texts.variant(selected.target)}
          variantsLoaded={texts.variantsLoaded}
          flaggedReasons={data.flagged.get(selected.sourceId)}
          index={selectedIndex}
          total={visible.length}
          error={texts.error}
          onBack={() => open(null)}
          onPrevious={selectedIndex > 0 ? () => open(visible[selectedIndex - 1]) : undefined}
          onNext={selectedIndex < visible.length - 1 ? () => open(visible[selectedIndex + 1]) : undefined}
        />
      </div>
    );
  }

  const correctness = { value: 'correctness', label: t('flipType.correctness') };
  const subsetValue = filter.subset === undefined ? '' : filter.subset === '' ? NO_SUBSET : filter.subset;
  return (
    <div className="page page--fill results-page flip-browser" data-testid="flip-browser">
      {header}
      <div className="filter-bar">
        <FilterSelect
          inline={false}
          label={t('flips.col.judge')}
          testId="filter-judge"
          value={filter.judge ?? ''}
          anyLabel={t('flips.all')}
          options={asOptions(judges)}
          onChange={(v) => setFilter({ judge: v || undefined })}
        />
        <FilterSelect
          inline={false}
          label={t('flips.col.comparison')}
          testId="filter-comparison"
          value={filter.comparison ?? ''}
          anyLabel={t('flips.all')}
          options={asOptions([...new Set([...COMPARISONS, ...data.flips.map((f) => f.comparison)])])}
          onChange={(v) => setFilter({ comparison: v || undefined })}
        />
        <FilterSelect
          inline={false}
          label={t('flips.col.subset')}
          testId="filter-subset"
          value={subsetValue}
          anyLabel={t('flips.all')}
          options={subsets.map((s) => ({ value: s === '' ? NO_SUBSET : s, label: s || t('flips.noSubset') }))}
          onChange={(v) => setFilter({ subset: v === '' ? undefined : v === NO_SUBSET ? '' : v })}
        />
        <FilterSelect
          inline={false}
          label={t('flips.col.type')}
          testId="filter-type"
          value={filter.type ?? ''}
          anyLabel={t('flips.all')}
          options={[...asOptions(FLIP_TYPES, (ft) => t(`flipType.${ft}`)), correctness]}
          onChange={(v) => setFilter({ type: v || undefined })}
        />
        <FilterSelect
          inline={false}
          label={t('flips.flagged')}
          testId="filter-flagged"
          value={filter.flagged ?? ''}
          anyLabel={t('flips.all')}
          options={[
            { value: 'no', label: t('flips.flaggedNo') },
            { value: 'yes', label: t('flips.flaggedYes') },
          ]}
          onChange={(v) => setFilter({ flagged: v || undefined })}
        />
        <SearchField
          label={t('flips.search')}
          placeholder={t('flips.searchPlaceholder')}
          value={search}
          onChange={setSearch}
          testId="flip-search"
        />
        <span className="filter-bar__count" data-testid="flip-count" aria-live="polite">
          {t('flips.count', { count: visible.length, total: data.flips.length })}
        </span>
      </div>
      <p className="hint">{t('flips.keysHint')}</p>
      {selection && selectedIndex < 0 && <p className="hint">{t('flips.selectionGone')}</p>}
      {data.flips.length === 0 ? (
        <p className="empty-note" data-testid="flips-empty">
          {data.judgments.length === 0 ? t('flips.noJudgments') : t('flips.none')}
        </p>
      ) : visible.length === 0 ? (
        <p className="empty-note">{t('flips.noMatches')}</p>
      ) : (
        <FlipList
          flips={visible}
          flagged={data.flagged}
          activeIndex={cursor}
          onActiveIndexChange={setActiveIndex}
          onOpen={open}
          label={t('flips.title')}
        />
      )}
    </div>
  );
}
