// Each dataset kind's item view (issue 26: a QA item showed its answers and language only as
// raw JSON). The item viewer's frame (navigation, id, subset) is shared; the body is the kind's.
// Every field is dataset text: shown as text nodes, never as HTML.
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import type { DatasetKind, Item, Label } from '../../../shared/domain';
import { TextBlock } from './TextBlock';

function OutputPanel({ n, text, gold }: { n: Label; text: string; gold: boolean }) {
  const { t } = useTranslation();
  return (
    <section
      className={`output${gold ? ' output--gold' : ''}`}
      data-gold={gold}
      aria-labelledby={`output-${n}-title`}
    >
      <header className="output__head">
        <h3 id={`output-${n}-title`} className="output__title">
          {t('item.output', { n })}
        </h3>
        {gold && <span className="badge badge--gold">{t('item.goldBadge')}</span>}
      </header>
      <TextBlock text={text} testId={`item-output-${n}`} />
    </section>
  );
}

/** A pairwise comparison: the instruction and both outputs, the gold one marked. */
function PairwiseBody({ item }: { item: Item }) {
  const { t } = useTranslation();
  return (
    <>
      <section className="instruction" aria-labelledby="instruction-title">
        <h3 id="instruction-title" className="section-title">
          {t('item.instruction')}
        </h3>
        <TextBlock text={item.instruction} testId="item-instruction" />
      </section>

      {item.output1 != null && item.output2 != null && (
        <div className="outputs">
          <OutputPanel n={1} text={item.output1} gold={item.label === 1} />
          <OutputPanel n={2} text={item.output2} gold={item.label === 2} />
        </div>
      )}
    </>
  );
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** A language tag with its name in the UI's language ("ar (Arabic)"); the tag alone if unknown. */
function languageText(tag: string, uiLanguage: string): string {
  try {
    const name = new Intl.DisplayNames([uiLanguage], { type: 'language', fallback: 'none' }).of(tag);
    return name ? `${tag} (${name})` : tag;
  } catch {
    return tag;
  }
}

/** Fields a kind's view does not show itself, listed as text so nothing stored is hidden. */
function OtherFields({ extra, shown }: { extra: Record<string, unknown>; shown: string[] }) {
  const { t } = useTranslation();
  const rest = Object.entries(extra).filter(([k]) => !shown.includes(k));
  if (rest.length === 0) return null;
  return (
    <section className="item-extra" data-testid="item-extra">
      <h3 className="section-title">{t('item.otherFields')}</h3>
      <TextBlock text={JSON.stringify(Object.fromEntries(rest), null, 2)} testId="item-extra-json" />
    </section>
  );
}

/** A QA item: the question, its context, the gold answers and the language. */
function QaBody({ item }: { item: Item }) {
  const { t, i18n } = useTranslation();
  const extra = item.extra ?? {};
  const answers = Array.isArray(extra.answers) ? extra.answers.map(String) : [];
  const language = str(extra.language);
  const context = str(extra.context);
  return (
    <>
      {language && (
        <p className="item-viewer__language" data-testid="item-language">
          {t('item.language', { language: languageText(language, i18n.language) })}
        </p>
      )}
      <section className="instruction" aria-labelledby="question-title">
        <h3 id="question-title" className="section-title">
          {t('item.question')}
        </h3>
        <TextBlock text={item.instruction} testId="item-question" />
      </section>
      {context !== null && (
        <section className="instruction" aria-labelledby="context-title">
          <h3 id="context-title" className="section-title">
            {t('item.context')}
          </h3>
          <TextBlock text={context} testId="item-context" />
        </section>
      )}
      <section className="output output--gold" aria-labelledby="answers-title">
        <header className="output__head">
          <h3 id="answers-title" className="output__title">
            {t('item.answers')}
          </h3>
        </header>
        <ul className="item-answers">
          {answers.map((a, i) => (
            <li key={i} className="text" data-testid="item-answer" dir="auto">
              {a}
            </li>
          ))}
        </ul>
      </section>
      <OtherFields extra={extra} shown={['answers', 'language', 'context', 'category']} />
    </>
  );
}

/** A pointwise item: the instruction, the one response, its reference and human score. */
function PointwiseBody({ item }: { item: Item }) {
  const { t } = useTranslation();
  const extra = item.extra ?? {};
  const reference = str(extra.reference);
  const score = typeof extra.human_score === 'number' ? extra.human_score : null;
  return (
    <>
      {score !== null && (
        <p className="gold-label" data-testid="item-human-score">
          {t('item.humanScore', { score })}
        </p>
      )}
      <section className="instruction" aria-labelledby="instruction-title">
        <h3 id="instruction-title" className="section-title">
          {t('item.instruction')}
        </h3>
        <TextBlock text={item.instruction} testId="item-instruction" />
      </section>
      <section className="output" aria-labelledby="response-title">
        <header className="output__head">
          <h3 id="response-title" className="output__title">
            {t('item.response')}
          </h3>
        </header>
        <TextBlock text={str(extra.response) ?? ''} testId="item-response" />
      </section>
      {reference !== null && (
        <section className="instruction" aria-labelledby="reference-title">
          <h3 id="reference-title" className="section-title">
            {t('item.reference')}
          </h3>
          <TextBlock text={reference} testId="item-reference" />
        </section>
      )}
      <OtherFields extra={extra} shown={['response', 'reference', 'human_score', 'category']} />
    </>
  );
}

/**
 * An item of a kind a study registered in the core (the page knows no main registry): its
 * instruction and every own field as text, so nothing stored is hidden.
 */
function AnyKindBody({ item }: { item: Item }) {
  const { t } = useTranslation();
  return (
    <>
      <section className="instruction" aria-labelledby="instruction-title">
        <h3 id="instruction-title" className="section-title">
          {t('item.instruction')}
        </h3>
        <TextBlock text={item.instruction} testId="item-instruction" />
      </section>
      <OtherFields extra={item.extra ?? {}} shown={[]} />
    </>
  );
}

const KIND_VIEWS: Record<string, ComponentType<{ item: Item }>> = {
  pairwise: PairwiseBody,
  qa: QaBody,
  pointwise: PointwiseBody,
};

/** The body a dataset kind shows in the item viewer (a registered kind: the generic one). */
export function kindView(kind: DatasetKind): ComponentType<{ item: Item }> {
  return KIND_VIEWS[kind] ?? AnyKindBody;
}

/** An item's kind from its own fields, for a viewer that was not told the dataset's kind. */
export function kindOfItem(item: Item): DatasetKind {
  if (item.output1 != null) return 'pairwise';
  if (item.extra && 'answers' in item.extra) return 'qa';
  if (item.extra && 'response' in item.extra) return 'pointwise';
  return 'pairwise';
}
