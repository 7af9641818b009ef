// The Markdown stripper moved to src/shared with the format probe (it makes the probe's `plain`
// condition); this name stays for the main side's readers and the mock provider.
export { stripMarkdown } from '../../../shared/protocols/bias-probes/strip-markdown';
