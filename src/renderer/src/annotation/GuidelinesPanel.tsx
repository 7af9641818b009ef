// A set's guidelines: the panel the rating screen shows above each item, and the editor where
// each save becomes a new version. Guidelines are people's text, shown as text (never HTML).
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../lib/useFormat';
import type { GuidelinesVersion } from '../../../shared/annotation/api-types';
import { getApi } from '../api';
import { ScrollBox } from '../components/ScrollRegion';
import './adjudication-i18n';

export function GuidelinesPanel({ guidelines }: { guidelines: GuidelinesVersion | null }) {
  const { t } = useTranslation('annotation');
  if (!guidelines) return null;
  return (
    <details className="annotate__guidelines" data-testid="annotate-guidelines" open>
      <summary>
        {t('guide.title')} · {t('guide.version', { version: guidelines.version })}
      </summary>
      <ScrollBox
        as="div"
        label={t('guide.title')}
        className="annotate__guidelines-text"
        data-testid="guidelines-text"
      >
        {guidelines.text}
      </ScrollBox>
    </details>
  );
}

export function GuidelinesEditor({ setId }: { setId: number }) {
  const { t } = useTranslation('annotation');
  const f = useFormat();
  const [versions, setVersions] = useState<GuidelinesVersion[] | null>(null);
  const [text, setText] = useState('');
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  useEffect(() => {
    void getApi()
      .call('annotation.guidelines', { setId })
      .then(
        (list) => {
          setVersions(list);
          setText(list.at(-1)?.text ?? '');
        },
        (e: Error) => setMessage({ text: e.message, error: true }),
      );
  }, [setId]);
  const current = versions?.at(-1);
  return (
    <section className="guidelines-editor" data-testid="guidelines-editor">
      <h2>{t('guide.editTitle')}</h2>
      <p className="muted small">{t('guide.editIntro')}</p>
      {current ? (
        <p className="small" data-testid="guidelines-version">
          {t('guide.version', { version: current.version })}
        </p>
      ) : (
        versions && <p className="small muted">{t('guide.none')}</p>
      )}
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          try {
            const saved = await getApi().call('annotation.setGuidelines', { setId, text });
            const unchanged = current?.version === saved.version;
            setMessage({
              text: t(unchanged ? 'guide.unchanged' : 'guide.saved', { version: saved.version }),
              error: false,
            });
            if (!unchanged) setVersions([...(versions ?? []), saved]);
          } catch (err) {
            setMessage({ text: (err as Error).message, error: true });
          }
        }}
      >
        <textarea
          className="guidelines-editor__text"
          rows={10}
          value={text}
          placeholder={t('guide.placeholder')}
          data-testid="guidelines-input"
          onChange={(e) => setText(e.target.value)}
        />
        <button
          type="submit"
          className="btn btn--primary"
          data-testid="guidelines-save"
          disabled={!text.trim()}
        >
          {t('guide.save')}
        </button>
      </form>
      {message && (
        <p className={message.error ? 'text-danger' : 'muted'} role={message.error ? 'alert' : 'status'}>
          {message.text}
        </p>
      )}
      {versions && versions.length > 1 && (
        <details className="small">
          <summary>{t('guide.history', { count: versions.length })}</summary>
          <ol className="guidelines-editor__history">
            {[...versions].reverse().map((v) => (
              <li key={v.version} value={v.version}>
                <span className="muted">
                  {t('guide.version', { version: v.version })} · {f.dateTime(v.createdAt)}
                </span>
                <div className="annotate__guidelines-text">{v.text}</div>
              </li>
            ))}
          </ol>
        </details>
      )}
    </section>
  );
}
