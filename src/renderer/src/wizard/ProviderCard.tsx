import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getApi, toApiError } from '../api';
import { Field } from '../components/Field';
import { providerConfig } from '../lib/experiment-config';
import {
  addressIsPrimary,
  batchAddress,
  draftFromPreset,
  presetOf,
  tierOffered,
  type PresetId,
  type ServiceTierChoice,
} from '../lib/providers';
import { useAppInfo } from '../stores/datasets';
import { useWizard } from '../stores/wizard';
import { useStepIssues } from './issues';
import { useListedModels } from '../lib/listed-models';
import type { KeyState } from '../../../shared/domain';
import type { KeyStoreStatus } from '../../../shared/api';
import { baseURLVariable } from '../../../shared/key-scope';
import { Button } from '../components/Button';

type KeyStatus = KeyState;
const KEY_STATUS_DEBOUNCE_MS = 300;

type TestState =
  | { status: 'idle' }
  | { status: 'testing' }
  | { status: 'done'; ok: boolean; message: string; settings: string; batch?: boolean };

/** Asks the core whether this provider's key is available; never sees the key itself. */
function useKeyStatus(name: string, configJson: string, refresh: number): KeyStatus | 'error' | null {
  const [status, setStatus] = useState<KeyStatus | 'error' | null>(null);
  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      getApi()
        .call('providers.keyStatus', { providers: { [name]: JSON.parse(configJson) as unknown } })
        .then((r) => live && setStatus(r[name] ?? 'error'))
        .catch(() => live && setStatus('error'));
    }, KEY_STATUS_DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [name, configJson, refresh]);
  return status;
}

/** The exact line that lets the key go to this server, to set where judge-lab serve starts. */
function KeyScopeLine({ variable, url }: { variable: string; url: unknown }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const line = `${variable}=${typeof url === 'string' ? url.trim() : ''}`;
  return (
    <div className="key-scope">
      <code className="mono key-scope__line" data-testid="key-scope-line">
        {line}
      </code>{' '}
      <Button
        className="btn btn--small"
        onClick={() =>
          void navigator.clipboard?.writeText(line).then(
            () => setCopied(true),
            () => setCopied(false),
          )
        }
      >
        {copied ? t('wizard.key.copied') : t('wizard.key.copy')}
      </Button>
      <p className="hint">{t('wizard.key.withheldThen')}</p>
    </div>
  );
}

/** Where keys typed into the app are kept, and which names have one (never a key). */
function useKeysStatus(): [KeyStoreStatus | null, (s: KeyStoreStatus) => void] {
  const [status, setStatus] = useState<KeyStoreStatus | null>(null);
  useEffect(() => {
    let live = true;
    getApi()
      .call('keys.status')
      .then((r) => live && setStatus(r))
      .catch(() => live && setStatus(null));
    return () => {
      live = false;
    };
  }, []);
  return [status, setStatus];
}

/**
 * Type a key once: the desktop encrypts it with the OS keychain, `serve` keeps it in an
 * owner-only file with the server it may go to (`address`, for a custom or local server or one
 * the environment's key may not go to). The field is cleared after saving and the key is never
 * read back — the page only learns "stored".
 */
