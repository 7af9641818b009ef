import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../i18n';
import { ForeignPackageQuestion, type ForeignPackage } from './ForeignPackageQuestion';

afterEach(async () => {
  cleanup();
  await i18n.changeLanguage('en');
});

const answer: ForeignPackage = {
  outcome: 'foreign-set',
  package: { uid: 'u-1', name: 'Their copy', units: 30, labels: 12 },
  candidates: [{ id: 4, name: 'pilot' }],
};

describe('a package of a set this store does not know', () => {
  it('asks: merge into a matching set, open as new, or cancel', () => {
    const onChoose = vi.fn();
    const onCancel = vi.fn();
    render(<ForeignPackageQuestion answer={answer} onChoose={onChoose} onCancel={onCancel} />);
    expect(screen.getByRole('alertdialog').textContent).toContain('“Their copy” (30 units, 12 labels)');
    fireEvent.click(screen.getByTestId('foreign-merge-4'));
    expect(onChoose).toHaveBeenLastCalledWith(4);
    fireEvent.click(screen.getByTestId('foreign-new-set'));
    expect(onChoose).toHaveBeenLastCalledWith(undefined);
    fireEvent.click(screen.getByText('Cancel'));
    expect(onCancel).toHaveBeenCalled();
  });

  it('asks in Chinese too, and says when no set matches', async () => {
    await i18n.changeLanguage('zh');
    render(
      <ForeignPackageQuestion
        answer={{ ...answer, candidates: [] }}
        onChoose={() => {}}
        onCancel={() => {}}
      />,
    );
    expect(screen.getByRole('alertdialog').textContent).toContain('这里没有条目相同的标注集');
    expect(screen.queryByTestId('foreign-merge-4')).toBeNull();
  });
});
