import { useTranslation } from 'react-i18next';

/** Model and dataset text: always a text node, shown with its own line breaks. */
export function TextBlock({ text, testId }: { text: string; testId: string }) {
  const { t } = useTranslation();
  return (
    // dir="auto": Arabic questions and answers read right to left.
    <div className={`text text-block${text ? '' : ' text-block--empty'}`} data-testid={testId} dir="auto">
      {text || t('item.empty')}
    </div>
  );
}