function KeyEntry({
  envName,
  address,
  managed,
  setManaged,
  onSaved,
}: {
  envName: string;
  address: string | undefined;
  managed: KeyStoreStatus | null;
  setManaged: (s: KeyStoreStatus) => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const [value, setValue] = useState('');
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  if (!managed?.managed || !envName) return null;
  const stored = managed.stored.includes(envName);
  const inFile = managed.storage === 'file';
  // Only the web door keeps an address with a key; the desktop's custom servers still take the variable.
  const sentAddress = inFile ? address : undefined;
  const refresh = async (stored: string[]) => {
    const next = await getApi()
      .call('keys.status')
      .catch(() => ({ ...managed, stored }));
    setManaged(next);
  };
  const save = async () => {
    setState({ busy: true, error: null });
    try {
      const r = await getApi().call('keys.set', {
        name: envName,
        value,
        ...(sentAddress ? { baseURL: sentAddress } : {}),
      });
      setValue('');
      setState({ busy: false, error: null });
      await refresh(r.stored);
      onSaved();
    } catch (e) {
      setState({ busy: false, error: toApiError(e).message });
    }
  };
  const remove = async () => {
    try {
      const r = await getApi().call('keys.delete', { name: envName });
      await refresh(r.stored);
      onSaved();
    } catch (e) {
      setState({ busy: false, error: toApiError(e).message });
    }
  };
  const hint = inFile
    ? stored
      ? t('wizard.key.entryStoredFile', { env: envName })
      : t('wizard.key.entryHintFile', { file: managed.file ?? '' })
    : stored
      ? t('wizard.key.entryStored')
      : t('wizard.key.entryHint');
  return (
    <div className="key-entry" data-testid="key-entry">
      <Field
        label={t('wizard.key.entryLabel', { env: envName })}
        hint={
          sentAddress ? (
            <>
              {hint}{' '}
              <span data-testid="key-address">{t('wizard.key.entryAddress', { url: sentAddress })}</span>
            </>
          ) : (
            hint
          )
        }
        error={state.error ?? undefined}
      >
        <input
          type="password"
          autoComplete="off"
          spellCheck={false}
          data-testid="key-input"
          value={value}
          placeholder={stored ? '••••••••' : 'sk-…'}
          onChange={(e) => setValue(e.target.value)}
        />
      </Field>
      <div className="key-entry__actions">
        <Button
          className="btn btn--small"
          testId="key-save"
          disabled={!value.trim() || state.busy}
          onClick={() => void save()}
        >
          {t('wizard.key.save')}
        </Button>
        {stored && (
          <Button className="btn btn--small btn--ghost" testId="key-remove" onClick={() => void remove()}>
            {t('wizard.key.remove')}
          </Button>
        )}
      </div>
      {managed.warning && <p className="small warning-text">{managed.warning}</p>}
    </div>
  );
}

/** A custom server's address and key name, remembered with the key entered for it (`serve`). */
function SavedServers({
  addresses,
  onUse,
}: {
  addresses: Record<string, string>;
  onUse: (env: string, url: string) => void;
}) {
  const { t } = useTranslation();
  const saved = Object.entries(addresses);
  if (!saved.length) return null;
  return (
    <div className="key-saved" data-testid="saved-servers">
      <span className="small muted">{t('wizard.key.savedServers')}</span>{' '}
      {saved.map(([env, url]) => (
        <Button
          key={env}
          className="btn btn--small btn--ghost"
          testId="use-saved-server"
          onClick={() => onUse(env, url)}
        >
          {t('wizard.key.useSaved', { url, env })}
        </Button>
      ))}
    </div>
  );
}

/**
 * One provider's settings. `step` is the wizard step it is shown on (its errors show there);
 * `model` is what "Test connection" asks for when no judge uses this provider (a transformer…).
 */
export function ProviderCard({
  name,
  step,
  model: ownModel,
}: {
  name: PresetId;
  step: string;
  model?: string;
}) {
  const { t } = useTranslation();
  const draft = useWizard((s) => s.draft.providers[name]) ?? draftFromPreset(name);
  const model = useWizard((s) => s.draft.judges.find((j) => j.provider === name)?.model) ?? ownModel ?? '';
  const update = useWizard((s) => s.updateProvider);
  const door = useAppInfo((s) => s.info?.door);
  const preset = presetOf(name);
  const cfg = providerConfig(draft);
  const configJson = JSON.stringify(cfg);
  const [keyRefresh, setKeyRefresh] = useState(0);
  const [keys, setKeys] = useKeysStatus();
  const keyStatus = useKeyStatus(name, configJson, keyRefresh);
  const [test, setTest] = useState<TestState>({ status: 'idle' });
  const setListed = useListedModels((s) => s.setListed);
  const issues = useStepIssues(step);
  const err = (f: string) => issues.find((i) => i.field === `providers.${name}.${f}`)?.message;
  const errors = {
    baseURL: err('baseURL'),
    apiKeyEnv: err('apiKeyEnv'),
    rpm: err('rpm'),
    tpm: err('tpm'),
    concurrency: err('concurrency'),
    kind: err('kind'),
    tier: err('serviceTier') ?? err('mode'),
  };

  // A result is about the settings it was run with; any change makes it stale.
  const settings = `${configJson}|${model}`;
  const shown: TestState = test.status === 'done' && test.settings !== settings ? { status: 'idle' } : test;

  const runTest = async () => {
    setTest({ status: 'testing' });
    try {
      const r = await getApi().call('providers.testConnection', {
        provider: cfg,
        name,
        model: model.trim() || undefined,
      });
      setTest({ status: 'done', ok: r.ok, message: r.message, settings, batch: r.batch });
      if (r.models?.length) setListed(name, r.models);
      // Remembered with the address it was found at, so the Batch switch follows the server.
      if (r.ok) update(name, { batchAt: r.batch ? batchAddress(draft) : undefined });
    } catch (e) {
      setTest({ status: 'done', ok: false, message: toApiError(e).message, settings });
    }
  };

  const envName = draft.apiKeyEnv.trim();
  const keyText =
    keyStatus === 'set'
      ? t(
          keys?.storage === 'file' && keys.stored.includes(envName)
            ? 'wizard.key.setEntered'
            : 'wizard.key.set',
          {
            env: envName,
          },
        )
      : keyStatus === 'not_needed'
        ? t('wizard.key.notNeeded')
        : keyStatus === 'withheld'
          ? t(keys?.storage === 'file' ? 'wizard.key.withheldWeb' : 'wizard.key.withheld', {
              env: envName,
              variable: baseURLVariable(envName),
            })
          : keyStatus === 'missing'
            ? envName
              ? t(door === 'electron' ? 'wizard.key.missingDesktop' : 'wizard.key.missingWeb', {
                  env: envName,
                })
              : t('wizard.key.missingNoEnv')
            : keyStatus === 'error'
              ? t('wizard.key.unknown')
              : t('wizard.key.checking');

  const addressField = (
    <Field
      label={t('wizard.provider.baseURL')}
      hint={
        name === 'custom'
          ? t('wizard.provider.baseURLCustomHint')
          : preset.local
            ? t('wizard.provider.baseURLLocalHint')
            : t('wizard.provider.baseURLHint')
      }
      error={errors.baseURL}
    >
      <input
        type="url"
        data-testid="provider-baseurl"
        value={draft.baseURL}
        placeholder={
          // A custom server is not OpenAI: the example is a local one, never OpenAI's address.
          name === 'custom'
            ? 'http://localhost:11434/v1'
            : draft.kind === 'anthropic'
              ? 'https://api.anthropic.com'
              : 'https://api.openai.com/v1'
        }
        onChange={(e) => update(name, { baseURL: e.target.value })}
      />
    </Field>
  );

  return (
    <section className="provider-card" data-testid="provider-card" data-provider={name}>
      <header className="provider-card__head">
        <h3 className="provider-card__title">{preset.title}</h3>
        <span className="mono small muted">{name}</span>
        <span
          className={`key-status key-status--${keyStatus ?? 'checking'}`}
          data-testid="key-status"
          data-status={keyStatus ?? 'checking'}
          title={
            keyStatus === 'withheld'
              ? t('wizard.key.rule', { env: envName, variable: baseURLVariable(envName) })
              : undefined
          }
        >
          {keyStatus ? t(`wizard.key.badge.${keyStatus}`) : t('wizard.key.badge.checking')}
        </span>
      </header>
      <p className="provider-card__key small">{keyText}</p>
      {keyStatus === 'withheld' && <KeyScopeLine variable={baseURLVariable(envName)} url={cfg.baseURL} />}
      {keyStatus !== 'not_needed' && (
        <KeyEntry
          envName={envName}
          address={
            (addressIsPrimary(name) || keyStatus === 'withheld') && draft.baseURL.trim()
              ? draft.baseURL.trim()
              : undefined
          }
          managed={keys}
          setManaged={setKeys}
          onSaved={() => setKeyRefresh((n) => n + 1)}
        />
      )}
      {name === 'custom' && !draft.baseURL.trim() && keys?.addresses && (
        <SavedServers
          addresses={keys.addresses}
          onUse={(env, url) => update(name, { baseURL: url, apiKeyEnv: env })}
        />
      )}
      <div className="form-grid">
        {name === 'custom' && (
          <Field label={t('wizard.provider.kind')} hint={t('wizard.provider.kindHint')} error={errors.kind}>
            <select
              data-testid="provider-kind"
              value={draft.kind}
              onChange={(e) => update(name, { kind: e.target.value as 'openai' | 'anthropic' })}
            >
              <option value="openai">{t('wizard.provider.kindOpenai')}</option>
              <option value="anthropic">{t('wizard.provider.kindAnthropic')}</option>
            </select>
          </Field>
        )}
        {addressIsPrimary(name) && addressField}
        {draft.kind !== 'simulated' && (
          <Field
            label={t('wizard.provider.apiKeyEnv')}
            hint={t('wizard.provider.apiKeyEnvHint')}
            error={errors.apiKeyEnv}
          >
            <input
              type="text"
              className="mono"
              data-testid="provider-apikeyenv"
              value={draft.apiKeyEnv}
              spellCheck={false}
              placeholder={preset.local ? t('wizard.provider.apiKeyEnvLocal') : 'MY_API_KEY'}
              onChange={(e) => update(name, { apiKeyEnv: e.target.value })}
            />
          </Field>
        )}
        {tierOffered(draft) && (
          <Field label={t('wizard.provider.tier')} hint={t('wizard.provider.tierHint')} error={errors.tier}>
            <select
              data-testid="provider-tier"
              value={draft.tier ?? 'standard'}
              onChange={(e) => update(name, { tier: e.target.value as ServiceTierChoice })}
            >
              <option value="standard">{t('wizard.provider.tierStandard')}</option>
              <option value="batch">{t('wizard.provider.tierBatch')}</option>
              <option value="flex">{t('wizard.provider.tierFlex')}</option>
            </select>
          </Field>
        )}
      </div>
      <div className="provider-card__test">
        <Button
          className="btn btn--small"
          testId="test-connection"
          disabled={shown.status === 'testing'}
          onClick={() => void runTest()}
        >
          {shown.status === 'testing' ? t('wizard.provider.testing') : t('wizard.provider.test')}
        </Button>
        {shown.status === 'testing' && <span className="spinner" aria-hidden="true" />}
        {shown.status === 'done' && (
          <span
            className={`test-result ${shown.ok ? 'test-result--ok' : 'test-result--fail'}`}
            data-testid="test-connection-result"
            role="status"
          >
            {shown.ok ? '✓ ' : '✕ '}
            {shown.message}
          </span>
        )}
        {shown.status === 'done' && shown.ok && shown.batch !== undefined && draft.kind !== 'simulated' && (
          <span className="small muted" data-testid="test-connection-batch">
            {t(shown.batch ? 'wizard.provider.batchOffered' : 'wizard.provider.batchMissing')}
          </span>
        )}
      </div>
      <details className="disclosure" open={Object.values(errors).some(Boolean) || undefined}>
        <summary>{t('wizard.provider.advanced')}</summary>
        <p className="hint">{t('wizard.provider.limitsHint')}</p>
        <div className="form-grid">
          {!addressIsPrimary(name) && draft.kind !== 'simulated' && addressField}
          <Field label={t('wizard.provider.rpm')} error={errors.rpm}>
            <input
              type="number"
              min={1}
              data-testid="provider-rpm"
              value={draft.rpm}
              placeholder={t('wizard.provider.noLimit')}
              onChange={(e) => update(name, { rpm: e.target.value })}
            />
          </Field>
          <Field label={t('wizard.provider.tpm')} error={errors.tpm}>
            <input
              type="number"
              min={1}
              data-testid="provider-tpm"
              value={draft.tpm}
              placeholder={t('wizard.provider.noLimit')}
              onChange={(e) => update(name, { tpm: e.target.value })}
            />
          </Field>
          <Field label={t('wizard.provider.concurrency')} error={errors.concurrency}>
            <input
              type="number"
              min={1}
              max={1024}
              data-testid="provider-concurrency"
              value={draft.concurrency}
              placeholder={t('wizard.provider.defaultValue')}
              onChange={(e) => update(name, { concurrency: e.target.value })}
            />
          </Field>
          <Field label={t('wizard.provider.structured')} hint={t('wizard.provider.structuredHint')}>
            <select
              value={draft.structuredOutput}
              onChange={(e) =>
                update(name, {
                  structuredOutput: e.target.value as '' | 'json_schema' | 'json_object' | 'text',
                })
              }
            >
              <option value="">{t('wizard.provider.structuredDefault')}</option>
              <option value="json_schema">{t('wizard.provider.structuredSchema')}</option>
              <option value="json_object">{t('wizard.provider.structuredObject')}</option>
              <option value="text">{t('wizard.provider.structuredText')}</option>
            </select>
          </Field>
        </div>
      </details>
    </section>
  );
}
