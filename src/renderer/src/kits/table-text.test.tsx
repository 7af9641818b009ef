// The table words kit: English is the export's table untouched; in 中文 a study's declared words,
// its captions from the metrics, and the usage table's words without the study declaring them.
import { describe, expect, it } from 'vitest';
import type { Table } from '../../../shared/report/table';
import { studyTableText } from './table-text';

const table = (id: string): Table =>
  ({
    id,
    title: `${id} title`,
    caption: `${id} caption`,
    columns: [
      { key: 'judge', header: 'Judge' },
      { key: 'rate', header: 'Rate' },
    ],
    rows: [],
  }) as unknown as Table;

const words = studyTableText<{ n: number }>({
  titles: { main: '主表' },
  caption: (id, m) => (id === 'main' ? `共 ${m.n} 项` : undefined),
  headers: { judge: '评审模型' },
  cell: (_c, text) => (text === 'yes' ? '是' : text),
});

describe('studyTableText', () => {
  it('leaves every word English on an English screen', () => {
    const text = words(table('main'), { n: 3 }, 'en');
    expect(text).toEqual({ title: 'main title', caption: 'main caption' });
  });

  it('gives the declared 中文 words, the caption from the metrics, and English for what is not declared', () => {
    const text = words(table('main'), { n: 3 }, 'zh-CN');
    expect([text.title, text.caption]).toEqual(['主表', '共 3 项']);
    const [judge, rate] = table('main').columns;
    expect([text.headerText!(judge), text.headerText!(rate)]).toEqual(['评审模型', 'Rate']);
    expect(text.cellText!(judge, {} as never, 'yes')).toBe('是');
    const other = words(table('other'), { n: 3 }, 'zh');
    expect([other.title, other.caption]).toEqual(['other title', 'other caption']);
  });

  it('names the usage table in 中文 without the study declaring it', () => {
    const text = words(table('usage'), { n: 0 }, 'zh');
    expect([text.title, text.caption]).toEqual(['用量与费用', '按模型角色统计的调用、词元和费用。']);
  });
});
