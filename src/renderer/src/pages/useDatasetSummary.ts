import type { DatasetSummary } from '../../../shared/domain';
import { useDatasets } from '../stores/datasets';

/** The dataset's summary from the list store: undefined while loading, null if it does not exist. */
export function useDatasetSummary(datasetId: number): DatasetSummary | null | undefined {
  return useDatasets((s) => (s.loaded ? (s.datasets.find((d) => d.id === datasetId) ?? null) : undefined));
}
