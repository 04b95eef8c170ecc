/**
 * Publishing an integration: the same call creates it (version 1, with its bot user) or
 * updates it (version + 1). A publish states the whole integration, so a field left out takes its
 * default rather than keeping the previous value. The rules beyond the body's schema live here: icon
 * and preview images must be PNG within their sizes, `configurations` must follow GitBook's JSON
 * Schema subset (checked with ajv), and the name belongs to the organization that first published it.
 */
import Ajv from 'ajv';
import { randomBytes } from 'crypto';
import { imageSize } from 'image-size';
import type { QueryDeepPartialEntity } from 'typeorm';
import { Integration, IntegrationRuntime, IntegrationTarget, IntegrationVisibility } from '../../entities/Integration';
import { IntegrationInstallation } from '../../entities/IntegrationInstallation';
import { Organization } from '../../entities/Organization';
import { User } from '../../entities/User';
import type { Config } from '../../platform/config';
import { Db, insertKeepingValues, isDuplicateKey } from '../../platform/db/transactions';
import type { BlobStore } from '../../platform/storage/blob-store';
import { badRequest, conflict, forbidden, notFound } from '../errors';
import { newId } from '../ids';
import { describeAjvError, firstAjvError } from '../sites/adaptive/json-schema';
import { blobKeysOf, integrationBlobKeys } from './blobs';
import { lockIntegrationByName } from './integrations';
import { withdrawUnpublishedGrants } from './scope-approval';
import { encryptSecrets } from './secrets';

export const ICON_MAX_BYTES = 250 * 1024;
export const PREVIEW_MAX_BYTES = 1024 * 1024;

export interface PublishInput {
  name: string;
  organization: Organization;
  runtime?: IntegrationRuntime;
  /** base64 PNG */
  icon?: string;
  title: string;
  description: string;
  summary?: string;
  /** base64 PNGs */
  previewImages?: string[];
  visibility?: IntegrationVisibility;
  target?: IntegrationTarget;
  scopes: string[];
  categories?: string[];
  blocks?: Array<Record<string, unknown>>;
  contentSources?: Array<Record<string, unknown>>;
  externalLinks?: Array<{ url: string; label: string }>;
  configurations?: Record<string, unknown>;
  script: string;
  secrets?: Record<string, string>;
  /** one header value, or GitBook's object of directives */
  contentSecurityPolicy?: string | Record<string, string>;
}

// ---- configurations: GitBook's IntegrationConfiguration, `{componentId}` or `{properties, required}`

const typeIs = (type: string) => ({ properties: { type: { const: type } } });
/** What a property of a type must not carry (`false`: refused, named by describeNotAllowed). */
const without = (...keys: string[]) => Object.fromEntries(keys.map((k) => [k, false]));

const CONFIGURATION_PROPERTY = {
  type: 'object',
  required: ['type'],
  properties: {
    type: { enum: ['string', 'number', 'boolean', 'button'] },
    title: { type: 'string', maxLength: 50 },
    description: { type: 'string', maxLength: 100 },
    default: true,
    completion_url: { type: 'string', maxLength: 2048 },
    enum: { type: 'array', items: { type: 'string' }, minItems: 1, uniqueItems: true },
    callback_url: { type: 'string', maxLength: 2048 },
    button_text: { type: 'string', maxLength: 100 },
  },
  additionalProperties: false,
  allOf: [
    {
      if: typeIs('string'),
      then: { properties: { default: { type: 'string' }, ...without('callback_url', 'button_text') } },
    },
    {
      if: typeIs('number'),
      then: {
        properties: {
          default: { type: 'number' },
          ...without('completion_url', 'enum', 'callback_url', 'button_text'),
        },
      },
    },
    {
      if: typeIs('boolean'),
      then: {
        properties: {
          default: { type: 'boolean' },
          ...without('completion_url', 'enum', 'callback_url', 'button_text'),
        },
      },
    },
    {
      if: typeIs('button'),
      then: { required: ['callback_url', 'button_text'], properties: without('default', 'completion_url', 'enum') },
    },
  ],
};

/** The JSON Schema of one configuration level in its `{properties, required}` form (also documents the body). */
export const CONFIGURATION_SCHEMA = {
  type: 'object',
  required: ['properties'],
  properties: {
    properties: {
      type: 'object',
      maxProperties: 100,
      propertyNames: { minLength: 1, maxLength: 100 },
      additionalProperties: CONFIGURATION_PROPERTY,
    },
    required: { type: 'array', items: { type: 'string' }, uniqueItems: true },
  },
  additionalProperties: false,
};
/** The `{componentId}` form: a ContentKit component of the integration renders the configuration. */
export const CONFIGURATION_COMPONENT_SCHEMA = {
  type: 'object',
  required: ['componentId'],
  properties: { componentId: { type: 'string', minLength: 1, maxLength: 100 } },
  additionalProperties: false,
};

