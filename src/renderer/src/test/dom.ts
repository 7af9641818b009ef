// Set-up that many DOM test files repeat: each helper registers its own vitest hooks, so a file
// states what it needs in one line.
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { setApi } from '../api';
import { i18next } from '../i18n';

const boxProps = ['clientHeight', 'clientWidth'] as const;

/**
 * jsdom has no layout, so every element measures 0×0 and a virtualizer shows no rows; for the
 * file's tests, give every element a window-sized box as a browser would.
 */
export function giveElementsAWindowBox(px = 600): void {
  beforeAll(() => {
    for (const prop of boxProps) {
      Object.defineProperty(HTMLElement.prototype, prop, { configurable: true, get: () => px });
    }
  });
  afterAll(() => {
    for (const prop of boxProps) delete (HTMLElement.prototype as unknown as Record<string, unknown>)[prop];
  });
}

/**
 * After each test: unmount what it rendered and drop its fake API, so no test sees another's;
 * with `backToEnglish`, also switch back from a language the test chose.
 */
export function unmountAndDropApiAfterEach({ backToEnglish = false } = {}): void {
  afterEach(async () => {
    cleanup();
    setApi(null);
    if (backToEnglish) await i18next.changeLanguage('en');
  });
}

/**
 * jsdom has no canvas: with no 2D context, ECharts estimates text widths itself instead of
 * logging jsdom's "not implemented" errors; tests read a chart's option, not its pixels.
 */
export function withoutCanvas(): void {
  beforeAll(() => {
    HTMLCanvasElement.prototype.getContext = (() => null) as never;
  });
}

/**
 * An item browser's list is a grid with its own cursor: ArrowDown moves it to the second row
 * (announced through aria-activedescendant), and Enter opens that row. The caller checks where
 * Enter navigated.
 */
export async function moveToSecondRowAndOpen(listTestId: string, rowTestId: string): Promise<void> {
  await screen.findAllByTestId(rowTestId);
  const list = screen.getByTestId(listTestId);
  expect(list.getAttribute('role')).toBe('grid');
  fireEvent.keyDown(list, { key: 'ArrowDown' });
  expect(list.getAttribute('aria-activedescendant')).toBe(
    screen.getAllByTestId(rowTestId)[1].getAttribute('id'),
  );
  fireEvent.keyDown(list, { key: 'Enter' });
}
