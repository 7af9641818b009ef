import { useTranslation } from 'react-i18next';
import { useStepIssues } from '../../host';
import { JUDGE_LS_NAMESPACES } from '../i18n';
import { probedLanguages, tieProbesOn } from './draft';
import { setTieProbes, useJudgeLsDraft } from './state';
import '../judge-ls.css';

/** Judge-LS's field on the options step: tie probes, which need a translated (not code-switched) target. */
export function TieProbesOption() {
  const { t } = useTranslation(JUDGE_LS_NAMESPACES);
  const own = useJudgeLsDraft();
  const error = useStepIssues('options').find((i) => i.field === 'tieProbes')?.message;
  const probed = probedLanguages(own);
  const zh = probed.length > 0;
  return (
    <>
      <label className={`check check--block${zh ? '' : ' check--disabled'}`}>
        <input
          type="checkbox"
          data-testid="option-tie-probes"
          checked={tieProbesOn(own)}
          disabled={!zh}
          onChange={(e) => setTieProbes(e.target.checked)}
        />
        <span>
          <strong>{t('wizard.options.tieProbes')}</strong>
          <span className="check__text">
            {t('wizard.options.tieProbesText', { languages: probed.join(', ') || 'ZH' })}
          </span>
          {!zh && (
            <span className="check__text check__text--warn">{t('wizard.options.tieProbesNeedZh')}</span>
          )}
        </span>
      </label>
      {error && <p className="inline-error">{error}</p>}
    </>
  );
}
