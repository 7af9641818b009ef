// A failed call's reason in the UI's language. The engine stores "<kind>: <message>" in English
// (the exports keep it so); on screen the kind is named in the UI's words and the engine's own
// messages are translated. Anything else (a provider's error text, a model's words) stays as is.
import { i18next } from '../i18n';

/** The engine's failure kinds (src/main/queue/failure-kinds.ts) that have a name on screen. */
const KINDS = new Set([
  'unparseable',
  'rate_limited',
  'quota_exhausted',
  'server',
  'timeout',
  'connection',
  'auth',
  'not_found',
  'bad_request',
  'not_recorded',
  'cancelled',
  'failed',
]);

/** The engine's and the metrics' own English messages, in Chinese. */
const MESSAGES_ZH: [RegExp, string | ((...groups: string[]) => string)][] = [
  [/^The answer is not a JSON object "([^"]+)"\.?/, '回答不是 JSON 对象 "$1"。'],
  [/^The answer does not match "([^"]+)": /, '回答不符合 "$1"：'],
  // src/main/providers/structured.ts: an answer cut off before any whole field.
  [
    /^The answer was cut off at the output limit before any whole field of "([^"]+)"\.?/,
    '回答在输出上限处被截断，"$1" 没有任何完整写出的字段。',
  ],
  // src/main/queue/outcomes.ts: a lane paused after its requests were all rejected.
  [
    /^The last (\d+) requests to (\S+) were all rejected, so its calls are paused before they use up the plan; check the model's name and parameters and the server, then resume\. Last error: /,
    '发往 $2 的最近 $1 个请求全部被拒绝，因此暂停其调用，以免耗尽整个计划；请检查模型名称、参数和服务器，然后恢复。最后的错误：',
  ],
  // src/main/experiments/run-outcome.ts: a finished run whose calls all or mostly failed.
  [
    /^Every call failed \((\d+) of (\d+)\): there are no answers\. /,
    '所有调用均失败（$2 个中 $1 个）：没有任何回答。',
  ],
  [/^Most calls failed \((\d+) of (\d+)\)\. /, '多数调用失败（$2 个中 $1 个）。'],
  [/(没有任何回答。|个）。)Reasons: /, '$1原因：'],
  [
    / Fix the cause, then send the failed calls again \(Retry failed, or judge-lab run --retry-failed\)\.$/,
    ' 排除原因后，再次发送失败的调用（“重试失败的调用”，或 judge-lab run --retry-failed）。',
  ],
  [/ ?\(asked (\d+) times?\)$/, '（共询问 $1 次）'],
  [/^\(no reason recorded\)$/, '（未记录原因）'],
  // src/main/providers/recorded/adapter.ts: a slot the recorded file does not answer.
  [/^no recorded answer in (.+) for (.+)$/, '记录文件 $1 中没有这条回答：$2'],
  [/^stored as ok without a winner$/, '已存为成功，但没有胜者'],
  // src/main/providers/config.ts missingKeyMessage: a lane paused for want of a key.
  [
    /^No API key for provider "([^"]+)": the environment variable (\S+) is not set\.$/,
    '服务商 "$1" 没有 API 密钥：环境变量 $2 未设置。',
  ],
  [
    /^No API key for provider "([^"]+)": set "apiKeyEnv" to the environment variable holding it\.$/,
    '服务商 "$1" 没有 API 密钥：请把 "apiKeyEnv" 设为保存密钥的环境变量名。',
  ],
  // src/main/providers/key-scope.ts keyScopeProblem: a key that is set but may not go there.
  [
    /^No API key for provider "([^"]+)": (\S+) is only sent to the known (\S+) servers or to the server in (\S+?)(?: \(now ([^)]+)\))?; to use (\S+), set (\S+) where you start Judge Lab\.$/,
    (
      _m: string,
      p: string,
      key: string,
      kind: string,
      v: string,
      now: string | undefined,
      to: string,
      set: string,
    ) =>
      `服务商 "${p}" 的密钥未发送：${key} 只会发往已知的 ${kind} 服务器或 ${v} 指定的服务器${now ? `（现为 ${now}）` : ''}；要使用 ${to}，请在启动 Judge Lab 时设置 ${set}。`,
  ],
  // The same for a key entered in the web app with the address it may go to.
  [
    /^No API key for provider "([^"]+)": the key entered in the app for (\S+) is only sent to the known (\S+) servers(?: or to (\S+), the address it was entered with)?; to use (\S+), enter the key again with this server's address\.$/,
    (_m: string, p: string, key: string, kind: string, at: string | undefined, to: string) =>
      `服务商 "${p}" 的密钥未发送：在应用中为 ${key} 输入的密钥只会发往已知的 ${kind} 服务器${at ? `或输入时填写的地址 ${at}` : ''}；要使用 ${to}，请连同这个服务器地址重新输入密钥。`,
  ],
];

export function failureReasonText(reason: string, lang: string): string {
  if (!lang.startsWith('zh')) return reason;
  const m = /^([a-z_]+): ([\s\S]*)$/.exec(reason);
  const kind = m && KINDS.has(m[1]) ? m[1] : null;
  let message = kind ? m![2] : reason;
  for (const [re, zh] of MESSAGES_ZH)
    message = typeof zh === 'string' ? message.replace(re, zh) : message.replace(re, zh);
  if (!kind) return message;
  const name = i18next.t(`run.failures.kinds.${kind}`, { lng: lang });
  return `${name}：${message}`;
}
