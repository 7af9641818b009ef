// What `judge-lab serve` needs before its first page: the web door and its token, without the
// core (runtime.ts), which is loaded once the server listens (doors/core-when-open.ts).
export { startWebServerKeepingPort } from '../doors/serve-port';
export { defaultTokenFile, loadServeToken } from '../doors/serve-token';
export { coreWhenOpen } from '../doors/core-when-open';
