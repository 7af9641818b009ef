import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  biasRows,
  VARIANTS_VIEW,
  type BiasVariantView,
  type JudgedCell,
} from '../../../../shared/protocols/bias-probes/views';
import { diffReasons, ScrollBox, useApi, useReadOnlyBundle } from '../host';
import { RewriteEditor, type RewriteSaved } from './RewriteEditor';
import type { BiasParaphraseEdited } from '../../../../shared/protocols/bias-probes/views';
import {
  allConditions,
  browsedCondition,
  conditionById,
} from '../../../../shared/protocols/bias-probes/probe-registry';
import { BIAS_NAMESPACES } from './i18n';
import './bias.css';
import { CheckLabel } from '../../kits/CheckLabel';
import type { InstructionParaphrases } from '../../../../shared/protocols/bias-probes/types';

type Filter = 'all' | BiasVariantView['variant'];

/**
 * Each rewrite beside the text it was made from, the changes between them, and every judge's
 * answer on both; a condition that changes only the judge's message shows that prompt beside its
 * base's (the added note as the diff). Model text is shown as text only (React escapes it), never as HTML.
 */
export function VariantBrowser({
  experimentId,
  initialItem,
  paraphrases,
}: {
  experimentId: number;
  initialItem?: string;
  /** The judging instructions' paraphrases (metrics `instruction_paraphrases`, the rubric probe). */
  paraphrases?: InstructionParaphrases[];
}) {
  const { t, i18n } = useTranslation(BIAS_NAMESPACES);
  const lang = i18n.language.startsWith('zh') ? 'zh' : 'en';
  const [rows, setRows] = useState<BiasVariantView[] | null>(null);
  const [flaggedOnly, setFlaggedOnly] = useState(false);
  const [filter, setFilter] = useState<Filter>('all');
  const [selected, setSelected] = useState(0);
  const api = useApi();
  // A bundle opened in the app is read only: no edit control.
  const editable = !useReadOnlyBundle();
  const [editing, setEditing] = useState(false);
  const [editedBy, setEditedBy] = useState('');
  const [saved, setSaved] = useState<number | null>(null);
  const onRowSaved = (s: RewriteSaved, by: string) => {
    const next = biasRows.variant(s.row);
    setRows((all) =>
      (all ?? []).map((r) =>
        r.itemId === next.itemId && r.response === next.response && r.variant === next.variant && !r.kind
          ? next
          : r,
      ),
    );
    setEditedBy(by);
    setEditing(false);
    setSaved(s.replanned);
  };
  useEffect(() => {
    let live = true;
    void api
      .call('experiments.protocolView', { experimentId, view: VARIANTS_VIEW, query: { flaggedOnly } })
      .then((r) => {
        if (!live) return;
        const list = biasRows.variants(r);
        setRows(list);
        const at = initialItem ? list.findIndex((v) => v.itemId === initialItem) : -1;
        setSelected(Math.max(0, at));
      })
      // A view that cannot be read leaves the browser empty rather than an unhandled rejection.
      .catch(() => live && setRows([]));
    return () => {
      live = false;
    };
  }, [experimentId, flaggedOnly, initialItem, api]);
  const shown = useMemo(
    () => (rows ?? []).filter((r) => filter === 'all' || r.variant === filter),
    [rows, filter],
  );
  const row = shown[Math.min(selected, shown.length - 1)];
  // Word-level, character-level for CJK text: the same diff the reason comparison uses.
  const parts = useMemo(() => (row ? diffReasons(row.base, row.text).parts : []), [row]);
  const hasRepeat = row?.judgments.some((j) => j.repeat !== undefined) ?? false;
  // A condition's name: the page's words for the built-in ones, else its probe's.
  const nameOf = (id: string) =>
    t(`results.browser.${id}`, { defaultValue: conditionById(id)?.name[lang] ?? id });
  const isPrompt = row?.kind === 'prompt';
  return (
    <section className="results-section bias-browser" data-testid="bias-variant-browser">
      <header className="results-section__head">
        <h2 className="section-title">{t('results.browser.title')}</h2>
      </header>
      <p className="hint">{t('results.browser.intro')}</p>
      {saved !== null && (
        <p className="hint" role="status" data-testid="bias-edit-saved">
          {t('results.browser.saved', { count: saved })}
        </p>
      )}
      {paraphrases?.map((block) => (
        <InstructionsSideBySide
          key={block.condition}
          block={block}
          experimentId={experimentId}
          editable={editable}
          editedBy={editedBy}
          onSaved={(replanned, by) => {
            setEditedBy(by);
            setSaved(replanned);
          }}
        />
      ))}
      <div className="bias-browser__filters">
        <CheckLabel
          testId="bias-flagged-only"
          checked={flaggedOnly}
          onChange={setFlaggedOnly}
          label={t('results.browser.flaggedOnly')}
        />
        <label>
          {t('results.browser.variant')}{' '}
          <select
            data-testid="bias-variant-filter"
            value={filter}
            onChange={(e) => {
              setFilter(e.target.value as Filter);
              setSelected(0);
            }}
          >
            <option value="all">{t('results.browser.all')}</option>
            {/* Every text a registered probe rewrites or derives by code, and every prompt change it makes. */}
            {allConditions()
              .map(({ condition: c }) => c)
              .filter(browsedCondition)
              .map((c) => (
                <option key={c.id} value={c.id}>
                  {nameOf(c.id)}
                </option>
              ))}
          </select>
        </label>
      </div>
      {rows === null ? (
        <p className="hint">{t('results.browser.loading')}</p>
      ) : shown.length === 0 ? (
        <p className="hint">{t('results.browser.none')}</p>
      ) : (
        <div className="bias-browser__body">
          <ul className="bias-browser__list" data-testid="bias-variant-list">
            {shown.map((r, i) => (
              <li key={`${r.itemId}:${r.response}:${r.variant}`}>
                <button
                  type="button"
                  className={i === selected ? 'is-selected' : ''}
                  aria-pressed={i === selected}
                  onClick={() => {
                    setSelected(i);
                    setEditing(false);
                  }}
                >
                  <span dir="auto">{r.itemId}</span> · {r.response} · {nameOf(r.variant)}
                  {r.reasons.length > 0 && <span className="bias-browser__flag"> ⚑</span>}
                </button>
              </li>
            ))}
          </ul>
          {row && (
            <article className="bias-browser__detail" data-testid="bias-variant-detail">
              <p className="text" dir="auto">
                {row.instruction}
              </p>
              <p className="hint">
                {isPrompt && t('results.browser.promptHint')}
                {row.kind === 'derived' && t('results.browser.derivedHint')}
                {row.ratio !== null && t('results.browser.ratio', { ratio: row.ratio.toFixed(2) })}
                {row.reasons.length > 0 &&
                  ` · ${t('results.browser.flagged', { reasons: row.reasons.join('; ') })}`}
                {row.edited && (
                  <span data-testid="bias-edited">
                    {' · '}
                    {t('results.browser.editedNote', { by: row.edited.by, at: row.edited.at })}
                  </span>
                )}
              </p>
              {!isPrompt && editable && !editing && (
                <button
                  type="button"
                  className="btn btn--ghost"
                  data-testid="bias-edit"
                  onClick={() => {
                    setEditing(true);
                    setSaved(null);
                  }}
                >
                  {t('results.browser.edit')}
                </button>
              )}
              {!isPrompt && editing && (
                <RewriteEditor
                  key={`${row.itemId}:${row.response}:${row.variant}`}
                  experimentId={experimentId}
                  target={{ itemId: row.itemId, response: row.response, variant: row.variant }}
                  text={row.text}
                  editedBy={editedBy}
                  onSaved={onRowSaved}
                  onCancel={() => setEditing(false)}
                />
              )}
              <div className="bias-browser__sides">
                <section>
                  <h3>
                    {isPrompt
                      ? t('results.browser.promptIn', { condition: nameOf(row.baseLabel) })
                      : nameOf(row.baseLabel)}
                  </h3>
                  <pre className="text" dir="auto" data-testid="bias-base-text">
                    {row.base}
                  </pre>
                </section>
                <section>
                  <h3>
                    {isPrompt
                      ? t('results.browser.promptIn', { condition: nameOf(row.variant) })
                      : t('results.browser.rewritten')}
                  </h3>
                  <pre className="text" dir="auto" data-testid="bias-variant-text">
                    {row.text}
                  </pre>
                </section>
              </div>
              <h3>{t('results.browser.diff')}</h3>
              <ScrollBox
                label={t('results.browser.diff')}
                className="text bias-browser__diff"
                dir="auto"
                data-testid="bias-diff"
              >
                {parts.map((p, i) =>
                  p.kind === 'added' ? (
                    <ins key={i} className="diff-added">
                      {p.text}
                    </ins>
                  ) : p.kind === 'removed' ? (
                    <del key={i} className="diff-removed">
                      {p.text}
                    </del>
                  ) : (
                    <span key={i}>{p.text}</span>
                  ),
                )}
              </ScrollBox>
              <table className="data-table" data-testid="bias-judgments">
                <thead>
                  <tr>
                    <th>{t('results.browser.judge')}</th>
                    {row.judgments.some((j) => j.order) && <th>{t('results.browser.order')}</th>}
                    <th>{t('results.browser.before')}</th>
                    <th>{t('results.browser.after')}</th>
                    {hasRepeat && <th>{t('results.browser.repeat')}</th>}
                  </tr>
                </thead>
                <tbody>
                  {row.judgments.map((j) => (
                    <tr key={`${j.judge}:${j.order ?? ''}`}>
                      <td dir="auto">{j.judge}</td>
                      {j.order && <td>{j.order}</td>}
                      {[j.base, j.variant].map((c, k) => (
                        <td key={k} dir="auto">
                          <strong>{c?.value ?? '—'}</strong>
                          {c?.reason ? ` · ${c.reason}` : ''}
                        </td>
                      ))}
                      {hasRepeat && <RepeatCell base={j.base} repeat={j.repeat ?? null} />}
                    </tr>
                  ))}
                </tbody>
              </table>
            </article>
          )}
        </div>
      )}
    </section>
  );
}

