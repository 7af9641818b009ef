import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { presetOf, useWizard } from '../host';
import { asksParaphrases, biasDraft, DEFAULT_PARAPHRASES_SHOWN, needsRewriter, probeIds } from './draft';
import { selectedProbes } from '../../../../shared/protocols/bias-probes/probe-registry';
import { BIAS_NAMESPACES } from './i18n';

/** Bias probes' lines in the summary's recap: every choice of its step (issue 38 item 4). */
export function SummaryLines() {
  const { t, i18n } = useTranslation(BIAS_NAMESPACES);
  const lang = i18n.language.startsWith('zh') ? 'zh' : 'en';
  const own = biasDraft(useWizard((s) => s.draft));
  const probes = probeIds().filter((p) => own.probes[p]);
  const rubric = own.rubric?.trim() ?? '';
  return (
    <>
      <dt>{t('wizard.summary.mode')}</dt>
      <dd data-testid="summary-bias-mode">{t(`wizard.probes.${own.mode}`)}</dd>
      {own.mode === 'pointwise' && (
        <>
          <dt>{t('wizard.summary.scale')}</dt>
          <dd data-testid="summary-bias-scale">{own.scale === 10 ? '1–10' : '1–5'}</dd>
          <dt>{t('wizard.summary.rubric')}</dt>
          <dd>
            {rubric
              ? t('wizard.summary.customRubric', { count: rubric.length })
              : t('wizard.summary.defaultRubric')}
          </dd>
        </>
      )}
      <dt>{t('wizard.summary.probes')}</dt>
      <dd data-testid="summary-bias-probes">
        {probes.map((p) => t(`wizard.probeChoices.${p}`)).join(' · ') || t('wizard.summary.none')}
      </dd>
      {own.probes.length && (
        <>
          <dt>{t('wizard.summary.band')}</dt>
          <dd data-testid="summary-bias-band">{`${own.lengthBand[0]}–${own.lengthBand[1]} ×`}</dd>
        </>
      )}
      {asksParaphrases(own) && (
        <>
          <dt>{t('wizard.probes.paraphrases')}</dt>
          <dd data-testid="summary-bias-paraphrases">{own.paraphrases ?? DEFAULT_PARAPHRASES_SHOWN}</dd>
        </>
      )}
      {/* Each chosen probe's own options, as set or their defaults. */}
      {selectedProbes({ probes })
        .filter((p) => p.options?.length)
        .map((p) => (
          <Fragment key={p.id}>
            <dt>{t('wizard.probes.optionsOf', { probe: p.texts.name[lang] })}</dt>
            <dd data-testid={`summary-bias-options-${p.id}`}>
              {p
                .options!.map((o) => {
                  const given = own.probeOptions?.[p.id];
                  const v = given && Object.hasOwn(given, o.key) ? given[o.key] : o.default;
                  return `${o.label[lang]}: ${String(v)}`;
                })
                .join(' · ')}
            </dd>
          </Fragment>
        ))}
      <dt>{t('wizard.summary.rewriter')}</dt>
      <dd data-testid="summary-bias-rewriter">
        {needsRewriter(own)
          ? `${presetOf(own.rewriter.provider).title}, ${own.rewriter.model.trim()}`
          : t('wizard.summary.noRewriter')}
      </dd>
      <dt>{t('wizard.summary.noiseFloor')}</dt>
      <dd data-testid="summary-bias-noise-floor">
        {t(own.noiseFloor ? 'wizard.summary.on' : 'wizard.summary.off')}
      </dd>
    </>
  );
}
