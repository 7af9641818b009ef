// jsdom lays nothing out, so each box here is given the sizes a browser would measure: content
// taller than its box (a long response, a long list of written files) or content that fits. The
// browser's own measure is checked by axe in the e2e suite (rating, adjudication screens).
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ScrollBox } from './ScrollRegion';

afterEach(cleanup);

/** Gives every element of `className` a scroll size against a box of 100 × 100. */
function sized(className: string, scroll: { width: number; height: number }): () => void {
  const proto = HTMLElement.prototype;
  const keys = ['scrollWidth', 'scrollHeight', 'clientWidth', 'clientHeight'] as const;
  const saved = keys.map((k) => [k, Object.getOwnPropertyDescriptor(proto, k)] as const);
  const size = (el: HTMLElement, k: (typeof keys)[number]) =>
    !el.classList.contains(className)
      ? 0
      : k === 'scrollWidth'
        ? scroll.width
        : k === 'scrollHeight'
          ? scroll.height
          : 100;
  for (const k of keys)
    Object.defineProperty(proto, k, {
      configurable: true,
      get(this: HTMLElement) {
        return size(this, k);
      },
    });
  return () => {
    for (const [k, d] of saved) {
      if (d) Object.defineProperty(proto, k, d);
      else delete (proto as unknown as Record<string, unknown>)[k];
    }
  };
}

describe('ScrollBox', () => {
  it('is a named region the keyboard reaches while its text is taller than the box', () => {
    const restore = sized('long', { width: 100, height: 900 });
    try {
      render(
        <ScrollBox label="Response A" className="long">
          {'a long answer\n'.repeat(80)}
        </ScrollBox>,
      );
      const box = screen.getByRole('region', { name: 'Response A' });
      expect(box.tagName).toBe('PRE');
      expect(box.tabIndex).toBe(0);
    } finally {
      restore();
    }
  });

  it('is a named region when a list is wider than its box, as a list', () => {
    const restore = sized('files', { width: 400, height: 100 });
    try {
      render(
        <ScrollBox as="ul" label="Files written" className="files">
          <li>tables/significance-by-language-and-judge.csv</li>
        </ScrollBox>,
      );
      const box = screen.getByRole('region', { name: 'Files written' });
      expect(box.tagName).toBe('UL');
      expect(box.getAttribute('tabindex')).toBe('0');
    } finally {
      restore();
    }
  });

  it('stays a plain box with no tab stop when its content fits', () => {
    const restore = sized('short', { width: 100, height: 100 });
    try {
      render(
        <ScrollBox label="Prompt" className="short">
          Name a prime number.
        </ScrollBox>,
      );
      expect(screen.queryByRole('region')).toBeNull();
      const box = screen.getByText('Name a prime number.');
      expect(box.hasAttribute('tabindex')).toBe(false);
      expect(box.hasAttribute('aria-label')).toBe(false);
    } finally {
      restore();
    }
  });
});
