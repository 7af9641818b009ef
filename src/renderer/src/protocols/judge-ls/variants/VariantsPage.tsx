import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Breadcrumb, PageHeader } from '../../../kits/PageFrame';
import type { Item } from '../../../../../shared/domain';
import { judgeLsRows, VARIANTS_VIEW, type VariantView } from '../../../../../shared/protocols/judge-ls/views';
import {
  canonicalTargets,
  languageInfo,
  targetName,
} from '../../../../../shared/protocols/judge-ls/languages';
import type { TargetLanguage } from '../../../../../shared/protocols/judge-ls/types';
import {
  ApiError,
  ErrorPanel,
  ExperimentCrumb,
  getApi,
  navigate,
  Notice,
  routeHref,
  toApiError,
  useApi,
  useFormat,
  useReadOnlyBundle,
} from '../../host';
import { VARIANT_FIELDS, parseReason, type ParsedReason, type VariantField } from './audit-reasons';
import { VariantEditor, type EditOutcome } from './VariantEditor';
import { JUDGE_LS_NAMESPACES } from '../i18n';
import { variantsRoute } from '../routes';
import '../judge-ls.css';
import { CheckLabel } from '../../../kits/CheckLabel';
import { rowPlacement, useVirtualRows } from '../../../kits/virtual-rows';

const ROW_HEIGHT = 52;

interface ItemGroup {
  itemId: number;
  sourceId: string;
  subset: string | null;
  variants: Partial<Record<TargetLanguage, VariantView>>;
  reasonCount: number;
}

function groupByItem(variants: VariantView[]): ItemGroup[] {
  const byId = new Map<number, ItemGroup>();
  for (const v of variants) {
    let g = byId.get(v.itemId);
    if (!g) {
      g = { itemId: v.itemId, sourceId: v.sourceId, subset: v.subset, variants: {}, reasonCount: 0 };
      byId.set(v.itemId, g);
    }
    g.variants[v.language] = v;
    g.reasonCount += v.reasons.length;
  }
  return [...byId.values()];
}

const FIELD_TEXT: Record<
  VariantField,
  (v: { instruction: string; output1: string | null; output2: string | null }) => string
> = {
  instruction: (v) => v.instruction,
  output_1: (v) => v.output1 ?? '',
  output_2: (v) => v.output2 ?? '',
};

function ItemList({
  groups,
  selected,
  onSelect,
}: {
  groups: ItemGroup[];
  selected: number | null;
  onSelect: (id: number) => void;
}) {
  const { t } = useTranslation(JUDGE_LS_NAMESPACES);
  const { scrollRef, virtualizer } = useVirtualRows(groups.length, ROW_HEIGHT, 10, 300);
  const index = groups.findIndex((g) => g.itemId === selected);
  const move = (to: number) => {
    const i = Math.max(0, Math.min(groups.length - 1, to));
    if (groups[i]) {
      onSelect(groups[i].itemId);
      virtualizer.scrollToIndex(i, { align: 'auto' });
    }
  };
  return (
    <div
      ref={scrollRef}
      className="variant-list"
      role="listbox"
      tabIndex={0}
      aria-label={t('variants.listLabel')}
      aria-activedescendant={selected !== null ? `variant-item-${selected}` : undefined}
      onKeyDown={(e) => {
        if (e.key === 'ArrowDown' || e.key === 'j') move(index + 1);
        else if (e.key === 'ArrowUp' || e.key === 'k') move(index - 1);
        else return;
        e.preventDefault();
      }}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((v) => {
          const g = groups[v.index];
          const active = g.itemId === selected;
          return (
            <div
              key={g.itemId}
              id={`variant-item-${g.itemId}`}
              role="option"
              aria-selected={active}
              data-testid="variant-item-row"
              data-item-id={g.itemId}
              data-flagged={g.reasonCount > 0}
              className={`variant-list__row${active ? ' variant-list__row--active' : ''}`}
              style={rowPlacement(v)}
              onClick={() => onSelect(g.itemId)}
            >
              <span className="mono ellipsis">{g.sourceId}</span>
              <span className="variant-list__meta small muted ellipsis">
                {g.subset ?? ''}
                {g.reasonCount > 0 && (
                  <span className="flag-chip">{t('variants.flags', { count: g.reasonCount })}</span>
                )}
                {Object.values(g.variants).some((v) => v?.manual) && (
                  <span className="chip">{t('variants.manual')}</span>
                )}
              </span>
            </div>
          );
        })}
      </div>
    </div>
  );
}

