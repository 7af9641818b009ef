// Saving a file the core produced (base64) through the browser's own download: works the same
// in Electron and in the local web app, and never needs file-system access in the renderer.

export function base64ToBytes(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function downloadBase64(file: { fileName: string; mime: string; contentBase64: string }): void {
  const blob = new Blob([base64ToBytes(file.contentBase64)], { type: file.mime });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = file.fileName;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Revoked on the next task: the download has taken its own reference by then.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Saves text the core wrote (UTF-8) as a download, like downloadBase64. */
export function downloadText(fileName: string, mime: string, text: string): void {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  downloadBase64({ fileName, mime: `${mime};charset=utf-8`, contentBase64: btoa(binary) });
}
