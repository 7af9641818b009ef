import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Item } from '../../../shared/domain';
import '../i18n';
import { ItemViewer } from './ItemViewer';

const HOSTILE = '<img src=x onerror=alert(1)>';

function item(over: Partial<Item> = {}): Item {
  return {
    id: 17,
    datasetId: 3,
    sourceId: 'Natural-017',
    position: 17,
    subset: 'Natural',
    instruction: 'Say hi.\n\nKeep it short.',
    output1: 'Hi!',
    output2: HOSTILE,
    label: 2,
    ...over,
  };
}

afterEach(cleanup);

describe('ItemViewer', () => {
  it('shows HTML in model output literally instead of rendering it', () => {
    const { container } = render(<ItemViewer item={item()} index={0} total={1} backHref="#/datasets/3" />);
    expect(screen.getByTestId('item-output-2').textContent).toBe(HOSTILE);
    expect(container.querySelector('img')).toBeNull();
  });

  it('keeps line breaks of the instruction as text', () => {
    render(<ItemViewer item={item()} index={0} total={1} backHref="#/datasets/3" />);
    const el = screen.getByTestId('item-instruction');
    expect(el.textContent).toBe('Say hi.\n\nKeep it short.');
    expect(el.className).toContain('text');
  });

  it('marks the gold output and names it in the gold label', () => {
    render(<ItemViewer item={item({ label: 2 })} index={0} total={1} backHref="#/datasets/3" />);
    expect(screen.getByTestId('gold-label').textContent).toBe('Gold: Output 2');
    const gold = screen.getByTestId('item-output-2').closest('section')!;
    const other = screen.getByTestId('item-output-1').closest('section')!;
    expect(gold.dataset.gold).toBe('true');
    expect(gold.className).toContain('output--gold');
    expect(other.dataset.gold).toBe('false');
  });

  it('marks output 1 when the gold label is 1', () => {
    render(<ItemViewer item={item({ label: 1 })} index={0} total={1} backHref="#/datasets/3" />);
    expect(screen.getByTestId('gold-label').textContent).toBe('Gold: Output 1');
    expect(screen.getByTestId('item-output-1').closest('section')!.dataset.gold).toBe('true');
  });

  it('shows the position and disables the step buttons that have no target', () => {
    const onNext = vi.fn();
    render(<ItemViewer item={item()} index={0} total={46} backHref="#/datasets/3" onNext={onNext} />);
    expect(screen.getByText('Item 1 of 46')).toBeTruthy();
    const prev = screen.getByRole('button', { name: /Previous/ }) as HTMLButtonElement;
    const next = screen.getByRole('button', { name: /Next/ }) as HTMLButtonElement;
    expect(prev.disabled).toBe(true);
    next.click();
    expect(onNext).toHaveBeenCalledOnce();
  });
});
