import { useTranslation } from 'react-i18next';
import { Field } from '../../host';
import { OptionCheck } from '../../../kits/WizardStep';
import { JUDGE_LS_NAMESPACES } from '../i18n';
import { CI_METHODS, type CiMethod } from './draft';
import { setCiMethod, setNoiseFloor, useJudgeLsDraft } from './state';
import { TieProbesOption } from './TieProbesOption';

/** Judge-LS's fields on the options step: tie probes, and which intervals the tables show. */
export function JudgeLsOptions() {
  return (
    <>
      <TieProbesOption />
      <NoiseFloorOption />
      <CiMethodOption />
    </>
  );
}

/** Config `noiseFloor`: the placebo repeat of every EN verdict (the estimate counts its calls). */
function NoiseFloorOption() {
  const { t } = useTranslation(JUDGE_LS_NAMESPACES);
  const own = useJudgeLsDraft();
  return (
    <OptionCheck
      testId="option-noise-floor"
      title={t('wizard.options.noiseFloor')}
      text={t('wizard.options.noiseFloorText')}
      checked={own.noiseFloor ?? false}
      onChange={setNoiseFloor}
    />
  );
}

/** Config `ci`: Wilson or the item-clustered bootstrap, for the tables and exports. */
function CiMethodOption() {
  const { t } = useTranslation(JUDGE_LS_NAMESPACES);
  const own = useJudgeLsDraft();
  return (
    <div className="form-grid">
      <Field label={t('wizard.options.ci')} hint={t('wizard.options.ciText')} className="field--wide">
        <select
          data-testid="option-ci"
          value={own.ci ?? 'wilson'}
          onChange={(e) => setCiMethod(e.target.value as CiMethod)}
        >
          {CI_METHODS.map((m) => (
            <option key={m} value={m}>
              {t(m === 'wilson' ? 'intervals.wilson' : 'intervals.bootstrap')}
            </option>
          ))}
        </select>
      </Field>
    </div>
  );
}
