// What the app lends a renderer plug-in (issue 34, DESIGN.md §1b): the one generic module a
// plug-in's folder (protocols/<id>/) may import, beside src/shared, the kits (src/renderer/src/kits/),
// its own files and npm packages; eslint.config.mjs refuses any other import from a plug-in. The
// list below is exactly what a study's screens can use, as protocols/host.ts is on the main side:
// adding to it is a design decision (say why in DESIGN.md §1b). It never imports the registering
// index (protocols/index.ts), which imports the plug-ins: that would be an import circle.

// The app's i18next (a plug-in adds its namespace to it) and the results page's words
// ('results' namespace: Total, Loading…), which every plug-in's namespaces fall back on.
import '../results/i18n';
// The results page's styles (tables, chart cards, flip browsers) that plug-in sections and pages
// are drawn with, loaded with the plug-in even when it opens on a page of its own.
import '../results/results.css';

export { i18next } from '../i18n';

/** The seam: what a plug-in registers and the props the generic pages hand its components. */
export type {
  ProtocolPageProps,
  RendererProtocol,
  ResultsSectionsProps,
  WizardPlugin,
  WizardStepPlugin,
} from './registry';

/** The typed API (through the bundle scope when a study bundle is opened read-only). */
export { ApiError, getApi, toApiError } from '../api';
export { useApi, useReadOnlyBundle } from '../api/scope';

/** Generic components. */
export { ErrorPanel } from '../components/ErrorPanel';
export { ExperimentCrumb } from '../components/ExperimentCrumb';
export { Field } from '../components/Field';
export { Notice } from '../components/Notice';
export { ScrollBox } from '../components/ScrollRegion';

/** Routes: a plug-in's pages link to each other and back to the results page. */
export type { Navigate, ResultsRoute } from '../results/routes';
export { navigate, routeHref } from '../stores/route';

/** The results page's parts a plug-in's sections are built from. */
export { ChartCard, hasData } from '../results/ChartCard';
export type { ChartParams } from '../results/EChart';
export { TableSection } from '../results/TableSection';
export { ReasonDiff } from '../results/ReasonDiff';
export { diffReasons } from '../results/reason-diff';
export { failureReasonText } from '../results/failure-reason';
export { formatCi, formatInt, formatP, formatPercent, formatPoints } from '../results/format';
export { useLiveReload } from '../results/useLiveReload';
export { useFigureLanguage } from '../lib/figure-language';
export { useFormat } from '../lib/useFormat';

/** The wizard: its draft and store, provider presets, and the parts its generic steps are built from. */
export {
  batchCapable,
  checkProvider,
  judgeProviderName,
  type DraftIssue,
  type WizardDraft,
} from '../lib/experiment-config';
export { draftFromPreset, isPresetId, presetOf, type PresetId } from '../lib/providers';
export { useModelSuggestions } from '../lib/listed-models';
export { ensureProvider, useWizard } from '../stores/wizard';
export { useStepIssues } from '../wizard/issues';
export { PresetOptions } from '../wizard/PresetOptions';
export { ProviderCard } from '../wizard/ProviderCard';
export { PromptPreviewPanel, TemplateEditor, useProtocolDefaults } from '../wizard/PromptTemplates';
