// Setup of the DOM project (vitest.config.ts). Its files run one after another in one process per
// worker, sharing the modules they loaded and the one jsdom window (isolate: false: loading React,
// i18n and jsdom again for every file was most of the project's CPU time). What a file leaves in
// those is put back here, so each file starts as in a fresh process: nothing rendered, the app's
// stores as created, no route, English, empty storage, real timers, no spies, no API. It also
// sets the waits of Testing Library.
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, vi } from 'vitest';
import { setApi } from '../api';
import { useGlossary } from '../glossary/Glossary';
import { i18next } from '../i18n';
import { useListedModels } from '../lib/listed-models';
import { useExportLanguageChoice } from '../lib/figure-language';
import { useConnection } from '../stores/connection';
import { useAppInfo, useDatasets } from '../stores/datasets';
import { useExperiments } from '../stores/experiments';
import { useImport } from '../stores/import';
import { useItem } from '../stores/item';
import { useItems } from '../stores/items';
import { parseHash, useRoute } from '../stores/route';
import { useWizard } from '../stores/wizard';

// Every zustand store of the app: a new store goes in this list.
const stores = [
  useAppInfo,
  useDatasets,
  useExperiments,
  useImport,
  useItem,
  useItems,
  useConnection,
  useWizard,
  useExportLanguageChoice,
  useListedModels,
  useGlossary,
] as const;

// findBy… and waitFor give up after 1 s by default, which a loaded machine overshoots while
// nothing is wrong (as `expect.poll` in vitest.config.ts): a give-up point, not an expectation.
configure({ asyncUtilTimeout: 30_000 });

afterEach(() => cleanup());

afterAll(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  setApi(null);
  for (const store of stores)
    (store.setState as (s: unknown, replace: true) => void)(store.getInitialState(), true);
  window.history.replaceState(null, '', '/');
  useRoute.setState({ route: parseHash('') });
  delete (globalThis as { desktop?: unknown }).desktop;
  vi.unstubAllGlobals();
  // jsdom has none: a file that stands one in (charts kept off-screen) must not keep the next
  // file's charts from being drawn.
  delete (window as { IntersectionObserver?: unknown }).IntersectionObserver;
  await i18next.changeLanguage('en');
  // Last: resetting the wizard's store saved its draft.
  localStorage.clear();
  sessionStorage.clear();
});
