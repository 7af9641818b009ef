// The wizard's estimate per model and way to pay (issue 39): standard, Batch API, flex and an
// export for one's own cluster, in English and Chinese, with tiers a provider lacks said so.
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { TierEstimate } from '../../../shared/experiments';
import { i18next } from '../i18n';
import { estimateOf } from '../test/fake-api';
import { TierTable } from './SummaryStep';

afterEach(async () => {
  cleanup();
  await i18next.changeLanguage('en');
});

const gpt: TierEstimate = {
  label: 'GPT',
  role: 'judge',
  provider: 'openai',
  model: 'gpt-4.1',
  calls: 120,
  priced: true,
  standard: { usd: 2.4, minutes: 12 },
  batch: { usd: 1.2, windowHours: 24, rounds: 2 },
  flex: { usd: 1.2, minutes: 40 },
  cluster: { usd: 0 },
};
const one = { ...gpt, label: 'GPT once', batch: { usd: 1.2, windowHours: 24, rounds: 1 } };
const qwen: TierEstimate = {
  label: 'Qwen',
  role: 'judge',
  provider: 'cluster',
  model: 'Qwen/Qwen2.5-7B-Instruct',
  calls: 120,
  priced: false,
  standard: { usd: 0, minutes: 5 },
  cluster: { usd: 0 },
};

describe('TierTable', () => {
  it('shows each model at the standard rate, the Batch API, flex and a cluster export, in English and 中文', async () => {
    render(<TierTable estimate={estimateOf([], { tiers: [gpt, qwen, one] })} />);
    const rows = screen.getAllByTestId('estimate-tier-row');
    expect(rows).toHaveLength(3);
    expect(within(rows[2]).getByTestId('tier-batch').textContent).toBe(
      '$1.20 · within 24 h per round (1 round)',
    );
    const g = within(rows[0]);
    expect(g.getByTestId('tier-standard').textContent).toBe('$2.40 · about 12 minutes');
    expect(g.getByTestId('tier-batch').textContent).toBe('$1.20 · within 24 h per round (2 rounds)');
    expect(g.getByTestId('tier-flex').textContent).toContain('$1.20 · ');
    expect(g.getByTestId('tier-flex').textContent).toContain('or more, slower answers');
    expect(g.getByTestId('tier-cluster').textContent).toBe("$0.00 at API prices · your GPUs' time");
    const q = within(rows[1]);
    expect(q.getByTestId('tier-standard').textContent).toContain('unpriced');
    expect(q.getByTestId('tier-batch').textContent).toBe('not offered');
    expect(q.getByTestId('tier-flex').textContent).toBe('not offered');

    cleanup();
    await i18next.changeLanguage('zh');
    render(<TierTable estimate={estimateOf([], { tiers: [gpt, qwen] })} />);
    expect(screen.getByText('剩余调用的付费方式（按模型）')).toBeTruthy();
    const zh = within(screen.getAllByTestId('estimate-tier-row')[0]);
    expect(zh.getByTestId('tier-batch').textContent).toBe('US$1.20 · 每轮 24 小时内（共 2 轮）');
    expect(zh.getByTestId('tier-cluster').textContent).toBe('按 API 价格计为 US$0.00 · 取决于你的 GPU');
    expect(within(screen.getAllByTestId('estimate-tier-row')[1]).getByTestId('tier-flex').textContent).toBe(
      '不提供',
    );
  });

  it('marks in words the tier the config sends on (set in the provider card), in English and 中文', async () => {
    render(
      <TierTable
        estimate={estimateOf([], {
          tiers: [
            { ...gpt, chosen: 'flex' },
            { ...qwen, chosen: 'standard' },
          ],
        })}
      />,
    );
    const [g, q] = screen.getAllByTestId('estimate-tier-row').map((r) => within(r));
    expect(g.getByTestId('tier-flex').textContent).toMatch(/ \(your choice\)$/);
    expect(g.getAllByTestId('tier-chosen')).toHaveLength(1);
    expect(q.getByTestId('tier-standard').textContent).toMatch(/\(your choice\)$/);
    cleanup();
    await i18next.changeLanguage('zh');
    render(<TierTable estimate={estimateOf([], { tiers: [{ ...gpt, chosen: 'batch' }] })} />);
    expect(screen.getByTestId('tier-batch').textContent).toMatch(/（当前选择）$/);
  });
});
