// Strings of the "Apply mapping" panel, merged into the 'annotation' namespace (kept apart from
// i18n.ts so the panel's strings travel with it).
import { i18next } from '../i18n';

const en = {
  applyMapping: {
    title: 'Apply the mapping to another experiment',
    intro:
      'Calibrate another experiment’s scores of the same judge (same protocol, model and rubric; the app checks).',
    judge: 'Judge',
    target: 'Target experiment',
    targetJudge: 'Judge in the target',
    noTargets: 'No other experiment of this protocol has this judge yet.',
    apply: 'Apply mapping',
    applying: 'Applying…',
    done: 'Calibrated {{count}} scores with the {{category}} mapping (mapping {{id}}).',
    shown: 'The first {{shown}} of {{count}}:',
    item: 'Item',
    category: 'Category',
    raw: 'Raw',
    calibrated: 'Calibrated',
    linear: 'Linear',
    perCategory: 'per-category',
    all: 'overall',
  },
};

const zh: typeof en = {
  applyMapping: {
    title: '把映射应用到另一个实验',
    intro: '校准另一个实验中同一评审模型的分数（协议、模型和评分标准须相同；应用会检查）。',
    judge: '评审模型',
    target: '目标实验',
    targetJudge: '目标中的评审模型',
    noTargets: '还没有其他同协议、含此评审模型的实验。',
    apply: '应用映射',
    applying: '应用中…',
    done: '已用{{category}}映射（映射 {{id}}）校准 {{count}} 个分数。',
    shown: '{{count}} 个中的前 {{shown}} 个：',
    item: '条目',
    category: '类别',
    raw: '原始',
    calibrated: '校准后',
    linear: '线性',
    perCategory: '分类别',
    all: '整体',
  },
};

i18next.addResourceBundle('en', 'annotation', en, true, true);
i18next.addResourceBundle('zh', 'annotation', zh, true, true);
