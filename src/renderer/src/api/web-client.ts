import type {
  ApiClient,
  ApiEvents,
  Envelope,
  EventName,
  MethodName,
  ParamsOf,
  ResultOf,
} from '../../../shared/api';
import { ApiError, readColumnChoice } from './errors';

const TOKEN_KEY = 'judge-lab.token';
/** What a refused token means for the person at the page, and what to do. */
export const OUTDATED_TOKEN =
  "This page's token is outdated: open the URL printed by judge-lab serve (it carries the current token).";
const MIN_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 15_000;

/** The bits of the WebSocket class the client uses, so tests can pass a fake. */
export interface SocketLike {
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  close(): void;
}

export interface WebClientOptions {
  /** Origin of the web door, e.g. http://127.0.0.1:5173; defaults to the page's own. */
  origin?: string;
  token?: string;
  fetch?: typeof fetch;
  createSocket?: (url: string) => SocketLike;
  /** Called on every connection state change of the event stream. */
  onConnectionChange?: (connected: boolean) => void;
}

/**
 * Finds the access token: the `?token=` of the URL the server printed, remembered in
 * sessionStorage so reloads and in-app navigation keep working after the query is gone.
 */
export function resolveToken(
  search: string = window.location.search,
  storage: Storage | undefined = safeSession(),
): string | null {
  const fromQuery = new URLSearchParams(search).get('token');
  if (fromQuery) {
    storage?.setItem(TOKEN_KEY, fromQuery);
    return fromQuery;
  }
  return storage?.getItem(TOKEN_KEY) ?? null;
}

/**
 * Reads the token, then takes it out of the address bar, so it does not linger in the
 * history, bookmarks, screenshots or a shared screen. Only once sessionStorage holds it:
 * where storage is disabled, the URL is all a reload has.
 */
export function takeToken(
  location: Pick<Location, 'href' | 'search'> = window.location,
  history: Pick<History, 'replaceState' | 'state'> = window.history,
  storage: Storage | undefined = safeSession(),
): string | null {
  const token = resolveToken(location.search, storage);
  const url = new URL(location.href);
  if (token && url.searchParams.has('token') && storage?.getItem(TOKEN_KEY) === token) {
    url.searchParams.delete('token');
    history.replaceState(history.state, '', `${url.pathname}${url.search}${url.hash}`);
  }
  return token;
}

function safeSession(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined; // storage can be disabled by the browser's privacy settings
  }
}

function isEnvelope(v: unknown): v is Envelope<unknown> {
  if (typeof v !== 'object' || v === null || !('ok' in v)) return false;
  const e = v as { ok: unknown; error?: unknown };
  return e.ok === true || (e.ok === false && typeof e.error === 'object' && e.error !== null);
}

type Listener = (payload: unknown) => void;

/** The ApiClient of the browser door: HTTP for calls, one WebSocket for events. */
export class WebClient implements ApiClient {
  private readonly origin: string;
  private readonly token: string;
  private readonly fetchFn: typeof fetch;
  private readonly createSocket: (url: string) => SocketLike;
  private readonly listeners = new Map<EventName, Set<Listener>>();
  private socket: SocketLike | null = null;
  private backoffMs = MIN_BACKOFF_MS;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private everConnected = false;
  private closed = false;

  constructor(private readonly opts: WebClientOptions = {}) {
    this.origin = opts.origin ?? window.location.origin;
    this.token = opts.token ?? takeToken() ?? '';
    this.fetchFn = opts.fetch ?? ((...args) => fetch(...args));
    this.createSocket = opts.createSocket ?? ((url) => new WebSocket(url) as unknown as SocketLike);
  }

  get hasToken(): boolean {
    return this.token !== '';
  }

  async call<M extends MethodName>(
    method: M,
    ...params: ParamsOf<M> extends void ? [] : [ParamsOf<M>]
  ): Promise<ResultOf<M>> {
    const body = params.length > 0 ? { params: params[0] } : {};
    let res: Response;
    try {
      res = await this.fetchFn(`${this.origin}/api/call/${encodeURIComponent(method)}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${this.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    } catch (err) {
      throw new ApiError('network_error', `Could not reach Judge Lab (${(err as Error).message ?? err})`);
    }
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (res.status === 401) {
      // The server was restarted with another token (or the link was cut short).
      throw new ApiError('unauthorized', OUTDATED_TOKEN);
    }
    if (isEnvelope(parsed)) {
      if (parsed.ok) return parsed.result as ResultOf<M>;
      const { code, message, issues, columnChoice } = parsed.error;
      throw new ApiError(code, message, issues ?? [], readColumnChoice(columnChoice));
    }
    if (res.status === 401 || res.status === 403) {
      throw new ApiError('unauthorized', `The server refused the access token (HTTP ${res.status})`);
    }
    const detail = text.trim().slice(0, 200);
    throw new ApiError(
      'http_error',
      `HTTP ${res.status} ${res.statusText}${detail ? `: ${detail}` : ''}`.trim(),
    );
  }

  on<E extends EventName>(event: E, listener: (payload: ApiEvents[E]) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    const l = listener as Listener;
    set.add(l);
    this.ensureSocket();
    return () => {
      set.delete(l);
    };
  }

  /** Stops the event stream for good (tests, page unload). */
  close(): void {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.socket?.close();
    this.socket = null;
  }

  private eventsUrl(): string {
    const url = new URL('/api/events', this.origin);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    url.searchParams.set('token', this.token);
    return url.toString();
  }

  private ensureSocket(): void {
    if (this.socket || this.reconnectTimer || this.closed) return;
    const socket = this.createSocket(this.eventsUrl());
    this.socket = socket;
    socket.onopen = () => {
      const isReconnect = this.everConnected;
      this.everConnected = true;
      this.backoffMs = MIN_BACKOFF_MS;
      this.opts.onConnectionChange?.(true);
      // Events sent while we were away are lost; "something changed" makes views reload.
      if (isReconnect) this.dispatch('datasets.changed', { datasetId: null });
    };
    socket.onmessage = (ev) => {
      if (typeof ev.data !== 'string') return;
      let msg: unknown;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (typeof msg === 'object' && msg !== null && typeof (msg as { event?: unknown }).event === 'string') {
        const m = msg as { event: EventName; payload: unknown };
        this.dispatch(m.event, m.payload);
      }
    };
    socket.onerror = () => {
      // onclose follows and schedules the reconnect.
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.opts.onConnectionChange?.(false);
      if (!this.closed) this.scheduleReconnect();
    };
  }

  private scheduleReconnect(): void {
    const delay = this.backoffMs * (0.75 + Math.random() * 0.5);
    this.backoffMs = Math.min(this.backoffMs * 2, MAX_BACKOFF_MS);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.ensureSocket();
    }, delay);
  }

  private dispatch(event: EventName, payload: unknown): void {
    for (const l of this.listeners.get(event) ?? []) {
      try {
        l(payload);
      } catch (err) {
        console.error(`Listener for ${event} failed`, err);
      }
    }
  }
}

export function createWebClient(opts?: WebClientOptions): WebClient {
  return new WebClient(opts);
}
