// Each dataset kind's item view (issue 26: a QA item showed its answers and language only as
// raw JSON). The item viewer's frame (navigation, id, subset) is shared; the body is the kind's.
// Every field is dataset text: shown as text nodes, never as HTML.
import type { ComponentType, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { DatasetKind, Item, Label } from '../../../shared/domain';
import { TextBlock } from './TextBlock';

/** One of the item's texts under its heading (`<id>-title`): the instruction, a context… */
function TextSection({
  id,
  title,
  text,
  testId,
}: {
  id: string;
  title: string;
  text: string;
  testId: string;
}) {
  return (
    <section className="instruction" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="section-title">
        {title}
      </h3>
      <TextBlock text={text} testId={testId} />
    </section>
  );
}

/** The instruction the judge was given, as most kinds show it first. */
function InstructionSection({ item }: { item: Item }) {
  const { t } = useTranslation();
  return (
    <TextSection
      id="instruction"
      title={t('item.instruction')}
      text={item.instruction}
      testId="item-instruction"
    />
  );
}

/** What is judged (an output, a response) or the gold answers, in a panel; gold ones framed. */
function OutputSection({
  id,
  title,
  gold = false,
  goldData,
  badge,
  children,
}: {
  id: string;
  title: string;
  gold?: boolean;
  /** `data-gold`, where the panel is one of two that may be the gold one. */
  goldData?: boolean;
  badge?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section
      className={`output${gold ? ' output--gold' : ''}`}
      data-gold={goldData}
      aria-labelledby={`${id}-title`}
    >
      <header className="output__head">
        <h3 id={`${id}-title`} className="output__title">
          {title}
        </h3>
        {badge}
      </header>
      {children}
    </section>
  );
}

function OutputPanel({ n, text, gold }: { n: Label; text: string; gold: boolean }) {
  const { t } = useTranslation();
  return (
    <OutputSection
      id={`output-${n}`}
      title={t('item.output', { n })}
      gold={gold}
      goldData={gold}
      badge={gold && <span className="badge badge--gold">{t('item.goldBadge')}</span>}
    >
      <TextBlock text={text} testId={`item-output-${n}`} />
    </OutputSection>
  );
}

/** A pairwise comparison: the instruction and both outputs, the gold one marked. */
function PairwiseBody({ item }: { item: Item }) {
  return (
    <>
      <InstructionSection item={item} />

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
      <TextSection id="question" title={t('item.question')} text={item.instruction} testId="item-question" />
      {context !== null && (
        <TextSection id="context" title={t('item.context')} text={context} testId="item-context" />
      )}
      <OutputSection id="answers" title={t('item.answers')} gold>
        <ul className="item-answers">
          {answers.map((a, i) => (
            <li key={i} className="text" data-testid="item-answer" dir="auto">
              {a}
            </li>
          ))}
        </ul>
      </OutputSection>
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
      <InstructionSection item={item} />
      <OutputSection id="response" title={t('item.response')}>
        <TextBlock text={str(extra.response) ?? ''} testId="item-response" />
      </OutputSection>
      {reference !== null && (
        <TextSection id="reference" title={t('item.reference')} text={reference} testId="item-reference" />
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
  return (
    <>
      <InstructionSection item={item} />
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
