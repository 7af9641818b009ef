import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Field } from '../components/Field';
import { useAppInfo, useDatasets } from '../stores/datasets';
import { useImport } from '../stores/import';
import { routeHref } from '../stores/route';
import { useWizard } from '../stores/wizard';
import { ImportStatus } from '../pages/ImportStatus';
import { useFieldError } from './issues';
import { SampleButtons } from './SampleButtons';
import { getRendererProtocol } from '../protocols/registry';
import { Button } from '../components/Button';

export function DatasetStep() {
  const { t } = useTranslation();
  const { datasets, loaded } = useDatasets();
  const datasetId = useWizard((s) => s.draft.datasetId);
  const setDataset = useWizard((s) => s.setDataset);
  const sample = useAppInfo((s) => s.info?.samples.find((x) => x.id === 'llmbar'));
  const loadSample = useImport((s) => s.loadSample);
  const importing = useImport((s) => s.phase.kind !== 'idle');
  const error = useFieldError('dataset', 'dataset');
  // Once a study is chosen (Back from its steps), only the samples it can read are offered.
  const kinds = useWizard((s) =>
    s.draft.protocol ? getRendererProtocol(s.draft.protocol)?.datasetKinds : undefined,
  );

  // A sensible default: the first listed dataset, so a first run needs no choice here.
  useEffect(() => {
    const chosen = datasets.find((d) => d.id === datasetId);
    if (!chosen && datasets.length > 0) setDataset(datasets[0].id, datasets[0].name, datasets[0].kind);
  }, [datasets, datasetId, setDataset]);

  if (!loaded) return <p className="empty-note">{t('common.loading')}</p>;

  const selected = datasets.find((d) => d.id === datasetId);
  return (
    <section className="wizard-step" aria-labelledby="step-title">
      <h2 id="step-title" className="wizard-step__title">
        {t('wizard.dataset.title')}
      </h2>
      <p className="wizard-step__intro">{t('wizard.dataset.intro')}</p>
      {datasets.length === 0 ? (
        <div className="empty-state empty-state--inline">
          <p className="empty-state__body">{t('wizard.dataset.none')}</p>
          <div className="empty-state__actions">
            {sample && (
              <Button
                className="btn btn--primary"
                disabled={importing}
                onClick={() => void loadSample(sample.id)}
              >
                {t('datasets.loadSample', { name: sample.name })}
              </Button>
            )}
            <a className="btn" href={routeHref({ name: 'datasets' })}>
              {t('wizard.dataset.goImport')}
            </a>
          </div>
        </div>
      ) : (
        <>
          <Field label={t('wizard.dataset.label')} error={error}>
            <select
              data-testid="wizard-dataset"
              value={datasetId ?? ''}
              onChange={(e) => {
                const d = datasets.find((x) => x.id === Number(e.target.value));
                if (d) setDataset(d.id, d.name, d.kind);
              }}
            >
              {datasetId === null && <option value="">{t('wizard.dataset.choose')}</option>}
              {datasets.map((d) => (
                <option key={d.id} value={d.id}>
                  {t('wizard.dataset.option', { name: d.name, count: d.itemCount })}
                </option>
              ))}
            </select>
          </Field>
          {selected && (
            <p className="hint">
              {t('datasets.itemCount', { count: selected.itemCount })} · {selected.sourceFile}
              {selected.subsets.length > 0 &&
                ` · ${selected.subsets.map((s) => s.subset || t('datasets.noSubset')).join(', ')}`}
            </p>
          )}
          <SampleButtons kinds={kinds} testId="wizard-dataset-samples" />
          <p className="hint">
            {t('wizard.dataset.other')}{' '}
            <a href={routeHref({ name: 'datasets' })}>{t('wizard.dataset.goImport')}</a>
          </p>
        </>
      )}
      <div className="stack">
        <ImportStatus />
      </div>
    </section>
  );
}
