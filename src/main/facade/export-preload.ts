// For `judge-lab run`: the export's libraries loaded while the calls are in flight (report/preload.ts).
export { preloadExport } from '../report/preload';