/**
 * The original judging instructions beside each paraphrase (as text), with its audit and, per
 * judge, how many verdicts it changed: whether one paraphrase drives the effect.
 */
function InstructionsSideBySide({
  block,
  experimentId,
  editable,
  editedBy,
  onSaved,
}: {
  block: InstructionParaphrases;
  experimentId: number;
  editable: boolean;
  editedBy: string;
  onSaved: (replanned: number, editedBy: string) => void;
}) {
  const { t } = useTranslation(BIAS_NAMESPACES);
  const [editing, setEditing] = useState<number | null>(null);
  // Paraphrases edited on this page, audited again by the core, until the metrics are read again.
  const [edited, setEdited] = useState<Record<number, BiasParaphraseEdited>>({});
  return (
    <div data-testid="bias-instructions">
      <h3>{t('results.browser.instructionsTitle')}</h3>
      <p className="hint">{t('results.browser.instructionsIntro')}</p>
      <div className="bias-browser__sides">
        <section>
          <h4>{t('results.browser.instructionsOriginal')}</h4>
          <pre className="text" dir="auto">
            {block.original}
          </pre>
        </section>
        {block.paraphrases.map((stored) => {
          const p = edited[stored.paraphrase] ?? stored;
          return (
            <section key={p.paraphrase} data-testid="bias-paraphrase">
              <h4>{t('results.browser.paraphrase', { n: p.paraphrase + 1 })}</h4>
              <pre className="text" dir="auto">
                {p.text ?? t('results.browser.paraphraseFailed')}
              </pre>
              <p className="hint">
                {p.ratio !== null && t('results.browser.ratio', { ratio: p.ratio.toFixed(2) })}
                {p.reasons.length > 0 &&
                  ` · ${t('results.browser.flagged', { reasons: p.reasons.join('; ') })}`}
                {p.edited_by && (
                  <span data-testid="bias-paraphrase-edited">
                    {' · '}
                    {t('results.browser.editedNote', { by: p.edited_by, at: p.edited_at ?? '' })}
                  </span>
                )}
              </p>
              {editable && editing !== p.paraphrase && (
                <button
                  type="button"
                  className="btn btn--ghost"
                  data-testid="bias-paraphrase-edit"
                  onClick={() => setEditing(p.paraphrase)}
                >
                  {t('results.browser.edit')}
                </button>
              )}
              {editing === p.paraphrase && (
                <RewriteEditor
                  experimentId={experimentId}
                  target={{ variant: block.condition, paraphrase: p.paraphrase }}
                  text={p.text ?? ''}
                  editedBy={editedBy}
                  onSaved={(s, by) => {
                    setEdited((all) => ({ ...all, [p.paraphrase]: s.row as BiasParaphraseEdited }));
                    setEditing(null);
                    onSaved(s.replanned, by);
                  }}
                  onCancel={() => setEditing(null)}
                />
              )}
              <ul className="hint">
                {block.rows
                  .filter((r) => r.paraphrase === p.paraphrase)
                  .map((r) => (
                    <li key={r.judge} dir="auto">
                      {t('results.browser.paraphraseChanged', { judge: r.judge, changed: r.changed, n: r.n })}
                      {r.flip_n !== undefined &&
                        t('results.browser.paraphraseFlips', {
                          flips: Math.round((r.flip_rate ?? 0) * r.flip_n),
                        })}
                    </li>
                  ))}
              </ul>
            </section>
          );
        })}
      </div>
    </div>
  );
}

/**
 * The judge's second answer on the unchanged original, marked when it differs from its first:
 * a change on the variant that the judge also makes on a plain repeat may be noise.
 */
function RepeatCell({ base, repeat }: { base: JudgedCell | null; repeat: JudgedCell | null }) {
  const { t } = useTranslation(BIAS_NAMESPACES);
  if (!repeat) return <td>—</td>;
  const changed = base !== null && base.value !== repeat.value;
  return (
    <td dir="auto" data-testid="bias-repeat-cell" data-changed={changed}>
      <strong>{repeat.value}</strong>
      {repeat.reason ? ` · ${repeat.reason}` : ''}
      {base && (
        <span className={changed ? 'chip' : 'hint'} data-testid="bias-repeat-marker">
          {' '}
          ({t(changed ? 'results.browser.repeatChanged' : 'results.browser.repeatSame')})
        </span>
      )}
    </td>
  );
}
