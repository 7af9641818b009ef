// The core's refusals in the page's language (namespace 'refusals'; keys: src/shared/refusals.ts).
// English equals the core's message, so the page reads the same as the CLI; the type makes every
// key's translation required. Importing this module registers them.
import type { RefusalKey } from '../../../shared/refusals';
import { BUNDLE_REFUSALS_EN } from '../../../shared/paper/bundle-refusals';
import { i18next } from '../i18n';

export const REFUSALS_NS = 'refusals';

type Texts = Record<RefusalKey, string>;

const en: Texts = {
  ...BUNDLE_REFUSALS_EN,
  'prereg.supersedeNeedsReason':
    '"{{experiment}}" has a locked preregistration (version {{version}}, {{lockedAt}}, SHA-256 {{sha256}}): a lock is never edited; state why a new version supersedes it.',
  'prereg.reasonRequired': 'required to supersede a locked preregistration',
  'prereg.unknownComparison':
    '{{field}}: "{{id}}" is not a comparison of this experiment\'s power plan (have: {{have}})',
  'prereg.notInPowerPlan': 'not a comparison of the power plan',
  'prereg.amendmentRequired':
    'preregistration: "{{experiment}}" has a locked plan (version {{version}}); a changed plan supersedes it only with "amendment" saying why. Nothing was written.',
  'prereg.amendmentRequiredField': 'required to change a locked plan',
  'prereg.unknownKey': 'unknown key {{keys}}',
  'prereg.duplicate': '"{{id}}" twice',
  'prereg.primaryNotConfirmatory': 'must be one of "confirmatory"',
  'prereg.exclusionsMissing': 'state the exclusion rule (e.g. "none")',
  'prereg.stoppingMissing': 'state the stopping rule (e.g. "all planned items")',
  'prereg.planInvalid': '{{field}}: {{detail}}',
  'input.forbiddenKey':
    '{{field}}: is not allowed as a key (it names a JavaScript object internal); remove it',
};

