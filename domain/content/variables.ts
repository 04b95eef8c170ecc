/**
 * Evaluating a page (`evaluated=true`): the only expressions pages hold are references to the
 * revision's variables, written `{{ variables.NAME }}`. A reference to an unknown variable stays as written.
 */
const REFERENCE = /\{\{\s*variables\.([A-Za-z0-9_-]+)\s*\}\}/g;

export function evaluateVariables(markdown: string, variables: Record<string, string>): string {
  return markdown.replace(REFERENCE, (reference, name: string) =>
    Object.hasOwn(variables, name) ? variables[name] : reference,
  );
}