const ajv = new Ajv({ allErrors: false, strict: true, allowMatchingProperties: true });
const validateSchemaForm = ajv.compile(CONFIGURATION_SCHEMA);
const validateComponentForm = ajv.compile(CONFIGURATION_COMPONENT_SCHEMA);

/** 400 naming the first rule a configuration level breaks, or nothing. */
function checkConfiguration(level: string, value: unknown): void {
  const field = (pointer: string) => `configurations.${level}${pointer.replace(/\//g, '.')}`;
  const isComponent = !!value && typeof value === 'object' && 'componentId' in value;
  const validate = isComponent ? validateComponentForm : validateSchemaForm;
  if (!validate(value)) {
    const error = firstAjvError(validate.errors!);
    // a `false` subschema: a key this property's type does not take
    if (error.keyword === 'false schema')
      throw badRequest(`${field(error.instancePath)}: is not allowed for this type`);
    throw badRequest(describeAjvError(error, field));
  }
  if (isComponent) return;
  const { properties, required = [] } = value as {
    properties: Record<string, { type: string; default?: unknown; enum?: string[] }>;
    required?: string[];
  };
  for (const name of required) {
    if (!(name in properties))
      throw badRequest(`configurations.${level}.required: names "${name}", which is not one of its properties`);
  }
  for (const [name, property] of Object.entries(properties)) {
    if (property.enum && property.default !== undefined && !property.enum.includes(property.default as string)) {
      throw badRequest(`configurations.${level}.properties.${name}.default: must be one of its enum values`);
    }
  }
}

// ---- images

