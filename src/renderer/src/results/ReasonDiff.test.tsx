import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import '../i18n';
import { diffReasons, hasCjk } from './reason-diff';
import { ReasonDiff } from './ReasonDiff';

afterEach(cleanup);

const show = (before: string, after: string) =>
  render(<ReasonDiff before={before} after={after} beforeLabel="only in EN" afterLabel="only in ZH" />);

describe('reason diff', () => {
  it('compares English word by word', () => {
    const { mode, parts } = diffReasons('Output A is more accurate.', 'Output B is more accurate.');
    expect(mode).toBe('words');
    expect(parts.filter((p) => p.kind !== 'same').map((p) => [p.kind, p.text])).toEqual([
      ['removed', 'A'],
      ['added', 'B'],
    ]);
  });

  it('compares Chinese character by character', () => {
    expect(hasCjk('输出 A')).toBe(true);
    expect(hasCjk('Output A')).toBe(false);
    const { mode, parts } = diffReasons('输出一更准确。', '输出二更准确。');
    expect(mode).toBe('chars');
    expect(parts.filter((p) => p.kind !== 'same').map((p) => [p.kind, p.text])).toEqual([
      ['removed', '一'],
      ['added', '二'],
    ]);
  });

  it('renders the parts as styled text and keeps HTML in a reason literal', () => {
    show('A is <b>better</b>', 'A is <script>alert(1)</script> better');
    const view = screen.getByTestId('reason-diff');
    expect(view.dataset.mode).toBe('words');
    expect(view.querySelector('b')).toBeNull();
    expect(view.querySelector('script')).toBeNull();
    // Leaving out the removed parts gives the new reason, and vice versa (diffWords keeps the
    // new text's whitespace in common parts, so spaces are compared loosely).
    const text = (skip: string) =>
      [...view.querySelector('.reason-diff__text')!.childNodes]
        .filter((n) => (n as HTMLElement).tagName !== skip)
        .map((n) => n.textContent)
        .join('')
        .replace(/\s+/g, ' ')
        .trim();
    expect(text('DEL')).toBe('A is <script>alert(1)</script> better');
    expect(text('INS')).toBe('A is <b>better</b>');
    expect(screen.getAllByTestId('diff-added')[0].tagName).toBe('INS');
  });

  it('shows ZH diffs character by character in the view', () => {
    show('选项 A 更好', '选项 B 更好');
    expect(screen.getByTestId('reason-diff').dataset.mode).toBe('chars');
    expect(screen.getAllByTestId('diff-removed').map((e) => e.textContent)).toEqual(['A']);
    expect(screen.getAllByTestId('diff-added').map((e) => e.textContent)).toEqual(['B']);
  });

  it('isolates every piece, so a right-to-left override in one reason cannot reverse its neighbours', () => {
    show('Output A is \u202Eright', 'Output B is \u202Eright and clear');
    const text = screen.getByTestId('reason-diff').querySelector('.reason-diff__text')!;
    expect(text.getAttribute('dir')).toBe('auto');
    const pieces = [...text.childNodes];
    expect(pieces.length).toBeGreaterThan(2);
    // A bare text node would sit in the paragraph's bidi context, where an override runs on.
    for (const piece of pieces) {
      expect(piece.nodeType).toBe(Node.ELEMENT_NODE);
      expect((piece as HTMLElement).getAttribute('dir')).toBe('auto');
    }
  });
});
