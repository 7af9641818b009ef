import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { create } from 'zustand';
import { GLOSSARY_IDS, VALIDATION_REPORT, VALIDATION_ROWS, type GlossaryId } from './entries';
import { GLOSSARY_NS } from './i18n';
import './glossary.css';

/** The open entry (one dialog for the whole page), and the element to give the focus back to. */
export const useGlossary = create<{ open: GlossaryId | null; opener: HTMLElement | null }>(() => ({
  open: null,
  opener: null,
}));

function openEntry(id: GlossaryId, opener: HTMLElement | null) {
  useGlossary.setState({ open: id, opener });
}

/**
 * The small "?" beside a header: opens the glossary at its entry. The "?" is drawn by CSS, so
 * the header's text stays the export's header; the button's name is its aria-label.
 */
export function GlossaryLink({ id }: { id: GlossaryId }) {
  const { t } = useTranslation(GLOSSARY_NS);
  return (
    <button
      type="button"
      className="glossary-link"
      data-testid="glossary-link"
      data-entry={id}
      aria-label={t('open', { term: t(`entries.${id}.term`) })}
      title={t('open', { term: t(`entries.${id}.term`) })}
      onClick={(e) => openEntry(id, e.currentTarget)}
    />
  );
}

/** The glossary dialog (render once per page): the open entry, then the others to switch to. */
export function GlossaryDialog() {
  const { t } = useTranslation(GLOSSARY_NS);
  const { open, opener } = useGlossary();
  const titleId = useId();
  const box = useRef<HTMLDivElement>(null);
  const close = () => {
    useGlossary.setState({ open: null, opener: null });
    opener?.focus();
  };
  useEffect(() => {
    if (open) box.current?.focus();
  }, [open]);
  if (!open) return null;
  return (
    <div className="glossary-backdrop" onClick={close}>
      <div
        ref={box}
        className="glossary"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        data-testid="glossary"
        onClick={(e) => e.stopPropagation()}
        onKeyDown={(e) => {
          if (e.key === 'Escape') close();
        }}
      >
        <p className="glossary__kicker small muted">{t('title')}</p>
        <h2 id={titleId} className="glossary__term">
          {t(`entries.${open}.term`)}
        </h2>
        <p className="glossary__body" data-testid="glossary-body">
          {t(`entries.${open}.body`)}
        </p>
        {/* The rows of the validation report where this method's coverage or error rate is measured. */}
        <p className="glossary__validation small muted" data-testid="glossary-validation">
          {t('validation')}{' '}
          {VALIDATION_ROWS[open].map((anchor, i) => (
            <span key={anchor}>
              {i > 0 ? ', ' : ''}
              <code data-anchor={anchor}>{`${VALIDATION_REPORT}#${anchor}`}</code>
            </span>
          ))}
        </p>
        <h3 className="glossary__others small muted">{t('others')}</h3>
        <ul className="glossary__list">
          {GLOSSARY_IDS.filter((id) => id !== open).map((id) => (
            <li key={id}>
              <button type="button" className="link-button" onClick={() => openEntry(id, opener)}>
                {t(`entries.${id}.term`)}
              </button>
            </li>
          ))}
        </ul>
        <button type="button" className="btn btn--small" data-testid="glossary-close" onClick={close}>
          {t('close')}
        </button>
      </div>
    </div>
  );
}
