// Generic CSS holds no rule only one study uses (issue 34): such a rule belongs in the study's own
// CSS file beside its pages, or a new study's styles would be edits of generic files. A rule whose
// classes appear only in one protocol's renderer folder is refused, naming the file and selector;
// rules several studies share (the flip browser's) are kit styles and stay generic.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const RENDERER = join(__dirname, '../../src/renderer/src');
const GENERIC_CSS = [
  'styles/base.css',
  'styles/frame.css',
  'styles/datasets.css',
  'styles/items.css',
  'styles/experiments.css',
  'results/results.css',
];

function sourcesOf(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const path = join(e.parentPath, e.name);
    if (e.isFile() && /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name))
      out.set(relative(RENDERER, path), readFileSync(path, 'utf8'));
  }
  return out;
}

/** Top-level rules' selectors, @media blocks' inner rules included. */
function selectorsOf(css: string): string[] {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  const out: string[] = [];
  const re = /([^{}]+)\{/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const sel = m[1].trim();
    if (!sel.startsWith('@')) out.push(sel);
  }
  return out;
}

/** The study (its renderer folder) a class is used in, or 'generic'; null where nothing uses it. */
function ownersOf(cls: string, sources: Map<string, string>): Set<string> {
  const word = new RegExp(`(?<![\\w-])${cls.replace(/[-]/g, '\\-')}(?![\\w-])`);
  const owners = new Set<string>();
  for (const [path, text] of sources) {
    if (!word.test(text)) continue;
    const m = /^protocols\/([^/]+)\//.exec(path);
    owners.add(m ? m[1] : 'generic');
  }
  return owners;
}

export function studyOnlyRules(
  css: string,
  sources: Map<string, string>,
): { selector: string; study: string }[] {
  return selectorsOf(css).flatMap((selector) => {
    const classes = [...new Set([...selector.matchAll(/\.([A-Za-z][\w-]*)/g)].map((m) => m[1]))];
    const owners = new Set(classes.flatMap((c) => [...ownersOf(c, sources)]));
    return owners.size === 1 && !owners.has('generic') ? [{ selector, study: [...owners][0] }] : [];
  });
}

describe('protocol styles live in the protocol’s folder', () => {
  it('no generic CSS rule is used by one study alone', () => {
    const sources = sourcesOf(RENDERER);
    const found = GENERIC_CSS.flatMap((f) =>
      studyOnlyRules(readFileSync(join(RENDERER, f), 'utf8'), sources).map(
        (r) => `${f}: ${r.selector} (${r.study})`,
      ),
    );
    expect(found).toEqual([]);
  });

  it('refuses a planted rule of one study, not a rule two studies or a generic page share', () => {
    const sources = new Map([
      ['protocols/alpha/Page.tsx', '<div className="alpha-only shared-kit" />'],
      ['protocols/beta/Page.tsx', '<div className="shared-kit" />'],
      ['results/ResultsPage.tsx', '<div className="page" />'],
    ]);
    const css =
      '.alpha-only { color: red; }\n.shared-kit { margin: 0; }\n@media (max-width: 9px) { .page .alpha-only { x: 1; } }';
    expect(studyOnlyRules(css, sources)).toEqual([{ selector: '.alpha-only', study: 'alpha' }]);
  });
});
