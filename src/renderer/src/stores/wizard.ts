import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { DatasetKind } from '../../../shared/domain';
import type { CostEstimate } from '../../../shared/experiments';
import { ApiError, getApi, toApiError } from '../api';
import {
  buildConfig,
  createConfig,
  defaultExperimentName,
  initialDraft,
  newJudge,
  reserveJudgeKeys,
  validateStep,
  wizardSteps,
  type DraftIssue,
  type JudgeDraft,
  type PriceDraft,
  type StepId,
  type WizardDraft,
} from '../lib/experiment-config';
import { demoDraft } from '../lib/demo';
import type { PlanDraft } from '../preregistration/plan-form';
import { draftFromPreset, presetOf, type PresetId, type ProviderDraft } from '../lib/providers';

export type EstimateState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'done'; estimate: CostEstimate }
  | { status: 'error'; error: ApiError };

export type CreatePhase = 'idle' | 'creating' | 'starting';

/** A wizard's state with a new draft on its first step: nothing checked or created yet. */
function freshState(
  draft: WizardDraft,
  step: StepId,
): Pick<
  WizardState,
  'draft' | 'step' | 'issues' | 'configError' | 'estimate' | 'createPhase' | 'createError' | 'missingKeys'
> {
  return {
    draft,
    step,
    issues: [],
    configError: null,
    estimate: { status: 'idle' },
    createPhase: 'idle',
    createError: null,
    missingKeys: null,
  };
}

interface WizardState {
  draft: WizardDraft;
  step: StepId;
  /** Problems of the current step, shown after Next was pressed. */
  issues: DraftIssue[];
  /** The core's last verdict on the whole config (issues name fields such as `judges[0].model`). */
  configError: ApiError | null;
  estimate: EstimateState;
  createPhase: CreatePhase;
  createError: ApiError | null;
  /** Key names (environment variables) the config needs and the core does not have; null: not known. */
  missingKeys: string[] | null;

  setDataset(datasetId: number, datasetName: string, kind?: DatasetKind): void;
  addJudge(): void;
  removeJudge(index: number): void;
  updateJudge(index: number, patch: Partial<Omit<JudgeDraft, 'key'>>): void;
  setJudgeProvider(index: number, preset: PresetId): void;
  updateProvider(name: PresetId, patch: Partial<ProviderDraft>): void;
  /** Any edit of the draft; protocol plug-ins edit their part (`protocolDrafts[id]`) through it. */
  update(fn: (draft: WizardDraft) => WizardDraft): void;
  setProtocol(protocol: string): void;
  setLimit(limit: string): void;
  setName(name: string): void;
  /** Overrides one model's price; the estimate follows once typing pauses and the prices are valid. */
  setPrice(model: string, price: PriceDraft): void;
  /** Back to the shipped price (or to unpriced). */
  resetPrice(model: string): void;
  /** The plan to lock at create (null: none); the estimate stays, since the plan does not change it. */
  setPreregistration(plan: PlanDraft | null): void;

  next(): boolean;
  back(): void;
  goTo(step: StepId): void;
  loadEstimate(): Promise<void>;
  /** Asks the core which of the config's providers lack a key (a run would pause at once). */
  checkKeys(): Promise<void>;
  /** Creates the experiment and starts its run; returns its id, or null on failure. */
  createAndStart(): Promise<number | null>;
  /** "Try it without API keys": the simulated demo on a dataset, shown at its summary step. */
  startDemo(datasetId: number): void;
  reset(): void;
}

/** The providers with `name` added from its preset if the user has not touched it yet. */
export function ensureProvider(draft: WizardDraft, name: PresetId): WizardDraft['providers'] {
  return draft.providers[name] ? draft.providers : { ...draft.providers, [name]: draftFromPreset(name) };
}

let estimateSeq = 0;

/** Pause in typing after which a price edit re-runs the estimate. */
export const PRICE_ESTIMATE_DELAY_MS = 300;
let priceTimer: ReturnType<typeof setTimeout> | undefined;

