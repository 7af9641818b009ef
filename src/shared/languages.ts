/**
 * Languages by BCP 47 primary code: names in English and Chinese, script and text direction. Not a
 * study's own list: a study that translates (its targets, issue 37) and the simulated
 * provider's pseudo-scripts both read it.
 */

export type Script = 'Latn' | 'Arab' | 'Deva' | 'Telu' | 'Hans' | 'Jpan' | 'Cyrl' | 'Beng' | 'Taml';

export interface LanguageInfo {
  code: string;
  en: string;
  zh: string;
  script: Script;
  dir: 'ltr' | 'rtl';
}

const L = (code: string, en: string, zh: string, script: Script, dir: 'ltr' | 'rtl' = 'ltr') => ({
  code,
  en,
  zh,
  script,
  dir,
});

/** The language codes `languages` accepts (and `LS:<code>` for each). */
export const LANGUAGE_CATALOGUE: readonly LanguageInfo[] = [
  L('zh', 'Simplified Chinese', '简体中文', 'Hans'),
  L('ja', 'Japanese', '日语', 'Jpan'),
  L('ar', 'Arabic', '阿拉伯语', 'Arab', 'rtl'),
  L('fa', 'Persian', '波斯语', 'Arab', 'rtl'),
  L('ur', 'Urdu', '乌尔都语', 'Arab', 'rtl'),
  L('hi', 'Hindi', '印地语', 'Deva'),
  L('mr', 'Marathi', '马拉地语', 'Deva'),
  L('ne', 'Nepali', '尼泊尔语', 'Deva'),
  L('te', 'Telugu', '泰卢固语', 'Telu'),
  L('bn', 'Bengali', '孟加拉语', 'Beng'),
  L('ta', 'Tamil', '泰米尔语', 'Taml'),
  L('ru', 'Russian', '俄语', 'Cyrl'),
  L('es', 'Spanish', '西班牙语', 'Latn'),
  L('de', 'German', '德语', 'Latn'),
  L('fr', 'French', '法语', 'Latn'),
  L('pt', 'Portuguese', '葡萄牙语', 'Latn'),
  L('it', 'Italian', '意大利语', 'Latn'),
  L('sw', 'Swahili', '斯瓦希里语', 'Latn'),
  L('id', 'Indonesian', '印度尼西亚语', 'Latn'),
  L('tr', 'Turkish', '土耳其语', 'Latn'),
  L('vi', 'Vietnamese', '越南语', 'Latn'),
];
