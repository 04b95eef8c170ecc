/**
 * Template conditions (GET …/adaptive-schema/template-conditions): one per attribute a condition can
 * test, in the condition syntax, ready to paste. A boolean claim suggests `== true`; an enum claim
 * suggests its first value and names the others.
 */
import { attributesOf, isConditionable } from './attributes';
import type { AdaptiveSchema } from './json-schema';

export interface TemplateCondition {
  description: string;
  condition: string;
}

export function templateConditions(schema: AdaptiveSchema | null): TemplateCondition[] {
  const items: TemplateCondition[] = [];
  for (const [path, claim] of attributesOf(schema)) {
    if (!isConditionable(claim)) continue;
    const name = `visitor.claims.${path}`;
    if (claim.type === 'boolean') {
      items.push({ description: `${path} is true: ${claim.description}`, condition: `${name} == true` });
    } else {
      const [first] = claim.enum;
      const values = claim.enum.map((v) => JSON.stringify(v)).join(', ');
      items.push({
        description: `${path} is ${JSON.stringify(first)} (one of ${values}): ${claim.description}`,
        condition: `${name} == ${JSON.stringify(first)}`,
      });
    }
  }
  return items;
}