const sizeText = (bytes: number) =>
  bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MB` : `${bytes / 1024} KB`;

function decodePng(field: string, base64: string, maxBytes: number): Buffer {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length > maxBytes) throw badRequest(`${field}: must be at most ${sizeText(maxBytes)}`);
  let type: string | undefined;
  try {
    type = imageSize(bytes).type;
  } catch {
    type = undefined; // not an image, or a truncated one
  }
  if (type !== 'png') throw badRequest(`${field}: must be a PNG image`);
  return bytes;
}

interface Assets {
  script: Buffer;
  icon: Buffer | null;
  previews: Buffer[];
}

/** The body's rules beyond its schema; returns the decoded assets. */
export function checkPublishInput(input: PublishInput): Assets {
  for (const [level, value] of Object.entries(input.configurations ?? {})) checkConfiguration(level, value);
  return {
    script: Buffer.from(input.script, 'utf8'),
    icon: input.icon !== undefined ? decodePng('icon', input.icon, ICON_MAX_BYTES) : null,
    previews: (input.previewImages ?? []).map((image, i) => decodePng(`previewImages.${i}`, image, PREVIEW_MAX_BYTES)),
  };
}

/** The policy as one header value; the object form's directives joined in the order of GitBook's list (vocabulary.ts). */
function policyHeader(policy: PublishInput['contentSecurityPolicy']): string | null {
  if (policy === undefined) return null;
  if (typeof policy === 'string') return policy.trim() || null;
  return (
    Object.entries(policy)
      .map(([directive, value]) => (value.trim() ? `${directive} ${value.trim()}` : directive))
      .join('; ') || null
  );
}

/** The organization named by the body's `organization`: its id, or its hostname (GitBook: "ID or subdomain"); 404 when none. */
export async function publishingOrganization(db: Db, ref: string): Promise<Organization> {
  const organization =
    (await db.findOneBy(Organization, { id: ref })) ??
    (await db.findOneBy(Organization, { hostname: ref.toLowerCase() }));
  if (!organization) throw notFound('organization');
  return organization;
}

/** The user an integration acts as with its tokens: never a member of anything, named after it. */
async function createBotUser(db: Db, integrationId: string, title: string): Promise<User> {
  const user = db.create(User, {
    id: newId(),
    email: `${integrationId}@integrations.invalid`,
    displayName: title,
    photoURL: null,
    createdAt: new Date(),
  });
  await db.insert(User, user);
  return user;
}

async function storeAssets(blobs: BlobStore, integrationId: string, version: number, assets: Assets) {
  const keys = {
    scriptKey: integrationBlobKeys.script(integrationId, version),
    iconKey: assets.icon ? integrationBlobKeys.icon(integrationId, version) : null,
    previewImageKeys: assets.previews.map((_p, i) => integrationBlobKeys.preview(integrationId, version, i)),
  };
  await blobs.put(keys.scriptKey, assets.script, 'text/javascript; charset=utf-8');
  if (assets.icon) await blobs.put(keys.iconKey!, assets.icon, 'image/png');
  await Promise.all(assets.previews.map((bytes, i) => blobs.put(keys.previewImageKeys[i], bytes, 'image/png')));
  return keys;
}

/** What a publish sets: all but the identity, and what only other operations change (dev mode, verification). */
type PublishedFields = Omit<
  Integration,
  | 'id'
  | 'name'
  | 'ownerOrganizationId'
  | 'botUserId'
  | 'verified'
  | 'signingSecret'
  | 'devTunnelUrl'
  | 'devAll'
  | 'createdAt'
  | 'deletedAt'
  | 'rowVersion'
>;

export interface Published {
  integration: Integration;
  /** The previous version's blobs, to remove once the publish has committed. */
  staleBlobKeys: string[];
}

/**
 * Creates or updates the integration named `input.name` for `input.organization` (whose admin the
 * caller must already be: the route decides that). 403 when another organization owns the name; 409
 * while an unpublished integration of that name still has deliveries to finish.
 */
export async function publishIntegration(
  db: Db,
  deps: { blobs: BlobStore; config: Pick<Config, 'integrations'> },
  input: PublishInput,
): Promise<Published> {
  const assets = checkPublishInput(input);
  const existing = await lockIntegrationByName(db, input.name);
  if (existing && existing.ownerOrganizationId !== input.organization.id) {
    throw forbidden(`integrationName: "${input.name}" is published by another organization`);
  }
  if (existing?.deletedAt)
    throw conflict(
      `integrationName: "${input.name}" is being unpublished; publish it again once its last events are delivered`,
    );

  if (existing && (input.visibility ?? 'private') === 'private') await assertInstalledOnlyByOwner(db, existing);

  const id = existing?.id ?? newId();
  const version = (existing?.version ?? 0) + 1;
  const now = new Date();
  const fields: PublishedFields = {
    version,
    runtime: input.runtime ?? 'v1',
    title: input.title,
    description: input.description,
    summary: input.summary ?? '',
    visibility: input.visibility ?? 'private',
    target: input.target ?? 'all',
    scopes: input.scopes,
    categories: input.categories ?? [],
    blocks: input.blocks ?? [],
    contentSources: input.contentSources ?? [],
    externalLinks: input.externalLinks ?? [],
    configurations: input.configurations ?? {},
    contentSecurityPolicy: policyHeader(input.contentSecurityPolicy),
    secretsCiphertext: encryptSecrets(deps.config, id, input.secrets ?? {}),
    ...(await storeAssets(deps.blobs, id, version, assets)),
    updatedAt: now,
  };

  try {
    return await writeRows(db, input, existing, { id, now, fields });
  } catch (err) {
    // nothing will point to this version's blobs; a failure to remove them only leaves them behind
    await Promise.all(blobKeysOf(fields).map((key) => deps.blobs.delete(key).catch(() => undefined)));
    throw err;
  }
}

/**
 * A private integration installs only in its owner organization (docs/decisions/integrations.md): going
 * private while other organizations have it installed is refused, naming how many, rather than taking it
 * away from them unasked. The integration's row is locked, and an install takes its lock too, so no
 * installation slips in between.
 */
async function assertInstalledOnlyByOwner(db: Db, integration: Integration): Promise<void> {
  const others = await db
    .createQueryBuilder(IntegrationInstallation, 'i')
    .where('i.integrationId = :id AND i.organizationId <> :owner', {
      id: integration.id,
      owner: integration.ownerOrganizationId,
    })
    .getCount();
  if (others > 0)
    throw conflict(
      `visibility: "${integration.name}" is installed in ${others} other organization${others === 1 ? '' : 's'}, and a private integration installs only in its own; publish it as "unlisted" to hide it from the catalogue, or unpublish it`,
      { installations: others },
    );
}

/** The integration's row (and its bot user): updated under the lock taken above, or inserted. */
async function writeRows(
  db: Db,
  input: PublishInput,
  existing: Integration | null,
  row: { id: string; now: Date; fields: PublishedFields },
): Promise<Published> {
  const { id, now, fields } = row;
  if (existing) {
    // TypeORM's partial-entity type cannot express the JSON columns' unknown[]
    await db.update(Integration, { id }, fields as QueryDeepPartialEntity<Integration>);
    await withdrawUnpublishedGrants(db, id, fields.scopes);
    await db.update(User, { id: existing.botUserId }, { displayName: input.title });
    return {
      integration: { ...existing, ...fields, rowVersion: existing.rowVersion + 1 },
      staleBlobKeys: blobKeysOf(existing),
    };
  }
  const bot = await createBotUser(db, id, input.title);
  const integration: Integration = {
    id,
    name: input.name,
    ownerOrganizationId: input.organization.id,
    botUserId: bot.id,
    verified: false,
    signingSecret: randomBytes(32).toString('hex'),
    devTunnelUrl: null,
    devAll: false,
    createdAt: now,
    deletedAt: null,
    rowVersion: 1,
    ...fields,
  };
  try {
    await insertKeepingValues(db, Integration, integration);
  } catch (err) {
    if (isDuplicateKey(err))
      throw conflict(`integrationName: "${input.name}" was just published by another request; publish again`);
    throw err;
  }
  return { integration, staleBlobKeys: [] };
}