function FieldCell({
  text,
  language,
  field,
  reasons,
}: {
  text: string | undefined;
  language: 'EN' | TargetLanguage;
  field: VariantField;
  reasons: ParsedReason[];
}) {
  const { t } = useTranslation(JUDGE_LS_NAMESPACES);
  const flagged = reasons.length > 0;
  return (
    <td
      className={`variant-cell${flagged ? ' variant-cell--flagged' : ''}`}
      data-testid="variant-field"
      data-language={language}
      data-field={field}
      data-flagged={flagged ? 'true' : 'false'}
    >
      {flagged && (
        <ul className="variant-cell__reasons">
          {reasons.map((r, i) => (
            <li key={i} className="text">
              ⚑ {r.text}
            </li>
          ))}
        </ul>
      )}
      {text === undefined ? (
        <span className="muted small">{t('variants.noVariant')}</span>
      ) : (
        // dir="auto" as reference sensitivity does: Arabic reads right to left, isolated from the
        // cells around it; lang picks the script's font (Devanagari, Telugu, Han).
        <div
          className={`text variant-cell__text${text ? '' : ' text-block--empty'}`}
          dir="auto"
          lang={language === 'EN' ? 'en' : (languageInfo(language)?.code ?? undefined)}
        >
          {text || t('item.empty')}
        </div>
      )}
    </td>
  );
}

