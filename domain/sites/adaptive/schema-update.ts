/**
 * `PUT …/adaptive-schema`: a new schema for the site's visitor claims. It must follow the rules
 * (json-schema.ts, 400), and every condition already set on the site's sections and site spaces must
 * still hold against it: a schema that removes (or retypes) an attribute a condition reads is a 409
 * listing those conditions, so no condition is ever left naming a claim that no visitor can carry.
 * Runs under the site's lock, as condition writes do, so none slips in between the check and the write.
 */
import { IsNull, Not, QueryDeepPartialEntity } from 'typeorm';
import { Site } from '../../../entities/Site';
import { SiteSection } from '../../../entities/SiteSection';
import { SiteSpace } from '../../../entities/SiteSpace';
import type { Db } from '../../../platform/db/transactions';
import { conflict } from '../../errors';
import { conditionProblems } from '../conditions';
import { AdaptiveSchema, parseAdaptiveSchema } from './json-schema';

export interface BrokenCondition {
  object: 'site-section' | 'site-space';
  id: string;
  condition: string;
  problems: string[];
}

async function conditionsBrokenBy(db: Db, siteId: string, schema: AdaptiveSchema): Promise<BrokenCondition[]> {
  const where = { siteId, condition: Not(IsNull()) };
  const conditioned = [
    ...(await db.find(SiteSection, { where, order: { id: 'ASC' } })).map((row) => ({
      object: 'site-section' as const,
      row,
    })),
    ...(await db.find(SiteSpace, { where, order: { id: 'ASC' } })).map((row) => ({
      object: 'site-space' as const,
      row,
    })),
  ];
  const broken: BrokenCondition[] = [];
  for (const { object, row } of conditioned) {
    const problems = conditionProblems(schema, row.condition!);
    if (problems.length) broken.push({ object, id: row.id, condition: row.condition!, problems });
  }
  return broken;
}

export async function setAdaptiveSchema(db: Db, site: Site, jsonSchema: unknown): Promise<Site> {
  const schema = parseAdaptiveSchema(jsonSchema);
  const broken = await conditionsBrokenBy(db, site.id, schema);
  if (broken.length) {
    const shown = broken.slice(0, 10).map((b) => `${b.object} ${b.id} (${b.condition})`);
    if (broken.length > shown.length) shown.push(`and ${broken.length - shown.length} more`);
    const subject = broken.length === 1 ? 'a condition reads' : `${broken.length} conditions read`;
    throw conflict(
      `jsonSchema: ${subject} attributes this schema declares with a type conditions cannot test: ${shown.join(', ')}`,
      { conditions: broken },
    );
  }
  const now = new Date();
  const changes = {
    adaptiveSchema: schema as unknown as Record<string, unknown>,
    adaptiveSchemaUpdatedAt: now,
    updatedAt: now,
  };
  // TypeORM's partial type does not take a plain object for a json column
  await db.update(Site, { id: site.id }, changes as QueryDeepPartialEntity<Site>);
  return Object.assign(site, changes);
}
