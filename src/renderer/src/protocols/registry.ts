// The renderer's protocol plug-ins: what each protocol adds to the generic pages (wizard steps,
// results sections, extra pages, strings). Generic code asks this registry and never names a
// protocol; a protocol without a plug-in still gets the generic wizard and results shell.
import type { ComponentType } from 'react';
import type { DatasetKind } from '../../../shared/domain';
import type { ExperimentResults } from '../../../shared/experiments';
import type { CardDictionaries, CardDictionary } from '../../../shared/report-card/phrases';
import { i18next } from '../i18n';
import type { DraftIssue, WizardDraft } from '../lib/wizard-draft';
import type { PresetId } from '../lib/providers';
import type { Navigate } from '../results/routes';

/** What the results shell hands a protocol's sections. */
export interface ResultsSectionsProps {
  results: ExperimentResults;
  experimentId: number;
  excludeFlagged: boolean;
  onNavigate: Navigate;
}

export interface ProtocolPageProps {
  experimentId: number;
  /** The URL query of the page (its filters, the opened row…). */
  query: Record<string, string>;
  onNavigate: Navigate;
}

/** A page of its own, at `#/experiments/<id>/<route>`. */
export interface ProtocolPage {
  /** URL segment, unique across protocols (the registry refuses a second one). */
  route: string;
  component: ComponentType<ProtocolPageProps>;
  /** i18n key (the protocol's namespace) of a link to this page on the run view; none without. */
  runLink?: string;
  /** i18n key of its tab in an opened study bundle, for a page the run view does not link to. */
  bundleLink?: string;
}

/** A wizard step only this protocol has, shown between the judges and the options step. */
export interface WizardStepPlugin {
  id: string;
  /** i18n key (the protocol's namespace) of the stepper's label. */
  label: string;
  View: ComponentType;
  /** Problems that keep the user on this step (codes are keys under `wizard.errors`). */
  validate(draft: WizardDraft): DraftIssue[];
  /** First segments of config paths whose errors belong to this step (`transform`, `options`…). */
  fields: string[];
}

/**
 * The protocol's part of the wizard: its steps and its config keys. It keeps its own part of the
 * draft in `draft.protocolDrafts[id]` (edited through the wizard store's `update`), reading a
 * missing one as its defaults.
 */
export interface WizardPlugin {
  steps: WizardStepPlugin[];
  /** Shown first on the generic options step (e.g. a protocol's own switches). */
  OptionsFields?: ComponentType;
  /** Config paths (first segment) that the options step owns. */
  optionFields?: string[];
  /** Lines of the summary's recap (a fragment of `<dt>`/`<dd>` pairs). */
  SummaryLines?: ComponentType;
  /** Providers and models the protocol calls besides the judges (a transformer, a generator…). */
  providersInUse?(draft: WizardDraft): PresetId[];
  /** Providers whose batch twin (`<preset>-batch`, in batch mode) the protocol's config uses. */
  batchProvidersInUse?(draft: WizardDraft): PresetId[];
  modelsInUse?(draft: WizardDraft): string[];
  /** The protocol's own config keys (DESIGN.md section 7), merged into the generic config. */
  config(draft: WizardDraft): Record<string, unknown>;
}

export interface RendererProtocol {
  id: string;
  /** i18n keys in `i18n.namespace` (a plain string shows as is). */
  title: string;
  description: string;
  /**
   * The dataset kinds the protocol reads (the core refuses the others): the wizard offers these
   * kinds' bundled samples and stops on the protocol step when the chosen dataset is another kind.
   * Absent: any kind.
   */
  datasetKinds?: readonly DatasetKind[];
  /** Registered into i18next under a namespace of the protocol's own. */
  i18n?: { namespace: string; resources: { en: object; zh: object } };
  wizard?: WizardPlugin;
  /** The protocol's sections of the results page; without them every table is shown as is. */
  ResultsSections?: ComponentType<ResultsSectionsProps>;
  /** Buttons beside "Export all" in the results header. */
  ResultsTools?: ComponentType<ResultsSectionsProps>;
  /** Nothing to show yet (default: no answer has come in). */
  isEmpty?(results: ExperimentResults): boolean;
  pages?: ProtocolPage[];
  /** The words of its judge report card rows (conditions, reasons, title), EN and 中文. */
  reportCardText?: CardDictionary;
}

const protocols = new Map<string, RendererProtocol>();

/** Adds a protocol (or replaces one with the same id, so tests can register theirs again). */
export function registerRendererProtocol(p: RendererProtocol): void {
  for (const page of p.pages ?? []) {
    const owner = findProtocolPage(page.route)?.protocol;
    if (owner && owner.id !== p.id) {
      throw new Error(`protocol ${p.id}: page "${page.route}" is already registered by ${owner.id}`);
    }
  }
  if (p.i18n) {
    for (const [lng, res] of Object.entries(p.i18n.resources)) {
      i18next.addResourceBundle(lng, p.i18n.namespace, res, true, true);
    }
  }
  protocols.set(p.id, p);
}

export function unregisterRendererProtocol(id: string): void {
  protocols.delete(id);
}

export function getRendererProtocol(id: string): RendererProtocol | undefined {
  return protocols.get(id);
}

/** In registration order: the wizard offers them in this order, the first preselected. */
export function listRendererProtocols(): RendererProtocol[] {
  return [...protocols.values()];
}

export function findProtocolPage(route: string): { protocol: RendererProtocol; page: ProtocolPage } | null {
  for (const protocol of protocols.values()) {
    const page = protocol.pages?.find((x) => x.route === route);
    if (page) return { protocol, page };
  }
  return null;
}

/** The namespaces a protocol's texts are looked up in: its own, then the app's. */
export function protocolNamespaces(p: RendererProtocol | undefined): string[] {
  return p?.i18n ? [p.i18n.namespace, 'translation'] : ['translation'];
}

/** Each registered protocol's report card words, for the card's page. */
export const rendererCardText: CardDictionaries = (id) => protocols.get(id)?.reportCardText;
