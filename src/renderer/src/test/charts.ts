// A chart is drawn in an effect after its frame is in the page (once it comes near the view, and
// again if its card is remounted). On a loaded machine that is after the card can be found, so a
// test reads a chart only through this wait: reading the first frame failed in CI runs.
import { waitFor } from '@testing-library/react';
import * as echarts from 'echarts/core';
import { expect } from 'vitest';

export type ChartOption = ReturnType<echarts.ECharts['getOption']>;

/** The drawn option of the chart in `el` (or of the first `[data-figure]` inside it), once drawn. */
export async function drawnOption(el: () => Element | null): Promise<ChartOption> {
  let option: ChartOption | undefined;
  await waitFor(() => {
    const found = el();
    const figure = found?.matches('[data-figure]') ? found : found?.querySelector('[data-figure]');
    option = figure ? echarts.getInstanceByDom(figure as HTMLElement)?.getOption() : undefined;
    expect(option?.series).toBeDefined();
  });
  return option!;
}
