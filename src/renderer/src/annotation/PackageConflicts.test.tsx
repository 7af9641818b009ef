// @vitest-environment jsdom
// Issue 40 item 3 in the app: a package whose labels are older than this set's is imported
// without them, and the page lists each kept label beside the package's and offers to take the
// package's anyway (the CLI's import-package --take-package-labels), in English and 中文.
import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type {
  AnnotationSetSummary,
  PackageImport,
  PackageLabelConflict,
} from '../../../shared/annotation/api-types';
import { setApi } from '../api';
import { i18next } from '../i18n';
import { formatDateTime } from '../lib/format';
import { FakeApi } from '../test/fake-api';
import { AnnotationPage } from './AnnotationPage';
import { unmountAndDropApiAfterEach } from '../test/dom';

unmountAndDropApiAfterEach({ backToEnglish: true });

const set = { id: 3, name: 'pilot', itemCount: 10, progress: [] } as unknown as AnnotationSetSummary;
const conflicts: PackageLabelConflict[] = [
  {
    unit: 'item-7',
    annotator: 'ana',
    ours: { value: 'A', skipped: false, time: '2026-12-05T10:00:00Z' },
    package: { value: 'B', skipped: false, time: '2026-12-01T09:00:00Z' },
  },
  {
    unit: 'item-9',
    annotator: 'bo',
    ours: { value: null, skipped: true, time: '2026-12-05T11:00:00Z' },
    package: { value: 'tie', skipped: false, time: null },
  },
];

function api(): FakeApi {
  return new FakeApi({
    'annotation.annotators': () => [],
    'annotation.listSets': () => [],
    'annotation.importPackage': (p): PackageImport => ({
      outcome: 'imported',
      set,
      created: false,
      labels: p.takePackageLabels ? 12 : 10,
      conflicts: p.takePackageLabels ? [] : conflicts,
    }),
  });
}

async function openPackage(): Promise<HTMLElement> {
  render(<AnnotationPage query={{}} onQuery={() => {}} />);
  fireEvent.change(screen.getByTestId('import-package'), {
    target: { files: [new File(['{"package":true}'], 'older.json')] },
  });
  return screen.findByTestId('package-conflicts');
}

describe('importing a package whose labels are older than the set’s', () => {
  it('lists each kept label beside the package’s, and "take" resends the import with takePackageLabels', async () => {
    const fake = api();
    setApi(fake);
    const box = await openPackage();
    expect(screen.getByTestId('annotation-message').textContent).toBe(
      'Merged 10 labels into “pilot”. 2 labels of the package were not taken: this set’s labels of those units are newer (or the package gives no time). They are listed below.',
    );
    const rows = within(box)
      .getAllByRole('row')
      .map((r) => r.textContent);
    expect(rows).toEqual([
      'UnitAnnotatorThis set’s labelThe package’s label',
      `item-7anaA · ${formatDateTime('2026-12-05T10:00:00Z', 'en')}B · ${formatDateTime('2026-12-01T09:00:00Z', 'en')}`,
      `item-9boskipped · ${formatDateTime('2026-12-05T11:00:00Z', 'en')}tie · no time given`,
    ]);
    fireEvent.click(within(box).getByTestId('take-package-labels'));
    expect(await screen.findByText('Took the package’s 2 labels over this set’s in “pilot”.')).toBeTruthy();
    expect(screen.queryByTestId('package-conflicts')).toBeNull();
    const imports = fake.calls.filter((c) => c.method === 'annotation.importPackage').map((c) => c.params);
    expect(imports).toHaveLength(2);
    expect(imports[1]).toEqual({ ...(imports[0] as object), takePackageLabels: true });
  });

  it('"keep" leaves the set’s labels and sends nothing more', async () => {
    const fake = api();
    setApi(fake);
    const box = await openPackage();
    fireEvent.click(within(box).getByText('Keep this set’s labels'));
    expect(screen.queryByTestId('package-conflicts')).toBeNull();
    expect(fake.calls.filter((c) => c.method === 'annotation.importPackage')).toHaveLength(1);
  });

  it('says it in 中文', async () => {
    await i18next.changeLanguage('zh');
    setApi(api());
    const box = await openPackage();
    expect(within(box).getByRole('heading').textContent).toBe('标注包会更改的标签');
    expect(within(box).getByTestId('take-package-labels').textContent).toBe('采用标注包的 2 个标签');
    expect(box.textContent).toContain('已跳过');
    expect(box.textContent).toContain('未注明时间');
  });
});
