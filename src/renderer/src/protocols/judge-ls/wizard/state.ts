// Judge-LS's part of the wizard draft in the wizard store: read with the hook, edit with the
// setters (through the store's generic update).
import { useMemo } from 'react';
import type { TargetLanguage } from '../../../../../shared/protocols/judge-ls/types';
import { ensureProvider, type PresetId, presetOf, useWizard } from '../../host';
import { judgeLsDraft, withJudgeLsDraft, type CiMethod, type JudgeLsDraft, type TemplateKey } from './draft';

/** Judge-LS's part of the current draft (the transformer following judge 1 until chosen). */
export function useJudgeLsDraft(): JudgeLsDraft {
  const draft = useWizard((s) => s.draft);
  return useMemo(() => judgeLsDraft(draft), [draft]);
}

function edit(fn: (own: JudgeLsDraft) => JudgeLsDraft) {
  useWizard.getState().update((d) => withJudgeLsDraft(d, fn(judgeLsDraft(d))));
}

export function setTransformProvider(name: PresetId): void {
  useWizard.getState().update((d) => {
    const own = judgeLsDraft(d);
    const model =
      presetOf(name).transformModel ??
      d.judges.find((j) => j.provider === name)?.model ??
      presetOf(name).models[0] ??
      '';
    return withJudgeLsDraft(
      { ...d, providers: ensureProvider(d, name) },
      { ...own, transform: { ...own.transform, provider: name, model, edited: true } },
    );
  });
}

export function setTransformModel(model: string): void {
  edit((own) => ({ ...own, transform: { ...own.transform, model, edited: true } }));
}

export function setTransformBatch(batch: boolean): void {
  edit((own) => ({ ...own, transform: { ...own.transform, batch } }));
}

export function setLanguage(lang: TargetLanguage, on: boolean): void {
  edit((own) => ({
    ...own,
    transform: { ...own.transform, languages: { ...own.transform.languages, [lang]: on } },
  }));
}

export function setOtherLanguages(text: string): void {
  edit((own) => ({ ...own, transform: { ...own.transform, otherLanguages: text } }));
}

export function setVerifyModel(model: string): void {
  edit((own) => ({ ...own, transform: { ...own.transform, verifyModel: model } }));
}

/** `undefined` goes back to the protocol's default template. */
export function setTemplate(key: TemplateKey, text: string | undefined): void {
  edit((own) => {
    const templates = { ...own.templates };
    if (text === undefined) delete templates[key];
    else templates[key] = text;
    return { ...own, templates };
  });
}

export function setTieProbes(on: boolean): void {
  edit((own) => ({ ...own, tieProbes: on }));
}

export function setNoiseFloor(on: boolean): void {
  edit((own) => ({ ...own, noiseFloor: on }));
}

export function setCiMethod(ci: CiMethod): void {
  edit((own) => ({ ...own, ci }));
}
