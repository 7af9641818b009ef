import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { InputIssue } from '../../../shared/domain';
import { ApiError } from '../api/errors';
import '../i18n';
import { ErrorPanel } from './ErrorPanel';

afterEach(cleanup);

describe('ErrorPanel', () => {
  it('lists every issue with its file, line, field and message', () => {
    const issues: InputIssue[] = [
      { file: 'bad.jsonl', line: 3, field: 'label', message: 'must be 1 or 2, got 3' },
      { file: 'bad.jsonl', line: 7, field: 'output_2', message: 'is missing' },
      { file: 'bad.jsonl', line: 9, message: 'is not valid JSON' },
    ];
    render(
      <ErrorPanel
        testId="import-error"
        title="Could not import bad.jsonl"
        error={new ApiError('invalid_input', 'bad.jsonl has 3 problems', issues)}
      />,
    );
    const panel = screen.getByTestId('import-error');
    const rows = panel.querySelectorAll('li');
    expect(rows).toHaveLength(3);
    expect(rows[0].textContent).toContain('bad.jsonl:3');
    expect(rows[0].textContent).toContain('label');
    expect(rows[0].textContent).toContain('must be 1 or 2, got 3');
    expect(rows[1].textContent).toContain('bad.jsonl:7');
    expect(rows[1].textContent).toContain('output_2');
    expect(rows[2].textContent).toContain('bad.jsonl:9');
    expect(panel.textContent).toContain('3 problems found');
    expect(panel.textContent).toContain('bad.jsonl has 3 problems');
  });

  it('locates CSV issues by row when no line is known', () => {
    render(
      <ErrorPanel
        title="x"
        error={
          new ApiError('invalid_input', 'bad', [{ file: 'a.csv', row: 4, field: 'label', message: 'empty' }])
        }
      />,
    );
    expect(screen.getByRole('alert').querySelector('li')!.textContent).toContain('a.csv row 4');
  });

  it('shows issue text literally and calls onDismiss', () => {
    const onDismiss = vi.fn();
    const { container } = render(
      <ErrorPanel
        title="x"
        onDismiss={onDismiss}
        error={new ApiError('invalid_input', 'bad', [{ file: 'f.json', line: 1, message: '<b>boom</b>' }])}
      />,
    );
    expect(container.querySelector('b')).toBeNull();
    expect(container.textContent).toContain('<b>boom</b>');
    screen.getByRole('button', { name: 'Dismiss' }).click();
    expect(onDismiss).toHaveBeenCalledOnce();
  });
});