const zh: Texts = {
  'bundle.fileTooLarge': '{{file}}：研究包大小为 {{size}}，超过研究包的上限 {{limit}}',
  'bundle.noEnd': '{{file}}：不是研究包（无法读取的 zip：找不到中央目录的结尾，不是 zip 或文件被截断）',
  'bundle.zip64': '{{file}}：不是研究包（无法读取的 zip：zip64 归档，本应用从不写入）',
  'bundle.multipart': '{{file}}：不是研究包（无法读取的 zip：分卷 zip，只读取单个文件）',
  'bundle.tooManyEntries': '{{file}}：不是研究包（无法读取的 zip：{{count}} 个条目，超过上限 {{limit}}）',
  'bundle.directoryOutside': '{{file}}：不是研究包（无法读取的 zip：中央目录位于文件之外，文件被截断？）',
  'bundle.directoryDamaged':
    '{{file}}：不是研究包（无法读取的 zip：中央目录在第 {{n}} 个条目（共 {{count}} 个）处损坏）',
  'bundle.damaged': '{{file}}：不是研究包（无法读取的 zip：已损坏（{{detail}}））',
  'bundle.nameNotUtf8': '{{file}}：{{entry}}：名称不是有效的 UTF-8',
  'bundle.nameEmpty': '{{file}}：{{entry}}：已拒绝：名称为空',
  'bundle.nameControl': '{{file}}：{{entry}}：已拒绝：名称中含有控制字符',
  'bundle.nameBackslash': '{{file}}：{{entry}}：已拒绝：名称中含有反斜杠（zip 名称使用 "/"）',
  'bundle.nameAbsolute': '{{file}}：{{entry}}：已拒绝：绝对路径名称',
  'bundle.nameClimbs': '{{file}}：{{entry}}：已拒绝：名称中含有 ".."，会跳出研究包',
  'bundle.nameDot': '{{file}}：{{entry}}：已拒绝：名称中有空的或 "." 部分',
  'bundle.nameSelf': '{{file}}：{{entry}}：已拒绝：bundle.json 不能为自己作保',
  'bundle.duplicate': '{{file}}：{{entry}}：在 zip 中出现两次（无法确定以哪一份为准）',
  'bundle.zip64Entry': '{{file}}：{{entry}}：zip64 条目（本应用从不写入）',
  'bundle.encrypted': '{{file}}：{{entry}}：已加密（研究包从不加密）',
  'bundle.method': '{{file}}：{{entry}}：压缩方法 {{method}}；只读取存储（0）和 deflate（8）',
  'bundle.entryTooLarge': '{{file}}：{{entry}}：解压后为 {{size}}，超过单个条目的上限 {{limit}}',
  'bundle.totalTooLarge':
    '{{file}}：{{entry}}：到此条目为止解压后共 {{size}}，超过全部条目合计的上限 {{limit}}',
  'bundle.localDamaged': '{{file}}：{{entry}}：本地文件头缺失或损坏（文件被截断？）',
  'bundle.localName': '{{file}}：{{entry}}：本地文件头写的名称是 "{{name}}"（一个条目有两个名称）',
  'bundle.localMethod': '{{file}}：{{entry}}：本地文件头与中央目录的压缩方法不一致',
  'bundle.dataPastEnd': '{{file}}：{{entry}}：数据超出条目区域的末尾（文件被截断？）',
  'bundle.overlap': '{{file}}：{{entry}}：数据与 "{{other}}" 的数据重叠',
  'bundle.storedSizes': '{{file}}：{{entry}}：未压缩存储，但存储大小与解压大小不同',
  'bundle.inflatesPast': '{{file}}：{{entry}}：解压后超过 zip 为它声明的 {{size}}（已在此停止）',
  'bundle.unreadableData': '{{file}}：{{entry}}：压缩数据无法读取（{{detail}}）',
  'bundle.sizeMismatch': '{{file}}：{{entry}}：解压后为 {{actual}}，而不是 zip 声明的 {{size}}',
  'bundle.crc': '{{file}}：{{entry}}：CRC-32 与数据不符（已损坏）',
  'bundle.folderContent': '{{file}}：{{entry}}：文件夹条目带有内容',
  'bundle.configPath':
    '{{file}}：config.json：{{field}}：按路径指向一个文件；研究包自带其文件（封存在配置中），verify 不会打开研究包之外的任何文件',
  'bundle.configMismatch':
    '{{file}}：config.json：{{field}}：{{inConfig}}，但 bundle.json 写的是 {{inMeta}}：两者描述的不是同一个实验',
  'bundle.simulatedInConfig':
    '{{file}}：config.json：providers：有模拟提供方，但 bundle.json 写的是 simulated: false',
  'bundle.notSimulatedInConfig':
    '{{file}}：config.json：providers：没有模拟提供方，但 bundle.json 写的是 simulated: true',
  'prereg.supersedeNeedsReason':
    '“{{experiment}}”已有锁定的预注册（第 {{version}} 版，{{lockedAt}}，SHA-256 {{sha256}}）：锁定永不修改；请说明新版本为何取代它。',
  'prereg.reasonRequired': '取代已锁定的预注册时必须填写',
  'prereg.unknownComparison': '{{field}}：“{{id}}”不是本实验功效计划中的比较（现有：{{have}}）',
  'prereg.notInPowerPlan': '不是功效计划中的比较',
  'prereg.amendmentRequired':
    'preregistration：“{{experiment}}”已有锁定的计划（第 {{version}} 版）；更改后的计划只有在 "amendment" 说明理由时才能取代它。未写入任何内容。',
  'prereg.amendmentRequiredField': '更改已锁定的计划时必须填写',
  'prereg.unknownKey': '未知的键 {{keys}}',
  'prereg.duplicate': '“{{id}}”重复出现',
  'prereg.primaryNotConfirmatory': '必须是验证性比较之一',
  'prereg.exclusionsMissing': '请说明排除规则（例如“无”）',
  'prereg.stoppingMissing': '请说明停止规则（例如“全部计划条目”）',
  'prereg.planInvalid': '{{field}}：{{detail}}',
  'input.forbiddenKey': '{{field}}：不允许用作键名（它是 JavaScript 对象的内部名称）；请删除它',
};

/** i18next reads a dot as nesting: the flat keys become nested objects. */
function nested(texts: Texts): Record<string, unknown> {
  const out: Record<string, Record<string, string>> = {};
  for (const [key, text] of Object.entries(texts)) {
    const [group, name] = key.split('.');
    (out[group] ??= {})[name] = text;
  }
  return out;
}

export const refusalResources = { en, zh };

i18next.addResourceBundle('en', REFUSALS_NS, nested(en), true, true);
i18next.addResourceBundle('zh', REFUSALS_NS, nested(zh), true, true);
