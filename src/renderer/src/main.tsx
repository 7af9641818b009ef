import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './i18n';
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
