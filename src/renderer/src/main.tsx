import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './i18n';
// The composition root: the one generic file that imports the registering index, so the
// built-in protocols are registered before the app renders. Generic code reads them through
// protocols/registry.ts and never names a protocol (eslint.config.mjs, DESIGN.md §1b).
import './protocols';
import './styles/base.css';
import './styles/frame.css';
import './styles/datasets.css';
import './styles/items.css';
import './styles/experiments.css';
import { missingWebToken } from './api';
import { App } from './App';
import { subscribeToDatasetChanges, useAppInfo, useDatasets } from './stores/datasets';
import { subscribeToItemInvalidation } from './stores/items';
import { subscribeToExperimentChanges } from './stores/experiments';

if (!missingWebToken()) {
  subscribeToDatasetChanges();
  subscribeToItemInvalidation();
  subscribeToExperimentChanges();
  void useAppInfo.getState().load();
  void useDatasets.getState().refresh();
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
