import { useTranslation } from 'react-i18next';
import { protocolOf } from '../lib/experiment-config';
import { listRendererProtocols, protocolNamespaces, type RendererProtocol } from '../protocols/registry';
import { useWizard } from '../stores/wizard';

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

/** Every protocol the app offers; each says what it does before anything is paid. */
export function ProtocolStep() {
  const { t } = useTranslation();
  const current = useWizard((s) => protocolOf(s.draft));
  return (
    <section className="wizard-step" aria-labelledby="step-title">
      <h2 id="step-title" className="wizard-step__title">
        {t('wizard.protocol.title')}
      </h2>
      {listRendererProtocols().map((p) => (
        <ProtocolChoice key={p.id} protocol={p} selected={p.id === current} />
      ))}
    </section>
  );
}
