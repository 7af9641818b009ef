import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

function hasFiles(e: DragEvent): boolean {
  return Array.from(e.dataTransfer?.types ?? []).includes('Files');
}

/**
 * Accepts a file dropped anywhere on the window. It also stops the browser from
 * navigating away to show a dropped file, which would lose the app.
 */
export function FileDrop({ onFile, onRejectMany }: { onFile: (f: File) => void; onRejectMany: () => void }) {
  const { t } = useTranslation();
  const [over, setOver] = useState(false);

  useEffect(() => {
    // dragenter/dragleave fire for every child element; count them to know when we truly left.
    let depth = 0;
    const enter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth += 1;
      setOver(true);
    };
    const overHandler = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    };
    const leave = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setOver(false);
    };
    const drop = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth = 0;
      setOver(false);
      const files = Array.from(e.dataTransfer?.files ?? []);
      if (files.length > 1) onRejectMany();
      else if (files[0]) onFile(files[0]);
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragover', overHandler);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragover', overHandler);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, [onFile, onRejectMany]);

  if (!over) return null;
  return (
    <div className="drop-overlay" aria-hidden="true">
      <div className="drop-overlay__card">{t('datasets.dropHere')}</div>
    </div>
  );
}
