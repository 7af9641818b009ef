// Human ratings for one experiment (#/experiments/<id>/annotation) or for every set, including
// sets opened from a colleague's package (#/annotation). The query says what is open:
// `set` and `annotator` → the annotation screen; `set` and `view=agreement` → the dashboard.
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { AnnotationSetSummary, PackageImport } from '../../../shared/annotation/api-types';
import { getApi } from '../api';
import { bytesToBase64, readFileBytes } from '../api/base64';
import { downloadBase64 } from '../results/download';
import { AdjudicationView } from './AdjudicationView';
import { LabelBudget } from './LabelBudget';
import type { JudgeBand } from '../../../shared/stats';
import { LeastSurePanel } from './LeastSurePanel';
import { AgreementDashboard } from './AgreementDashboard';
import { GuidelinesEditor } from './GuidelinesPanel';
import { AnnotateScreen } from './AnnotateScreen';
import { ForeignPackageQuestion, type ForeignPackage } from './ForeignPackageQuestion';
import { PackageConflicts } from './PackageConflicts';
import './i18n';
import './adjudication-i18n';
import './annotation.css';
import { NumberField } from './NumberField';
import { PageHeader } from '../kits/PageFrame';
import { Button } from '../components/Button';

/** The title of each view a set opens (the query's `view`). */
const VIEW_TITLES: Record<string, string> = {
  agreement: 'dash.title',
  adjudicate: 'adjudicate.title',
  guidelines: 'guide.editTitle',
};

export interface AnnotationPageProps {
  experimentId?: number;
  query: Record<string, string>;
  /** Changes the page's query (a new hash). */
  onQuery: (query: Record<string, string>) => void;
}

/**
 * A button that picks one file and hands its name and bytes (base64) to `onFile`; what the call
 * answers (a message, or the error's message) is shown by the caller.
 */
function FilePicker({
  label,
  accept,
  testId,
  onFile,
  onError,
}: {
  label: string;
  accept: string;
  testId: string;
  onFile: (file: { fileName: string; contentBase64: string }) => Promise<void>;
  onError: (message: string) => void;
}) {
  return (
    <label className="btn">
      {label}
      <input
        type="file"
        accept={accept}
        hidden
        data-testid={testId}
        onChange={async (e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (!file) return;
          try {
            await onFile({
              fileName: file.name,
              contentBase64: await bytesToBase64(await readFileBytes(file)),
            });
          } catch (err) {
            onError((err as Error).message);
          }
        }}
      />
    </label>
  );
}

