// Which language figures speak: on screen the UI's; in exports the UI's too unless the person
// picks another (the export language option), so a 中文 page exports 中文 figures by default.
import { useTranslation } from 'react-i18next';
import { create } from 'zustand';
import type { FigureLanguage } from '../../../shared/report/figure-i18n';

export function figureLanguageOf(uiLanguage: string | undefined): FigureLanguage {
  return uiLanguage?.startsWith('zh') ? 'zh' : 'en';
}

/** The UI's language, as figures know it. */
export function useFigureLanguage(): FigureLanguage {
  const { i18n } = useTranslation();
  return figureLanguageOf(i18n.language);
}

/** The export language the person chose; null: follow the UI. Kept for the session. */
export const useExportLanguageChoice = create<{
  choice: FigureLanguage | null;
  setChoice: (lang: FigureLanguage | null) => void;
}>((set) => ({ choice: null, setChoice: (choice) => set({ choice }) }));

/** The language exports are made in now. */
export function useExportLanguage(): FigureLanguage {
  const ui = useFigureLanguage();
  return useExportLanguageChoice((s) => s.choice) ?? ui;
}
