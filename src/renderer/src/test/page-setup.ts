// Setup that page tests share, registered from a test file's top level.
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { setApi } from '../api';

/**
 * jsdom has no layout, so every element measures 0×0 and a virtualized list would show no rows:
 * give elements a window-sized box as a browser would, for this file's tests only.
 */
export function giveElementsAWindowBox(): void {
  const sizeProps = ['clientHeight', 'clientWidth'] as const;
  beforeAll(() => {
    for (const prop of sizeProps)
      Object.defineProperty(HTMLElement.prototype, prop, { configurable: true, get: () => 600 });
  });
  afterAll(() => {
    for (const prop of sizeProps) delete (HTMLElement.prototype as unknown as Record<string, unknown>)[prop];
  });
}

/** After each test: unmount what it rendered and drop its fake API, so the next test starts bare. */
export function resetPagesAfterEach(): void {
  afterEach(() => {
    cleanup();
    setApi(null);
  });
}
