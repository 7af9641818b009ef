// The JSON Schema form structured output asks for (OpenAI strict mode, Anthropic tool input):
// every property required, nothing else allowed.

export function strictObject(properties: Record<string, Record<string, unknown>>): Record<string, unknown> {
  return {
    type: 'object',
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  };
}
