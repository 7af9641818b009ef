import { useTranslation } from 'react-i18next';
import { TARGET_LANGUAGES } from '../../../../../shared/protocols/judge-ls/choice';
import { presetOf } from '../../host';
import { JUDGE_LS_NAMESPACES } from '../i18n';
import { parseOtherLanguages, TEMPLATE_KEYS, tieProbesOn } from './draft';
import { useSelfJudged } from './self-judged';
import { useJudgeLsDraft } from './state';
import '../judge-ls.css';

/** Judge-LS's lines in the summary's recap: the transformer, templates, tie probes and intervals. */
export function SummaryLines() {
  const { t } = useTranslation(JUDGE_LS_NAMESPACES);
  const own = useJudgeLsDraft();
  const languages = [
    ...TARGET_LANGUAGES.filter((l) => own.transform.languages[l]),
    ...parseOtherLanguages(own.transform.otherLanguages).codes,
  ];
  const selfJudged = useSelfJudged();
  const edited = TEMPLATE_KEYS.filter((k) => own.templates[k] !== undefined);
  return (
    <>
      <dt>{t('wizard.summary.transformer')}</dt>
      <dd>
        {presetOf(own.transform.provider).title}, {own.transform.model} → {languages.join(', ')}
        {own.transform.verifyModel?.trim() && (
          <span data-testid="summary-verify">
            {' '}
            {t('wizard.transform.verifySummary', { model: own.transform.verifyModel.trim() })}
          </span>
        )}
        {selfJudged.length > 0 && (
          <span className="inline-warn" data-testid="summary-translator-is-judge">
            {' '}
            {t('wizard.transform.selfJudged', { judges: selfJudged.join(', ') })}
          </span>
        )}
      </dd>
      <dt>{t('wizard.summary.templates')}</dt>
      <dd data-testid="summary-templates">
        {edited.length === 0
          ? t('wizard.summary.templatesDefault')
          : t('wizard.summary.templatesEdited', {
              names: edited.map((k) => t(`wizard.templates.${k}`)).join('; '),
            })}
      </dd>
      <dt>{t('wizard.summary.tieProbes')}</dt>
      <dd>{tieProbesOn(own) ? t('common.yes') : t('common.no')}</dd>
      <dt>{t('wizard.summary.noiseFloor')}</dt>
      <dd data-testid="summary-noise-floor">{own.noiseFloor ? t('common.yes') : t('common.no')}</dd>
      <dt>{t('wizard.summary.ci')}</dt>
      <dd data-testid="summary-ci">
        {t(own.ci === 'cluster-bootstrap' ? 'intervals.bootstrap' : 'intervals.wilson')}
      </dd>
    </>
  );
}
