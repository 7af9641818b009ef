import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Item } from '../../../../../shared/domain';
import {
  judgeLsRows,
  JUDGMENTS_VIEW,
  VARIANTS_VIEW,
  type JudgmentView,
  type VariantView,
} from '../../../../../shared/protocols/judge-ls/views';
import type { FlaggedItem } from '../../../../../shared/protocols/judge-ls/types';
import { type ApiError, toApiError, useApi, useLiveReload } from '../../host';
import { computeFlips, searchText, type Flip } from './flips';

export interface FlipData {
  judgments: JudgmentView[];
  flips: Flip[];
  /** searchText of each flip, same index; built on the first search, not before the first paint. */
  haystacks: () => string[];
  flagged: Map<string, string[]>;
  datasetId: number | null;
  /** The experiment's name for the breadcrumb (null when it could not be read). */
  experimentName?: string | null;
}

export interface FlipDataState {
  data: FlipData | null;
  error: ApiError | null;
  reload: () => void;
}

/** Builds the browser's index once per load: 50,000 flips are filtered from it on every keystroke. */
export function buildFlipData(
  judgments: JudgmentView[],
  flagged: FlaggedItem[],
  datasetId: number | null,
): FlipData {
  const flips = computeFlips(judgments);
  let haystacks: string[] | null = null;
  return {
    judgments,
    flips,
    haystacks: () => (haystacks ??= flips.map(searchText)),
    flagged: new Map(flagged.map((f) => [f.item_id, f.reasons])),
    datasetId,
  };
}

/**
 * The judgments and flags behind the flip browser, read again as verdicts arrive. An answer
 * older than the one shown is dropped; a slow one still lands if nothing newer has.
 */
export function useFlipData(experimentId: number): FlipDataState {
  const [data, setData] = useState<FlipData | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const seq = useRef({ started: 0, applied: 0, live: true });
  const api = useApi();

  const load = useCallback(() => {
    const n = ++seq.current.started;
    Promise.all([
      api.call('experiments.protocolView', { experimentId, view: JUDGMENTS_VIEW }),
      api.call('experiments.flagged', { experimentId }),
      api.call('experiments.get', { experimentId }).catch(() => null),
    ]).then(
      ([judgments, { flagged }, detail]) => {
        if (!seq.current.live || n < seq.current.applied) return;
        seq.current.applied = n;
        setData({
          ...buildFlipData(judgeLsRows.judgments(judgments), flagged, detail?.datasetId ?? null),
          experimentName: detail?.name ?? null,
        });
        setError(null);
      },
      (err) => {
        if (seq.current.live && n >= seq.current.applied) setError(toApiError(err));
      },
    );
  }, [experimentId, api]);

  useEffect(() => {
    seq.current = { started: seq.current.started, applied: 0, live: true };
    load();
    return () => {
      seq.current.live = false;
    };
  }, [load]);
  useLiveReload(experimentId, load);

  return { data, error, reload: load };
}

/** Items whose full texts contain `q`, found by the core's item search (instruction and outputs). */
export function useTextMatches(datasetId: number | null, q: string): Set<number> | undefined {
  const [matches, setMatches] = useState<{ q: string; ids: Set<number> } | null>(null);
  const api = useApi();
  useEffect(() => {
    const query = q.trim();
    if (!query || datasetId === null) return;
    let cancelled = false;
    api.call('items.list', { datasetId, search: query }).then(
      (rows) => !cancelled && setMatches({ q: query, ids: new Set(rows.map((r) => r.id)) }),
      () => !cancelled && setMatches({ q: query, ids: new Set() }),
    );
    return () => {
      cancelled = true;
    };
  }, [datasetId, q, api]);
  return matches && matches.q === q.trim() ? matches.ids : undefined;
}

/** The English item and the target-language variants, fetched when an item is opened. */
export function useItemTexts(experimentId: number, itemId: number | null) {
  const [items, setItems] = useState<Map<number, Item>>(new Map());
  const [variants, setVariants] = useState<Map<string, VariantView> | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const api = useApi();

  useEffect(() => {
    if (itemId === null || variants !== null) return;
    let cancelled = false;
    api.call('experiments.protocolView', { experimentId, view: VARIANTS_VIEW }).then(
      (rows) =>
        !cancelled &&
        setVariants(new Map(judgeLsRows.variants(rows).map((v) => [`${v.itemId}:${v.language}`, v]))),
      (err) => !cancelled && setError(toApiError(err)),
    );
    return () => {
      cancelled = true;
    };
  }, [experimentId, itemId, variants, api]);

  useEffect(() => {
    if (itemId === null || items.has(itemId)) return;
    let cancelled = false;
    api.call('items.get', { itemId }).then(
      (item) => !cancelled && setItems((m) => new Map(m).set(item.id, item)),
      (err) => !cancelled && setError(toApiError(err)),
    );
    return () => {
      cancelled = true;
    };
  }, [itemId, items, api]);

  return useMemo(
    () => ({
      item: itemId === null ? null : (items.get(itemId) ?? null),
      variant: (language: string) =>
        itemId === null ? null : (variants?.get(`${itemId}:${language}`) ?? null),
      variantsLoaded: variants !== null,
      error,
    }),
    [itemId, items, variants, error],
  );
}
