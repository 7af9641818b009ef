import { useEffect, useMemo, useState } from 'react';
import type { Item } from '../../../shared/domain';
import type { JudgmentView, VariantView } from '../../../shared/experiments';
import type { FlaggedItem } from '../../../shared/protocols/judge-ls/types';
import { getApi, toApiError, type ApiError } from '../api';
import { computeFlips, searchText, type Flip } from './flips';

export interface FlipData {
  judgments: JudgmentView[];
  flips: Flip[];
  /** searchText of each flip, same index; built on the first search, not before the first paint. */
  haystacks: () => string[];
  flagged: Map<string, string[]>;
  datasetId: number | null;
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

export function useFlipData(experimentId: number): FlipDataState {
  const [data, setData] = useState<FlipData | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    let cancelled = false;
    const api = getApi();
    Promise.all([
      api.call('experiments.judgments', { experimentId }),
      api.call('experiments.results', { experimentId }),
      api.call('experiments.get', { experimentId }).catch(() => null),
    ]).then(
      ([judgments, results, detail]) => {
        if (cancelled) return;
        setData(buildFlipData(judgments, results.flagged, detail?.datasetId ?? null));
        setError(null);
      },
      (err) => {
        if (!cancelled) setError(toApiError(err));
      },
    );
    return () => {
      cancelled = true;
    };
  }, [experimentId, generation]);
  return { data, error, reload: () => setGeneration((g) => g + 1) };
}

/** Items whose full texts contain `q`, found by the core's item search (instruction and outputs). */
export function useTextMatches(datasetId: number | null, q: string): Set<number> | undefined {
  const [matches, setMatches] = useState<{ q: string; ids: Set<number> } | null>(null);
  useEffect(() => {
    const query = q.trim();
    if (!query || datasetId === null) return;
    let cancelled = false;
    getApi()
      .call('items.list', { datasetId, search: query })
      .then(
        (rows) => !cancelled && setMatches({ q: query, ids: new Set(rows.map((r) => r.id)) }),
        () => !cancelled && setMatches({ q: query, ids: new Set() }),
      );
    return () => {
      cancelled = true;
    };
  }, [datasetId, q]);
  return matches && matches.q === q.trim() ? matches.ids : undefined;
}

/** The English item and the target-language variants, fetched when an item is opened. */
export function useItemTexts(experimentId: number, itemId: number | null) {
  const [items, setItems] = useState<Map<number, Item>>(new Map());
  const [variants, setVariants] = useState<Map<string, VariantView> | null>(null);
  const [error, setError] = useState<ApiError | null>(null);

  useEffect(() => {
    if (itemId === null || variants !== null) return;
    let cancelled = false;
    getApi()
      .call('experiments.variants', { experimentId })
      .then(
        (list) => !cancelled && setVariants(new Map(list.map((v) => [`${v.itemId}:${v.language}`, v]))),
        (err) => !cancelled && setError(toApiError(err)),
      );
    return () => {
      cancelled = true;
    };
  }, [experimentId, itemId, variants]);

  useEffect(() => {
    if (itemId === null || items.has(itemId)) return;
    let cancelled = false;
    getApi()
      .call('items.get', { itemId })
      .then(
        (item) => !cancelled && setItems((m) => new Map(m).set(item.id, item)),
        (err) => !cancelled && setError(toApiError(err)),
      );
    return () => {
      cancelled = true;
    };
  }, [itemId, items]);

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
