// A dataset item as this protocol reads it: a QA item (DatasetKind 'qa').
import type { Item } from '../../../shared/domain';
import { AppError } from '../host';

export interface QaItem {
  id: number;
  sourceId: string;
  question: string;
  answers: string[];
  language: string;
  context: string | null;
  category: string | null;
}

export function qaItem(item: Item): QaItem {
  const x = item.extra;
  const answers = x?.answers;
  const language = x?.language;
  if (!Array.isArray(answers) || answers.length === 0 || typeof language !== 'string')
    throw new AppError(
      'invalid_input',
      `dataset: item "${item.sourceId}" is not a QA item (question, answers, language); ` +
        'reference sensitivity needs a QA dataset such as the bundled TyDi QA sample',
      [{ file: 'config', field: 'dataset', message: 'reference sensitivity needs a QA dataset' }],
    );
  return {
    id: item.id,
    sourceId: item.sourceId,
    question: item.instruction,
    answers: answers.map(String),
    language,
    context: typeof x?.context === 'string' ? x.context : null,
    category: typeof x?.category === 'string' ? x.category : null,
  };
}