function cancelPriceEstimate(): void {
  clearTimeout(priceTimer);
  priceTimer = undefined;
}

/** Where the draft and step live across a reload of the page (this tab only, no keys in it). */
export const WIZARD_STORAGE_KEY = 'judge-lab.wizard';

export const useWizard = create<WizardState>()(
  persist(
    (set, get) => {
      const edit = (fn: (d: WizardDraft) => WizardDraft) => {
        cancelPriceEstimate();
        set((s) => ({ draft: fn(s.draft), estimate: { status: 'idle' }, missingKeys: null }));
      };

      // Price edits keep the shown estimate until the new one arrives (no flicker per keystroke);
      // while a price is invalid the old estimate stays and creating is blocked.
      const editPrices = (fn: (prices: WizardDraft['prices']) => WizardDraft['prices']) => {
        cancelPriceEstimate();
        set((s) => ({ draft: { ...s.draft, prices: fn(s.draft.prices) } }));
        if (validateStep('summary', get().draft).length > 0) return;
        priceTimer = setTimeout(() => {
          priceTimer = undefined;
          void get().loadEstimate();
        }, PRICE_ESTIMATE_DELAY_MS);
      };

      return {
        ...freshState(initialDraft(), 'dataset'),

        setDataset(datasetId, datasetName, kind) {
          edit((d) => ({
            ...d,
            datasetId,
            // A summary from before dataset kinds has none: pairwise (DatasetSummary.kind).
            datasetKind: kind ?? 'pairwise',
            name: d.nameEdited ? d.name : defaultExperimentName(datasetName),
          }));
        },

        addJudge() {
          edit((d) => {
            // A second judge most often compares another vendor; start from the first judge's.
            const provider = d.judges[0]?.provider ?? 'openai';
            const used = new Set(d.judges.map((j) => j.model));
            const model = presetOf(provider).models.find((m) => !used.has(m));
            return { ...d, judges: [...d.judges, newJudge(provider, model)] };
          });
        },

        removeJudge(index) {
          edit((d) => ({ ...d, judges: d.judges.filter((_, i) => i !== index) }));
        },

        updateJudge(index, patch) {
          edit((d) => ({
            ...d,
            judges: d.judges.map((j, i) => {
              if (i !== index) return j;
              const next = { ...j, ...patch };
              if (patch.label !== undefined) next.labelEdited = true;
              else if (patch.model !== undefined && !j.labelEdited) next.label = patch.model;
              return next;
            }),
          }));
        },

        setJudgeProvider(index, preset) {
          edit((d) => {
            const model = presetOf(preset).models[0] ?? '';
            return {
              ...d,
              providers: ensureProvider(d, preset),
              judges: d.judges.map((j, i) =>
                i === index ? { ...j, provider: preset, model, label: j.labelEdited ? j.label : model } : j,
              ),
            };
          });
        },

        updateProvider(name, patch) {
          edit((d) => {
            const current = d.providers[name] ?? draftFromPreset(name);
            return { ...d, providers: { ...d.providers, [name]: { ...current, ...patch } } };
          });
        },

        update(fn) {
          edit(fn);
        },

        setProtocol(protocol) {
          edit((d) => ({ ...d, protocol }));
        },

        setLimit(limit) {
          edit((d) => ({ ...d, limit }));
        },

        setName(name) {
          edit((d) => ({ ...d, name, nameEdited: true }));
        },

        setPrice(model, price) {
          editPrices((prices) => ({ ...prices, [model]: price }));
        },

        resetPrice(model) {
          editPrices((prices) => {
            const rest = { ...prices };
            delete rest[model];
            return rest;
          });
        },

        setPreregistration(plan) {
          // A refusal of the last create may name a plan field: it goes once the plan is edited.
          set((s) => ({
            draft: { ...s.draft, preregistration: plan },
            createError: null,
          }));
        },

        next() {
          const { step, draft } = get();
          const issues = validateStep(step, draft);
          set({ issues });
          if (issues.length > 0) return false;
          const steps = wizardSteps(draft);
          const i = steps.indexOf(step);
          if (i < steps.length - 1) set({ step: steps[i + 1] });
          return true;
        },

        back() {
          const steps = wizardSteps(get().draft);
          const i = steps.indexOf(get().step);
          if (i > 0) set({ step: steps[i - 1], issues: [] });
        },

        goTo(step) {
          // Forward jumps must pass every step in between, as Next would.
          const { draft } = get();
          const steps = wizardSteps(draft);
          const target = steps.indexOf(step);
          for (let i = 0; i < target; i++) {
            const issues = validateStep(steps[i], draft);
            if (issues.length > 0) {
              set({ step: steps[i], issues });
              return;
            }
          }
          set({ step, issues: [] });
        },

        async loadEstimate() {
          const seq = ++estimateSeq;
          set({ estimate: { status: 'loading' } });
          try {
            const estimate = await getApi().call('experiments.estimate', {
              config: buildConfig(get().draft),
            });
            // An edit meanwhile (a new protocol, "Start over") set the estimate back to idle: this
            // answer is for the old draft and must not be shown as the new one's.
            const current = () => seq === estimateSeq && get().estimate.status === 'loading';
            if (current()) set({ estimate: { status: 'done', estimate }, configError: null });
          } catch (err) {
            if (seq !== estimateSeq || get().estimate.status !== 'loading') return;
            const error = toApiError(err);
            set({
              estimate: { status: 'error', error },
              configError: error.code === 'invalid_input' || error.code === 'invalid_params' ? error : null,
            });
          }
        },

        async checkKeys() {
          const draft = get().draft;
          const providers = (buildConfig(draft).providers ?? {}) as Record<string, { apiKeyEnv?: string }>;
          try {
            const status = await getApi().call('providers.keyStatus', { providers });
            if (get().draft !== draft) return; // edited meanwhile: a newer check follows
            set({
              // A judge's batch twin shares its provider's key: name each key once.
              missingKeys: [
                ...new Set(
                  Object.entries(status)
                    .filter(([, st]) => st === 'missing')
                    .map(([name]) => providers[name]?.apiKeyEnv ?? name),
                ),
              ],
            });
          } catch {
            set({ missingKeys: null });
          }
        },

        async createAndStart() {
          if (get().createPhase !== 'idle') return null;
          if (validateStep('summary', get().draft).length > 0) return null;
          set({ createPhase: 'creating', createError: null });
          let experimentId: number | null = null;
          try {
            const created = await getApi().call('experiments.create', { config: createConfig(get().draft) });
            experimentId = created.id;
            set({ createPhase: 'starting' });
            await getApi().call('experiments.start', { experimentId });
            set({ createPhase: 'idle' });
            return experimentId;
          } catch (err) {
            const error = toApiError(err);
            set({
              createPhase: 'idle',
              createError: error,
              configError: error.code === 'invalid_input' || error.code === 'invalid_params' ? error : null,
            });
            // Created but not started: the run view can still start it.
            return experimentId;
          }
        },

        startDemo(datasetId) {
          cancelPriceEstimate();
          set(freshState(demoDraft(datasetId), 'summary'));
        },

        reset() {
          cancelPriceEstimate();
          set(freshState(initialDraft(), 'dataset'));
        },
      };
    },
    {
      name: WIZARD_STORAGE_KEY,
      // localStorage: a reload, and a restart of judge-lab serve (which keeps its port, so the
      // page's origin and its storage stay), keep the draft (issue 26). No key is ever in it.
      storage: createJSONStorage(() => localStorage),
      partialize: (s) => ({ draft: s.draft, step: s.step }),
      onRehydrateStorage: () => (state) => {
        if (state) reserveJudgeKeys(state.draft.judges.map((j) => j.key));
      },
    },
  ),
);
