// Every protocol's report card words (and the card's own) say the same things in English and
// 中文: the same phrase keys, each template with the same placeholders, a Chinese title.
import { describe, expect, it } from 'vitest';
import { listProtocols } from '../../src/main/protocols';
import type { CardDictionary } from '../../src/shared/report-card/phrases';
import { CARD_TEXT } from '../../src/shared/report-card/text';

const placeholders = (t: string) => [...t.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

function expectParallel(name: string, d: CardDictionary): void {
  expect(Object.keys(d.zh.phrases).sort(), name).toEqual(Object.keys(d.en.phrases).sort());
  for (const [key, en] of Object.entries(d.en.phrases))
    expect(placeholders(d.zh.phrases[key]), `${name} ${key}`).toEqual(placeholders(en));
}

describe('the report card words', () => {
  it('has every protocol with a report card speak both languages, with its title in 中文', () => {
    const withCard = listProtocols().filter((p) => p.reportCard);
    expect(withCard.length).toBeGreaterThanOrEqual(4);
    for (const p of withCard) {
      expectParallel(p.id, p.reportCard!.text);
      expect(p.reportCard!.text.zh.title, p.id).toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it("has the card's own phrases in both languages", () => {
    expectParallel('card', { en: CARD_TEXT.en.words, zh: CARD_TEXT.zh.words });
    expect(Object.keys(CARD_TEXT.zh.runStatuses)).toEqual(Object.keys(CARD_TEXT.en.runStatuses));
  });
});