function SetCard({
  set,
  profiles,
  onOpen,
  onChanged,
  onMessage,
}: {
  set: AnnotationSetSummary;
  /** Every annotator profile of this store, offered as the name. */
  profiles: string[];
  onOpen: (q: Record<string, string>) => void;
  onChanged: () => void;
  onMessage: (m: string, error?: boolean) => void;
}) {
  const { t } = useTranslation('annotation');
  const [annotator, setAnnotator] = useState(() => localStorage.getItem('judge-lab.annotator') ?? '');
  return (
    <li className="annotation-set" data-testid={`annotation-set-${set.id}`} data-uid={set.uid}>
      <div className="annotation-set__head">
        <h3>{set.name}</h3>
        <span className="muted">{t('items', { count: set.itemCount })}</span>
      </div>
      {set.selection === 'least-sure' && (
        <p className="small muted" data-testid="least-sure-set">
          {t('leastSure.setNote')}
        </p>
      )}
      {set.progress.length > 0 && (
        <ul className="small muted annotation-set__progress">
          {set.progress.map((p) => (
            <li key={p.annotator}>{t('progressLine', { ...p })}</li>
          ))}
        </ul>
      )}
      <form
        className="annotation-set__start"
        onSubmit={(e) => {
          e.preventDefault();
          const name = annotator.trim();
          if (!name) return;
          localStorage.setItem('judge-lab.annotator', name);
          onOpen({ set: String(set.id), annotator: name });
        }}
      >
        <label>
          {t('annotator')}{' '}
          <input
            value={annotator}
            list={`annotators-${set.id}`}
            placeholder={t('annotatorPlaceholder')}
            data-testid="annotator-name"
            onChange={(e) => setAnnotator(e.target.value)}
          />
          <datalist id={`annotators-${set.id}`}>
            {profiles.map((name) => (
              <option key={name} value={name} />
            ))}
          </datalist>
        </label>
        <button type="submit" className="btn btn--primary" data-testid="annotate-start">
          {t('start')}
        </button>
        {(
          [
            ['agreement', 'open-agreement', t('agreement')],
            [
              'adjudicate',
              'open-adjudication',
              t('adjudicate.open'),
              set.adjudicated > 0 && ` · ${set.adjudicated}`,
            ],
            [
              'guidelines',
              'open-guidelines',
              t('guide.edit'),
              set.guidelinesVersion !== null &&
                ` · ${t('guide.version', { version: set.guidelinesVersion })}`,
            ],
          ] as const
        ).map(([view, testId, label, more]) => (
          <Button
            key={view}
            className="btn"
            testId={testId}
            onClick={() => onOpen({ set: String(set.id), view })}
          >
            {label}
            {more}
          </Button>
        ))}
        <Button
          className="btn"
          testId="export-package"
          onClick={() =>
            void getApi().call('annotation.exportPackage', { setId: set.id }).then(downloadBase64)
          }
        >
          {t('exportPackage')}
        </Button>
        <Button
          className="btn"
          testId="label-template"
          title={t('labelTemplateHint')}
          onClick={() => {
            // The name typed above, if any, prefills the template's annotator column.
            const name = annotator.trim();
            getApi()
              .call('annotation.labelTemplate', { setId: set.id, ...(name ? { annotator: name } : {}) })
              .then(downloadBase64)
              .catch((e: unknown) => onMessage(e instanceof Error ? e.message : String(e), true));
          }}
        >
          {t('labelTemplate')}
        </Button>
        <FilePicker
          label={t('importLabels')}
          accept=".csv,.jsonl,.json"
          testId="import-labels"
          onError={(m) => onMessage(m, true)}
          onFile={async (f) => {
            const r = await getApi().call('annotation.importLabels', { setId: set.id, ...f });
            onMessage(t('imported', { count: r.imported }));
            onChanged();
          }}
        />
      </form>
      {set.strata.length > 0 && (
        <details className="small">
          <summary>{t('strata')}</summary>
          <table className="results-table" data-testid="strata-table">
            <thead>
              <tr>
                <th>{t('stratum')}</th>
                <th className="num">{t('available')}</th>
                <th className="num">{t('sampled')}</th>
              </tr>
            </thead>
            <tbody>
              {set.strata.map((s) => (
                <tr key={s.stratum}>
                  <td>{s.stratum}</td>
                  <td className="num">{s.available}</td>
                  <td className="num">{s.sampled}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
    </li>
  );
}

function CreateSetForm({ experimentId, onCreated }: { experimentId: number; onCreated: () => void }) {
  const { t } = useTranslation('annotation');
  const [size, setSize] = useState(200);
  // The label budget's counts per judge band, used while the size is still the budget's.
  const [bandCounts, setBandCounts] = useState<Record<JudgeBand, number> | null>(null);
  const [seed, setSeed] = useState(1);
  const [name, setName] = useState('');
  const [gold, setGold] = useState(false);
  const [guidelines, setGuidelines] = useState('');
  const [error, setError] = useState<string | null>(null);
  // What people rate: the judges' units, or one of the protocol's own tasks the experiment offers.
  const [tasks, setTasks] = useState<string[]>([]);
  const [task, setTask] = useState('');
  useEffect(() => {
    let live = true;
    getApi()
      .call('annotation.tasks', { experimentId })
      .then(
        (r) => live && setTasks(r.tasks),
        () => live && setTasks([]),
      );
    return () => {
      live = false;
    };
  }, [experimentId]);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const banded =
      bandCounts && !task && bandCounts.low + bandCounts.mid + bandCounts.high === size ? bandCounts : null;

    try {
      await getApi().call('annotation.createSet', {
        experimentId,
        size,
        seed,
        ...(name.trim() ? { name: name.trim() } : {}),
        ...(gold ? { goldAsAnnotator: 'majority' } : {}),
        ...(guidelines.trim() ? { guidelines } : {}),
        ...(banded ? { bandCounts: banded } : {}),
        ...(task ? { task } : {}),
      });
      onCreated();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <form className="annotation-create" onSubmit={submit} data-testid="create-set">
      <h2>{t('create.title')}</h2>
      {tasks.length > 0 && (
        <label>
          {t('create.task')}{' '}
          <select value={task} data-testid="create-task" onChange={(e) => setTask(e.target.value)}>
            <option value="">{t('create.mainTask')}</option>
            {tasks.map((k) => (
              <option key={k} value={k}>
                {t(`tasks.${k}.title`, { defaultValue: k })}
              </option>
            ))}
          </select>
        </label>
      )}
      {task && <p className="small muted">{t(`tasks.${task}.intro`, { defaultValue: '' })}</p>}
      <NumberField label={t('create.size')} min={1} value={size} testId="create-size" onChange={setSize} />
      <NumberField label={t('create.seed')} min={0} value={seed} testId="create-seed" onChange={setSeed} />
      <label>
        {t('create.name')} <input value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <LabelBudget
        experimentId={experimentId}
        size={size}
        onUse={(n, counts) => {
          setSize(n);
          setBandCounts(counts);
        }}
      />
      {!task && (
        <label className="annotation-create__gold">
          <input type="checkbox" checked={gold} onChange={(e) => setGold(e.target.checked)} />{' '}
          {t('create.gold')}
        </label>
      )}
      <label className="annotation-create__guidelines">
        {t('guide.createLabel')}
        <textarea
          rows={4}
          value={guidelines}
          placeholder={t('guide.placeholder')}
          data-testid="create-guidelines"
          onChange={(e) => setGuidelines(e.target.value)}
        />
      </label>
      <button type="submit" className="btn btn--primary" data-testid="create-submit">
        {t('create.submit')}
      </button>
      {error && <p className="text-danger">{error}</p>}
    </form>
  );
}

export function AnnotationPage({ experimentId, query, onQuery }: AnnotationPageProps) {
  const { t } = useTranslation('annotation');
  // Package labels kept out because the set's are newer are said with the import, never dropped unsaid.
  const withConflicts = (text: string, n: number) =>
    n ? `${text} ${t('packageConflicts', { count: n })}` : text;
  const [sets, setSets] = useState<AnnotationSetSummary[] | null>(null);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const [profiles, setProfiles] = useState<string[]>([]);
  const [foreign, setForeign] = useState<{
    file: { fileName: string; contentBase64: string };
    answer: ForeignPackage;
  } | null>(null);
  // The last import's kept labels, with the call that made it: "take them" resends it.
  const [conflicts, setConflicts] = useState<{
    again: { fileName: string; contentBase64: string; asNewSet?: boolean; intoSetId?: number };
    answer: Extract<PackageImport, { outcome: 'imported' }>;
  } | null>(null);
  const [taking, setTaking] = useState(false);
  const imported = (
    again: { fileName: string; contentBase64: string; asNewSet?: boolean; intoSetId?: number },
    r: Extract<PackageImport, { outcome: 'imported' }>,
  ) => {
    const key = r.created ? 'packageOpened' : 'packageMerged';
    setMessage({
      text: withConflicts(t(key, { name: r.set.name, count: r.labels }), r.conflicts.length),
      error: false,
    });
    setConflicts(r.conflicts.length ? { again, answer: r } : null);
    reload();
  };
  const takePackageLabels = async () => {
    if (!conflicts) return;
    setTaking(true);
    try {
      const r = await getApi().call('annotation.importPackage', {
        ...conflicts.again,
        takePackageLabels: true,
      });
      if (r.outcome !== 'imported') return;
      setMessage({
        text: t('packageTaken', { count: conflicts.answer.conflicts.length, name: r.set.name }),
        error: false,
      });
      setConflicts(null);
      reload();
    } catch (err) {
      setMessage({ text: (err as Error).message, error: true });
    } finally {
      setTaking(false);
    }
  };
  const reload = useCallback(() => {
    void getApi()
      .call('annotation.annotators')
      .then(
        (list) => setProfiles(list.map((a) => a.name)),
        () => setProfiles([]),
      );
    void getApi()
      .call('annotation.listSets', experimentId === undefined ? {} : { experimentId })
      .then(setSets, (e: Error) => setMessage({ text: e.message, error: true }));
  }, [experimentId]);
  const setId = Number(query.set);
  const rating = !!(setId && query.annotator);
  // The page stays mounted while a set is rated (or its dashboard, adjudication or guidelines
  // are open), so its list is read again on the way back: counts read before rating were stale
  // (issue 38).
  useEffect(() => {
    if (!rating) reload();
  }, [reload, rating, query.view]);

  if (rating) {
    return (
      <div className="page annotation-page">
        <AnnotateScreen
          key={`${setId}/${query.annotator}`}
          setId={setId}
          annotator={query.annotator}
          onBack={() => onQuery({})}
        />
      </div>
    );
  }
  const open = sets?.find((s) => s.id === setId);
  return (
    <div className="page annotation-page">
      <PageHeader
        compact
        title={open && query.view ? `${t(VIEW_TITLES[query.view] ?? 'title')} · ${open.name}` : t('title')}
        intro={t('intro')}
        tools={
          <>
            {query.view && (
              <Button className="btn btn--ghost" onClick={() => onQuery({})}>
                {t('screen.back')}
              </Button>
            )}
            <FilePicker
              label={t('importPackage')}
              accept=".json"
              testId="import-package"
              onError={(text) => setMessage({ text, error: true })}
              onFile={async (f) => {
                setForeign(null);
                setConflicts(null);
                const r = await getApi().call('annotation.importPackage', f);
                if (r.outcome === 'foreign-set') {
                  setMessage(null);
                  setForeign({ file: f, answer: r });
                  return;
                }
                imported(f, r);
              }}
            />
          </>
        }
      />
      {foreign && (
        <ForeignPackageQuestion
          answer={foreign.answer}
          onCancel={() => setForeign(null)}
          onChoose={async (intoSetId) => {
            const { file } = foreign;
            setForeign(null);
            try {
              const again = { ...file, ...(intoSetId === undefined ? { asNewSet: true } : { intoSetId }) };
              const r = await getApi().call('annotation.importPackage', again);
              if (r.outcome !== 'imported') return;
              imported(again, r);
            } catch (err) {
              setMessage({ text: (err as Error).message, error: true });
            }
          }}
        />
      )}
      {message && (
        <p
          className={message.error ? 'text-danger' : 'muted'}
          role={message.error ? 'alert' : 'status'}
          data-testid="annotation-message"
        >
          {message.text}
        </p>
      )}
      {conflicts && (
        <PackageConflicts
          conflicts={conflicts.answer.conflicts}
          busy={taking}
          onTake={() => void takePackageLabels()}
          onKeep={() => setConflicts(null)}
        />
      )}
      {query.view === 'agreement' && setId ? (
        <AgreementDashboard setId={setId} />
      ) : query.view === 'adjudicate' && open ? (
        <AdjudicationView setId={open.id} scale={open.scale} />
      ) : query.view === 'guidelines' && open ? (
        <GuidelinesEditor setId={open.id} />
      ) : (
        <>
          <section>
            <h2>{t('sets')}</h2>
            {sets === null ? (
              <p className="muted">{t('loading')}</p>
            ) : sets.length === 0 ? (
              <p className="muted">{t('noSets')}</p>
            ) : (
              <ul className="annotation-sets">
                {sets.map((s) => (
                  <SetCard
                    key={s.id}
                    set={s}
                    profiles={profiles}
                    onOpen={onQuery}
                    onChanged={reload}
                    onMessage={(text, error) => setMessage({ text, error: !!error })}
                  />
                ))}
              </ul>
            )}
          </section>
          {experimentId !== undefined && <CreateSetForm experimentId={experimentId} onCreated={reload} />}
          {experimentId !== undefined && <LeastSurePanel experimentId={experimentId} onCreated={reload} />}
        </>
      )}
    </div>
  );
}
