import { useTranslation } from 'react-i18next';
import { Field } from '../../../components/Field';
import { JUDGE_LS_NAMESPACES } from '../i18n';
import { CI_METHODS, type CiMethod } from './draft';
import { setCiMethod, useJudgeLsDraft } from './state';
import { TieProbesOption } from './TieProbesOption';

/** Judge-LS's fields on the options step: tie probes, and which intervals the tables show. */
export function JudgeLsOptions() {
  return (
    <>
      <TieProbesOption />
      <CiMethodOption />
    </>
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
