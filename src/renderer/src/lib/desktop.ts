// The desktop shell's own calls (preload's window.desktop): a folder picker for "Export all"
// and "Open folder". Absent in a browser (the web door downloads a zip instead).
export interface DesktopBridge {
  chooseFolder(): Promise<string | null>;
  openFolder(path: string): Promise<null>;
}

export function getDesktop(): DesktopBridge | null {
  return (globalThis as { desktop?: DesktopBridge }).desktop ?? null;
}
