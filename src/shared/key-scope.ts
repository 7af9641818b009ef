// The rule a page shows and the core enforces (src/main/providers/key-scope.ts): a key named
// FOO_API_KEY, FOO_KEY or FOO_TOKEN goes to its kind's known servers, or to the one in
// FOO_BASE_URL, which only the person starting Judge Lab can set.

/** FOO_API_KEY, FOO_KEY and FOO_TOKEN may also go to the server named in FOO_BASE_URL. */
export function baseURLVariable(apiKeyEnv: string): string {
  return `${apiKeyEnv.replace(/_(API_KEY|KEY|TOKEN)$/, '')}_BASE_URL`;
}