function ItemDetail({
  experimentId,
  group,
  onEdited,
}: {
  experimentId: number;
  group: ItemGroup;
  onEdited: (outcome: EditOutcome) => void;
}) {
  const { t, i18n } = useTranslation(JUDGE_LS_NAMESPACES);
  const [item, setItem] = useState<Item | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [editing, setEditing] = useState<TargetLanguage | null>(null);
  const api = useApi();
  const readOnly = useReadOnlyBundle();

  useEffect(() => {
    // The parent keys this component by item, so a new item starts from fresh state;
    // resetting state here would race with a click made before this effect ran.
    let live = true;
    api
      .call('items.get', { itemId: group.itemId })
      .then((i) => live && setItem(i))
      .catch((err) => live && setError(toApiError(err)));
    return () => {
      live = false;
    };
  }, [group.itemId, api]);

  // ZH and LS first, then the study's other targets (issue 37).
  const langs = canonicalTargets(Object.keys(group.variants)).filter((l) => group.variants[l]);
  const parsed = new Map<TargetLanguage, ParsedReason[]>(
    langs.map((l) => [l, group.variants[l]!.reasons.map((r) => parseReason(r, l))]),
  );
  const wholeVariant = langs.flatMap((l) => parsed.get(l)!.filter((r) => r.field === null));
  const reasonsFor = (lang: TargetLanguage, field: VariantField) =>
    langs.flatMap((l) => parsed.get(l)!).filter((r) => r.language === lang && r.field === field);

  const editingVariant = editing ? group.variants[editing] : undefined;

  return (
    <section className="variant-detail" aria-labelledby="variant-title">
      <header className="item-viewer__meta">
        <h2 id="variant-title" className="item-viewer__id">
          {group.sourceId}
        </h2>
        {group.subset && <span className="chip">{group.subset}</span>}
        {item && <span className="gold-label">{t('item.gold', { label: item.label })}</span>}
      </header>
      {error && <ErrorPanel title={t('item.loadFailed')} error={error} />}
      {wholeVariant.length > 0 && (
        <ul className="variant-reasons">
          {wholeVariant.map((r, i) => (
            <li key={i} className="text">
              ⚑ {r.language}: {r.text}
            </li>
          ))}
        </ul>
      )}
      {editingVariant ? (
        <VariantEditor
          key={`${editingVariant.itemId}-${editingVariant.language}`}
          experimentId={experimentId}
          variant={editingVariant}
          onCancel={() => setEditing(null)}
          onSaved={(o) => {
            setEditing(null);
            onEdited(o);
          }}
        />
      ) : (
        <div className="table-wrap">
          <table className="variant-table">
            <thead>
              <tr>
                <th scope="col">
                  <span className="visually-hidden">{t('variants.field')}</span>
                </th>
                <th scope="col">EN</th>
                {langs.map((l) => (
                  <th key={l} scope="col">
                    <span title={targetName(l, i18n.language === 'zh' ? 'zh' : 'en')}>{l}</span>
                    {group.variants[l]!.manual && <span className="chip">{t('variants.manual')}</span>}
                    {!readOnly && (
                      <button
                        type="button"
                        className="btn btn--small btn--ghost"
                        data-testid={`edit-variant-${l}`}
                        onClick={() => setEditing(l)}
                      >
                        {t('variants.edit')}
                      </button>
                    )}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {VARIANT_FIELDS.map((field) => (
                <tr key={field}>
                  <th scope="row" className="variant-table__field">
                    {t(`variants.fieldNames.${field}`)}
                  </th>
                  <FieldCell
                    language="EN"
                    field={field}
                    reasons={[]}
                    text={item ? FIELD_TEXT[field](item) : t('common.loading')}
                  />
                  {langs.map((l) => (
                    <FieldCell
                      key={l}
                      language={l}
                      field={field}
                      reasons={reasonsFor(l, field)}
                      text={FIELD_TEXT[field](group.variants[l]!)}
                    />
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function EditNotice({
  experimentId,
  outcome,
  onDismiss,
}: {
  experimentId: number;
  outcome: EditOutcome;
  onDismiss: () => void;
}) {
  const { t } = useTranslation(JUDGE_LS_NAMESPACES);
  const f = useFormat();
  const [state, setState] = useState<
    { status: 'idle' | 'starting' | 'started' } | { status: 'error'; error: ApiError }
  >({
    status: 'idle',
  });
  const start = async () => {
    setState({ status: 'starting' });
    try {
      await getApi().call('experiments.start', { experimentId });
      setState({ status: 'started' });
    } catch (err) {
      setState({ status: 'error', error: toApiError(err) });
    }
  };
  const priced = outcome.estimate.unpricedModels.length === 0;
  return (
    <Notice tone="info" onDismiss={onDismiss}>
      <span data-testid="edit-notice">
        {t('variants.saved', { language: outcome.variant.language, id: outcome.variant.sourceId })}{' '}
        {outcome.replanned === 0
          ? t('variants.noRerun')
          : priced
            ? t('variants.rerun', { count: outcome.replanned, cost: f.usd(outcome.estimate.costUsd) })
            : t('variants.rerunUnpriced', { count: outcome.replanned })}
      </span>{' '}
      {outcome.replanned > 0 && state.status !== 'started' && (
        <button
          type="button"
          className="btn btn--small btn--primary"
          data-testid="rerun-start"
          disabled={state.status === 'starting'}
          onClick={() => void start()}
        >
          {state.status === 'starting' ? t('variants.starting') : t('variants.runNow')}
        </button>
      )}
      {state.status === 'started' && (
        <a href={routeHref({ name: 'experiment', experimentId })}>{t('variants.started')}</a>
      )}
      {state.status === 'error' && <span className="inline-error">{state.error.message}</span>}
    </Notice>
  );
}

export function VariantsPage({
  experimentId,
  itemId,
  onSelect,
}: {
  experimentId: number;
  itemId?: number;
  /** Opens another item (default: the page's address; an opened bundle keeps it in its page). */
  onSelect?: (itemId: number) => void;
}) {
  const { t } = useTranslation(JUDGE_LS_NAMESPACES);
  const [flaggedOnly, setFlaggedOnly] = useState(false);
  const [variants, setVariants] = useState<VariantView[] | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [outcome, setOutcome] = useState<EditOutcome | null>(null);
  const api = useApi();
  const readOnly = useReadOnlyBundle();

  const load = useCallback(async () => {
    setError(null);
    try {
      setVariants(
        judgeLsRows.variants(
          await api.call('experiments.protocolView', {
            experimentId,
            view: VARIANTS_VIEW,
            query: { flaggedOnly },
          }),
        ),
      );
    } catch (err) {
      setError(toApiError(err));
    }
  }, [experimentId, flaggedOnly, api]);

  useEffect(() => {
    void load();
  }, [load]);

  const groups = useMemo(() => groupByItem(variants ?? []), [variants]);
  const selected = groups.find((g) => g.itemId === itemId) ?? groups[0] ?? null;
  const select = (id: number) =>
    onSelect ? onSelect(id) : navigate(variantsRoute(experimentId, id), { replace: true });

  const onEdited = (o: EditOutcome) => {
    setOutcome(o);
    setVariants((vs) =>
      (vs ?? []).map((v) =>
        v.itemId === o.variant.itemId && v.language === o.variant.language ? o.variant : v,
      ),
    );
  };

  return (
    <div className="page page--fill variants">
      <Breadcrumb current={t('variants.title')}>
        <a href={routeHref({ name: 'experiments' })}>{t('experiments.title')}</a>
        <ExperimentCrumb experimentId={experimentId} />
      </Breadcrumb>
      <PageHeader
        compact
        title={t('variants.title')}
        intro={t(readOnly ? 'variants.introReadOnly' : 'variants.intro')}
      />
      <div className="filter-bar">
        <CheckLabel
          className="check"
          gap
          testId="variants-flagged-only"
          checked={flaggedOnly}
          onChange={setFlaggedOnly}
          label={<span>{t('variants.flaggedOnly')}</span>}
        />
        {variants && (
          <span className="filter-bar__count" data-testid="variant-count">
            {t('variants.itemCount', { count: groups.length })}
          </span>
        )}
      </div>
      <div className="stack">
        {outcome && (
          <EditNotice experimentId={experimentId} outcome={outcome} onDismiss={() => setOutcome(null)} />
        )}
      </div>
      {error ? (
        <ErrorPanel title={t('variants.loadFailed')} error={error} onRetry={() => void load()} />
      ) : variants === null ? (
        <p className="empty-note">{t('common.loading')}</p>
      ) : groups.length === 0 ? (
        <div className="empty-state empty-state--inline">
          <p className="empty-state__body">{flaggedOnly ? t('variants.noneFlagged') : t('variants.none')}</p>
          {!readOnly && (
            <a className="btn" href={routeHref({ name: 'experiment', experimentId })}>
              {t('variants.toRun')}
            </a>
          )}
        </div>
      ) : (
        <div className="variants__body">
          <ItemList groups={groups} selected={selected?.itemId ?? null} onSelect={select} />
          {selected && (
            <ItemDetail
              key={selected.itemId}
              experimentId={experimentId}
              group={selected}
              onEdited={onEdited}
            />
          )}
        </div>
      )}
    </div>
  );
}
