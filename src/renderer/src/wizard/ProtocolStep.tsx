import { useTranslation } from 'react-i18next';
import { datasetFits, protocolOf } from '../lib/experiment-config';
import {
  getRendererProtocol,
  listRendererProtocols,
  protocolNamespaces,
  type RendererProtocol,
} from '../protocols/registry';
import { useDatasets } from '../stores/datasets';
import { useWizard } from '../stores/wizard';
import { SampleButtons } from './SampleButtons';

function ProtocolChoice({ protocol, selected }: { protocol: RendererProtocol; selected: boolean }) {
  const { t } = useTranslation(protocolNamespaces(protocol));
  const setProtocol = useWizard((s) => s.setProtocol);
  return (
    <label className={`choice${selected ? ' choice--selected' : ''}`}>
      <input
        type="radio"
        name="protocol"
        value={protocol.id}
        checked={selected}
        onChange={() => setProtocol(protocol.id)}
      />
      <span className="choice__body">
        <span className="choice__title">{t(protocol.title)}</span>
        <span className="choice__text">{t(protocol.description)}</span>
      </span>
    </label>
  );
}

/**
 * Whether the chosen study reads the chosen dataset, said as soon as the study is picked, with
 * the bundled samples it can read one click away (issue 38 item 2).
 */
function DatasetFit({ protocol }: { protocol: RendererProtocol }) {
  const { t } = useTranslation(protocolNamespaces(protocol));
  const fits = useWizard((s) => datasetFits(s.draft));
  const kind = useWizard((s) => s.draft.datasetKind);
  const datasetId = useWizard((s) => s.draft.datasetId);
  const datasetName = useDatasets((s) => s.datasets.find((d) => d.id === datasetId)?.name);
  if (fits || !kind || !protocol.datasetKinds) return null;
  const or = t('wizard.protocol.or');
  return (
    <div className="notice notice--warn" role="alert" data-testid="protocol-dataset-kind">
      <p>
        {t('wizard.protocol.wrongKind', {
          study: t(protocol.title),
          kinds: protocol.datasetKinds.map((k) => t(`datasets.kinds.${k}`)).join(or),
          dataset: datasetName ?? '',
          kind: t(`datasets.kinds.${kind}`),
        })}
      </p>
      <SampleButtons kinds={protocol.datasetKinds} testId="protocol-samples" />
    </div>
  );
}

/** Every protocol the app offers; each says what it does before anything is paid. */
export function ProtocolStep() {
  const { t } = useTranslation();
  const current = useWizard((s) => protocolOf(s.draft));
  const chosen = getRendererProtocol(current);
  return (
    <section className="wizard-step" aria-labelledby="step-title">
      <h2 id="step-title" className="wizard-step__title">
        {t('wizard.protocol.title')}
      </h2>
      {listRendererProtocols().map((p) => (
        <ProtocolChoice key={p.id} protocol={p} selected={p.id === current} />
      ))}
      {chosen && <DatasetFit protocol={chosen} />}
    </section>
  );
}
