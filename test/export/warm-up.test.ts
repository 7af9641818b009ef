// The charts `judge-lab run` draws to warm ECharts up before its export (report/warm-up.ts):
// each must draw (a warm-up that throws would only cost the warm-up, but would warm nothing).
import { describe, expect, it } from 'vitest';
import { renderSvg } from '../../src/main/report/figures';
import { WARM_UP_FIGURES } from '../../src/main/report/warm-up';

describe('the export warm-up', () => {
  it('draws bars with whiskers, heatmap panels and points', () => {
    for (const make of WARM_UP_FIGURES) {
      const spec = make();
      const svg = renderSvg(spec);
      expect(svg, spec.id).toMatch(/^<svg[^>]*width="\d+"/);
      expect(svg, spec.id).toContain(spec.title);
    }
    expect(WARM_UP_FIGURES.map((f) => f().id)).toEqual(['bars', 'heatmaps', 'points']);
  });
});
