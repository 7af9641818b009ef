import { useTranslation } from 'react-i18next';
import { TARGET_LANGUAGES } from '../../../../../shared/protocols/judge-ls/choice';
import { presetOf } from '../../../lib/providers';
import { JUDGE_LS_NAMESPACES } from '../i18n';
import { tieProbesOn } from './draft';
import { useJudgeLsDraft } from './state';

/** Judge-LS's lines in the summary's recap: the transformer and the tie probes. */
export function SummaryLines() {
  const { t } = useTranslation(JUDGE_LS_NAMESPACES);
  const own = useJudgeLsDraft();
  const languages = TARGET_LANGUAGES.filter((l) => own.transform.languages[l]);
  return (
    <>
      <dt>{t('wizard.summary.transformer')}</dt>
      <dd>
        {presetOf(own.transform.provider).title}, {own.transform.model} → {languages.join(', ')}
      </dd>
      <dt>{t('wizard.summary.tieProbes')}</dt>
      <dd>{tieProbesOn(own) ? t('common.yes') : t('common.no')}</dd>
    </>
  );
}
