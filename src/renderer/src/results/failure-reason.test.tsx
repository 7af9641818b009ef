// Failure reasons on screen in 中文: the kind is named in Chinese and the engine's own messages
// are translated; a provider's text and anything unknown stay as they came; English is untouched.
import { describe, expect, it } from 'vitest';
import '../i18n';
import { failureReasonText } from './failure-reason';

describe('failure reasons in the UI language', () => {
  it('translates the kind and the engine messages in 中文', () => {
    expect(
      failureReasonText(
        'unparseable: The answer is not a JSON object "pairwise_verdict". (asked 3 times)',
        'zh',
      ),
    ).toBe('回答不可用（不是要求的格式）：回答不是 JSON 对象 "pairwise_verdict"。（共询问 3 次）');
    expect(failureReasonText('unparseable: The answer does not match "score_verdict": score > 5', 'zh')).toBe(
      '回答不可用（不是要求的格式）：回答不符合 "score_verdict"：score > 5',
    );
    expect(failureReasonText('(no reason recorded)', 'zh')).toBe('（未记录原因）');
  });

  it('translates the reason a model is on hold for want of a key (the run page’s paused lanes)', () => {
    expect(
      failureReasonText(
        'No API key for provider "o": the environment variable MOCK_API_KEY is not set.',
        'zh',
      ),
    ).toBe('服务商 "o" 没有 API 密钥：环境变量 MOCK_API_KEY 未设置。');
    expect(
      failureReasonText(
        'auth: No API key for provider "o": set "apiKeyEnv" to the environment variable holding it.',
        'zh',
      ),
    ).toBe('API 密钥被拒绝：服务商 "o" 没有 API 密钥：请把 "apiKeyEnv" 设为保存密钥的环境变量名。');
  });

  it('translates why a key that is set was withheld from a server', () => {
    expect(
      failureReasonText(
        'No API key for provider "p": OPENAI_API_KEY is only sent to the known openai servers or to the server in OPENAI_BASE_URL; to use http://127.0.0.1:9, set OPENAI_BASE_URL=http://127.0.0.1:9/v1 where you start Judge Lab.',
        'zh',
      ),
    ).toBe(
      '服务商 "p" 的密钥未发送：OPENAI_API_KEY 只会发往已知的 openai 服务器或 OPENAI_BASE_URL 指定的服务器；要使用 http://127.0.0.1:9，请在启动 Judge Lab 时设置 OPENAI_BASE_URL=http://127.0.0.1:9/v1。',
    );
  });

  it("keeps a provider's message and unknown prefixes, and leaves English as stored", () => {
    expect(failureReasonText('timeout: Request timed out.', 'zh')).toBe('超时：Request timed out.');
    expect(failureReasonText('HTTP 400: context too long', 'zh')).toBe('HTTP 400: context too long');
    const en = 'unparseable: The answer is not a JSON object "x". (asked 1 times)';
    expect(failureReasonText(en, 'en')).toBe(en);
  });
});
