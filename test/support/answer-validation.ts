/**
 * Every 2xx JSON answer a test receives is held to the documents: GitBook's 0.137 document (the one our
 * spec was cut from) for the operations GitBook has, our own /v1/openapi.json for all of them, and GitBook's current
 * document (0.202) for the fields it requires. The app's `res.json` is wrapped (test/support/server.ts), so answers
 * read through supertest and through a listening port (GitBook's client) are both seen. A failure names the
 * operation, the document and the JSON pointer, and fails the test that was running (see `failPendingAnswers`).
 */

import Ajv, { _, ErrorObject, ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import standaloneCode from 'ajv/dist/standalone';
import addFormats from 'ajv-formats';
import { createHash } from 'crypto';
import type { Express, Response } from 'express';
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'fs';
import { resolve } from 'path';

type Json = Record<string, any>;

/**
 * 2xx statuses of ours that GitBook's 0.137 document does not list for the operation: validated against our
 * document only. An import or a PDF export still running past the wait (202), a repeated install or a team PUT that
 * replaces (200).
 */
export const STATUSES_GITBOOK_LACKS: Record<string, number[]> = {
  importContent: [202],
  importContentInChangeRequest: [202],
  getSpacePDF: [202],
  getChangeRequestPDF: [202],
  installIntegration: [200],
  installIntegrationOnSpace: [200],
  installIntegrationOnSite: [200],
  putTeam: [200],
};

/**
 * Operations whose answers name content by id where GitBook's 0.137 document embeds whole objects: a link's and a
 * backlink's references (`ContentLocation`) there carry the Organization, the Space, the Revision (its whole page
 * tree) and the RevisionPage or RevisionFile; our contract (spec "Links and backlinks") answers their ids, so a list
 * of links stays the size of its links. Validated against our document only; a decided difference (docs/decisions/wire.md).
 */
export const ANSWERS_BY_ID: ReadonlySet<string> = new Set([
  'listSpaceLinks',
  'listSpacePageLinks',
  'listChangeRequestPageLinks',
  'listChangeRequestLinks',
  'listSpacePageBacklinks',
  'listSpaceFileBacklinks',
  'listChangeRequestPageBacklinks',
  'listChangeRequestFileBacklinks',
]);

/** Values our design adds to a GitBook enum: a translation whose last run failed is `failed` (docs/decisions/translations.md). */
const ENUM_EXTENSIONS: Record<string, string[]> = { TranslationStatus: ['failed'] };

/** Figures of one test file, written where ANSWER_VALIDATION_REPORT names (a JSON line per file) if set. */
export const figures = {
  answers: 0,
  gitbook137: 0,
  ours: 0,
  /** answers held to 0.202's required fields */
  gitbook202: 0,
  /** of those, answers that validate against 0.202 entirely (computed only when ANSWER_VALIDATION_0202 is set) */
  gitbook202Valid: 0,
  gitbook202RequiredMissing: 0,
  gitbook202Other: new Set<string>(),
  /** time spent in the hook (loading the documents, compiling and validating), in ms */
  ms: 0,
};

const pending: string[] = [];

interface Operation {
  operationId: string;
  method: string;
  path: string;
  responses: Json;
}

type Verdict = { valid: true } | { valid: false; errors: ErrorObject[] };

/**
 * A loaded document: its operations by method and path, and a validator per response, compiled when first needed.
 * Validators stop at the first error and share the compiled referenced schemas (`inlineRefs: false`), which keeps
 * the hook's cost low; a failing answer is validated again with every error, to name them.
 */
class Reference {
  private readonly byRoute = new Map<string, Operation>();
  private readonly byId = new Map<string, Operation>();
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly explainers = new Map<string, ValidateFunction>();
  private fast?: Ajv;
  private thorough?: Ajv;
  private prepared?: Json;

  /**
   * `raw` is the document as published (its routes); `prepare` makes the one ajv reads (translated, references
   * under `id`), only when a validator is not in the cache; `hash` names this document and its preparation.
   */
  constructor(
    readonly name: string,
    raw: Json,
    private readonly id: string,
    private readonly hash: string,
    private readonly prepare: () => Json,
    private readonly makeAjv: (options: { allErrors: boolean }) => Ajv,
    pathPrefix: string,
  ) {
    for (const [path, item] of Object.entries<Json>(raw.paths)) {
      for (const [method, operation] of Object.entries<Json>(item)) {
        if (!operation?.operationId) continue;
        const entry = { operationId: operation.operationId, method, path, responses: operation.responses ?? {} };
        this.byRoute.set(routeKey(method, pathPrefix + path), entry);
        this.byId.set(entry.operationId, entry);
      }
    }
  }

  named(operationId: string): Operation | undefined {
    return this.byId.get(operationId);
  }

  all(): Operation[] {
    return [...this.byId.values()];
  }

  operation(method: string, path: string): Operation | undefined {
    return this.byRoute.get(routeKey(method, path));
  }

  /** The answer's verdict; undefined when the document lists no such status, null when it has no JSON schema. */
  check(operation: Operation, status: number, body: unknown): Verdict | null | undefined {
    const response = operation.responses[String(status)];
    if (!response) return undefined;
    const schema = response.content?.['application/json']?.schema;
    if (!schema) return null;
    const key = `${operation.operationId} ${status}`;
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.compiled(false, key, operation, status);
      this.validators.set(key, validate);
    }
    if (validate(body)) return { valid: true };
    let explain = this.explainers.get(key);
    if (!explain) {
      explain = this.compiled(true, key, operation, status);
      this.explainers.set(key, explain);
    }
    explain(body);
    return { valid: false, errors: explain.errors ?? validate.errors ?? [] };
  }

  /**
   * The validator of a schema of the document: its standalone code from the cache when an earlier test file
   * compiled it (the same document, schema and options), else compiled and written there. Compiling GitBook's
   * schemas is most of the hook's cost (a revision's: seconds), and every test file would pay it again.
   */
  private compiled(allErrors: boolean, key: string, operation: Operation, status: number): ValidateFunction {
    const name = createHash('sha256').update(`${this.hash} ${allErrors} ${key}`).digest('hex');
    const file = resolve(CACHE, `${name}.js`);
    if (existsSync(file)) {
      const module = { exports: {} as { default?: ValidateFunction } };
      new Function('module', 'exports', 'require', readFileSync(file, 'utf8'))(module, module.exports, require);
      return (module.exports.default ?? module.exports) as ValidateFunction;
    }
    const ajv = this.instance(allErrors);
    this.prepared ??= this.prepare();
    const response = this.prepared.paths[operation.path][operation.method].responses[String(status)];
    const validate = ajv.compile(response.content['application/json'].schema);
    mkdirSync(CACHE, { recursive: true });
    // written whole, then renamed: another jest worker may read it at any time
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, standaloneCode(ajv, validate));
    renameSync(partial, file);
    return validate;
  }

  /** Every error of a value against one of the document's named schemas (`components.schemas`). */
  schemaErrors(name: string, value: unknown): ErrorObject[] {
    const validate = this.instance(true).getSchema(`${this.id}#/components/schemas/${name}`);
    if (!validate) throw new Error(`${this.name} has no schema ${name}`);
    return validate(value) ? [] : [...(validate.errors ?? [])];
  }

  /** The instance holding the document: one stopping at the first error, one collecting them all. */
  private instance(allErrors: boolean): Ajv {
    const existing = allErrors ? this.thorough : this.fast;
    if (existing) return existing;
    const ajv = this.makeAjv({ allErrors });
    this.prepared ??= this.prepare();
    ajv.addSchema(this.prepared, this.id);
    if (allErrors) this.thorough = ajv;
    else this.fast = ajv;
    return ajv;
  }
}

/** Compiled validators, shared by the test files (git-ignored). */
const CACHE = resolve(__dirname, '../../.data/answer-validation');

/** A route's key, its parameters' names left out (GitBook and we may name them differently). */
function routeKey(method: string, path: string): string {
  return `${method.toLowerCase()} ${path.replace(/\{[^}]+\}/g, '{}')}`;
}

/**
 * GitBook's documents are OpenAPI 3.0: `nullable: true` becomes a null type (an enum gains null; a `$ref` or a
 * composition becomes anyOf [it, null]) and references point into the document registered under `id`.
 */
function translate(node: unknown, id: string): unknown {
  if (Array.isArray(node)) return node.map((item) => translate(item, id));
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#')) out.$ref = `${id}${value}`;
    // GitBook's own formats (emoji, icon) are free strings for us: its client checks neither
    else if (key === 'format' && (value === 'emoji' || value === 'icon')) continue;
    else if (key !== 'nullable' && key !== 'discriminator') out[key] = translate(value, id);
  }
  if ((node as Json).nullable !== true) return out;
  if (typeof out.type === 'string') {
    out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    return out;
  }
  return { anyOf: [out, { type: 'null' }] };
}

/** Options of every instance: compiled code that can be written out (the formats required by name). */
const AJV_OPTIONS = {
  strict: false,
  inlineRefs: false,
  validateSchema: false,
  code: { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` },
} as const;

function newAjv<T extends Ajv>(make: () => T): T {
  const ajv = make();
  addFormats(ajv);
  return ajv;
}

/**
 * The skeleton of a document that only asks for required fields: types, formats and limits dropped, every union an
 * anyOf, enums and constants kept only on the fields that tell a union's options apart (`object`, `type`, `kind`).
 * An answer fails it when it lacks a field the document requires, whatever else differs.
 */
function requiredOnly(node: unknown, key?: string): unknown {
  if (Array.isArray(node)) return node.map((item) => requiredOnly(item));
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [name, value] of Object.entries(node as Json)) {
    if (name === 'properties') out.properties = mapEntries(value, (field, schema) => requiredOnly(schema, field));
    else if (name === 'oneOf' || name === 'anyOf') out.anyOf = requiredOnly(value);
    else if (['items', 'allOf', 'required', '$ref'].includes(name)) out[name] = requiredOnly(value);
    else if ((name === 'enum' || name === 'const') && (key === 'object' || key === 'type' || key === 'kind'))
      out[name] = value;
  }
  return out;
}

/** The document with every schema (components and answers) cut to its required fields. */
function requiredView(document: Json): Json {
  const paths = mapEntries(document.paths, (_path, item) =>
    mapEntries(item, (_method, operation) => {
      if (!(operation as Json)?.responses) return operation;
      const responses = mapEntries((operation as Json).responses, (_status, response) => {
        const schema = (response as Json)?.content?.['application/json']?.schema;
        return schema ? { content: { 'application/json': { schema: requiredOnly(schema) } } } : response;
      });
      return { ...(operation as Json), responses };
    }),
  );
  return { paths, components: { schemas: mapEntries(document.components.schemas, (_name, s) => requiredOnly(s)) } };
}

function mapEntries(value: unknown, map: (key: string, value: unknown) => unknown): Json {
  const out: Json = {};
  for (const [key, inner] of Object.entries((value ?? {}) as Json)) out[key] = map(key, inner);
  return out;
}

interface References {
  gitbook137: Reference;
  /** 0.202 whole: its other differences, information for the report */
  gitbook202: Reference;
  /** 0.202's required fields only (requiredOnly) */
  gitbook202Required: Reference;
  ours: Reference;
}

let references: References | undefined;

/** What the cached validators depend on besides the document: the code that prepares documents for ajv. */
/**
 * GitBook's `oneOf`s whose alternatives overlap, so that no value can match exactly one: a page edit's `attributes`
 * is a page's, a group's or a link's, and none of the three refuses the others' fields. Read as `anyOf`.
 */
const OVERLAPPING_ONE_OF: Record<string, string> = { RevisionSemanticChangePageEdited: 'attributes' };

function overlapsAsAnyOf(document: Json): Json {
  const schemas: Json = { ...document.components.schemas };
  for (const [name, property] of Object.entries(OVERLAPPING_ONE_OF)) {
    const { oneOf, ...rest } = schemas[name].properties[property];
    schemas[name] = {
      ...schemas[name],
      properties: { ...schemas[name].properties, [property]: { ...rest, anyOf: oneOf } },
    };
  }
  return { ...document, components: { ...document.components, schemas } };
}

const PREPARATION = [
  translate,
  overlapsAsAnyOf,
  JSON.stringify(OVERLAPPING_ONE_OF),
  requiredOnly,
  requiredView,
  withCurrentEnums,
  JSON.stringify(ENUM_EXTENSIONS),
  JSON.stringify(AJV_OPTIONS),
].join('\n');

function hashOf(...parts: string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\u0000');
  return hash.digest('hex');
}

/**
 * GitBook 0.137's named enums, each widened with the values 0.202 added to the same enum (an integration scope such
 * as `site:visitor:claims`, the language `zh-tw`): a value a newer client may send and read back is one our answers
 * may carry (answers serve the current document too); and with ENUM_EXTENSIONS. Nothing else of 0.137
 * is loosened.
 */
function withCurrentEnums(document: Json): Json {
  const current = JSON.parse(readFileSync(documentFile('gitbook-api-0202'), 'utf8')).components.schemas as Json;
  const schemas: Json = {};
  for (const [name, schema] of Object.entries<Json>(document.components.schemas)) {
    const newer = [...(current[name]?.enum ?? []), ...(ENUM_EXTENSIONS[name] ?? [])];
    schemas[name] =
      Array.isArray(schema.enum) && newer.length
        ? { ...schema, enum: [...new Set([...schema.enum, ...newer])] }
        : schema;
  }
  return { ...document, components: { ...document.components, schemas } };
}

function documentFile(pkg: string): string {
  return resolve(__dirname, '../../node_modules', pkg, 'spec/openapi.json');
}

function gitbookReference(name: string, pkg: string, view: (document: Json) => Json = (d) => d): Reference {
  const file = documentFile(pkg);
  const id = `${name}.json`;
  const text = readFileSync(file, 'utf8');
  const raw = JSON.parse(text) as Json;
  const make = ({ allErrors }: { allErrors: boolean }) => newAjv(() => new Ajv({ ...AJV_OPTIONS, allErrors }));
  // GitBook's server is https://api.gitbook.com/v1: its paths lack our /v1
  return new Reference(
    name,
    raw,
    id,
    hashOf(name, text, PREPARATION),
    () => view(overlapsAsAnyOf(translate(raw, id) as Json)),
    make,
    '/v1',
  );
}

let oursDocument: Json | undefined;

/** Our document (the app's /v1/openapi.json); the documents are read and prepared at the first answer. */
export function useOurDocument(document: Json): void {
  oursDocument ??= document;
}

function loadReferences(): References | undefined {
  if (references || !oursDocument) return references;
  const id = 'ours.json';
  const text = JSON.stringify(oursDocument);
  const prepare = () => JSON.parse(text.replaceAll('"$ref":"#', `"$ref":"${id}#`)) as Json;
  const make = ({ allErrors }: { allErrors: boolean }) =>
    newAjv(() => new Ajv2020({ ...AJV_OPTIONS, allErrors }) as unknown as Ajv);
  references = {
    ours: new Reference('ours', oursDocument, id, hashOf('ours', text, PREPARATION), prepare, make, ''),
    gitbook137: gitbookReference('gitbook-0.137', '@gitbook/api', withCurrentEnums),
    gitbook202: gitbookReference('gitbook-0.202', 'gitbook-api-0202'),
    gitbook202Required: gitbookReference('gitbook-0.202-required', 'gitbook-api-0202', requiredView),
  };
  return references;
}

/**
 * Wraps the app's `res.end`, so that every JSON answer is checked as it is sent: those of `res.json` and the
 * serialized ones an operation answers as bytes (a page read from the page answer cache).
 */
export function watchAnswers(app: Express): void {
  const end = app.response.end as (this: Response, ...args: unknown[]) => Response;
  app.response.end = function (this: Response, ...args: unknown[]) {
    const [chunk] = args;
    if (
      this.statusCode >= 200 &&
      this.statusCode <= 299 &&
      this.req.operationId &&
      (typeof chunk === 'string' || Buffer.isBuffer(chunk)) &&
      /^application\/json/.test(String(this.getHeader('Content-Type') ?? ''))
    ) {
      const started = performance.now();
      checkAnswer(this.req.operationId, this.req.method, this.statusCode, JSON.parse(chunk.toString()));
      figures.ms += performance.now() - started;
    }
    return end.apply(this, args);
  } as Response['end'];
}

function describeErrors(errors: ErrorObject[] | null | undefined, at = 8): string {
  return (errors ?? [])
    .slice(0, at)
    .map((e) => `  ${e.instancePath || '/'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`)
    .join('\n');
}

/**
 * Holds one answer to the documents. `method` and `operationId` name the operation (ours); `body` is the answer as
 * the client reads it (after JSON serialization).
 */
function checkAnswer(operationId: string, method: string, status: number, body: unknown): void {
  const references = loadReferences();
  if (!references) return;
  const ours = references.ours.named(operationId);
  if (!ours) {
    pending.push(`${operationId}: not in /v1/openapi.json`);
    return;
  }
  figures.answers++;
  const where = `${method.toUpperCase()} ${ours.path} (${operationId}) answered ${status}`;
  const own = references.ours.check(ours, status, body);
  if (own === undefined) pending.push(`${where}: /v1/openapi.json does not list this status`);
  else if (own) {
    figures.ours++;
    if (!own.valid) pending.push(`${where}: does not match /v1/openapi.json\n${describeErrors(own.errors)}`);
  }

  const gitbook = references.gitbook137.operation(method, ours.path);
  if (gitbook && !STATUSES_GITBOOK_LACKS[operationId]?.includes(status) && !ANSWERS_BY_ID.has(operationId)) {
    const verdict = references.gitbook137.check(gitbook, status, body);
    if (verdict === undefined)
      pending.push(`${where}: GitBook 0.137 (${gitbook.operationId}) does not list this status`);
    else if (verdict) {
      figures.gitbook137++;
      if (!verdict.valid)
        pending.push(
          `${where}: does not match GitBook 0.137's ${gitbook.operationId}\n${describeErrors(verdict.errors)}`,
        );
    }
  }

  if (ANSWERS_BY_ID.has(operationId)) return;
  // a missing field that 0.202 requires fails; its other differences are information, gathered for the report
  const skeleton = references.gitbook202Required.operation(method, ours.path);
  const required = skeleton && references.gitbook202Required.check(skeleton, status, body);
  if (!skeleton || !required) return;
  figures.gitbook202++;
  if (!required.valid) {
    figures.gitbook202RequiredMissing++;
    const missing = required.errors.filter((e) => e.keyword === 'required');
    pending.push(
      `${where}: lacks fields GitBook 0.202's ${skeleton.operationId} requires\n${describeErrors(missing.length ? missing : required.errors)}`,
    );
  }
  if (!process.env.ANSWER_VALIDATION_0202) return;
  const current = references.gitbook202.operation(method, ours.path);
  const verdict = current && references.gitbook202.check(current, status, body);
  if (!verdict) return;
  if (verdict.valid) figures.gitbook202Valid++;
  else
    for (const e of verdict.errors)
      figures.gitbook202Other.add(`${current.operationId} ${e.instancePath.replace(/\/\d+/g, '/*')} ${e.message}`);
}

let gitbook137Schemas: Reference | undefined;

/**
 * What a value that is no answer, but GitBook's object all the same (the environment an integration receives with
 * each event), breaks of GitBook 0.137's schema `name` (its enums widened as for answers): '' when it holds.
 */
export function gitbookSchemaErrors(name: string, value: unknown): string {
  gitbook137Schemas ??= gitbookReference('gitbook-0.137', '@gitbook/api', withCurrentEnums);
  return describeErrors(gitbook137Schemas.schemaErrors(name, value), Infinity);
}

/** Our operations that GitBook's 0.137 document has (same method and path): our operationId → GitBook's. */
export function operationsGitBookHas(): Map<string, string> {
  const references = loadReferences();
  if (!references) throw new Error('no server started: the documents are not loaded');
  const shared = new Map<string, string>();
  for (const ours of references.ours.all()) {
    const gitbook = references.gitbook137.operation(ours.method, ours.path);
    if (gitbook) shared.set(ours.operationId, gitbook.operationId);
  }
  return shared;
}

/** Throws the failures found since the last call (in an afterEach: the test that was running fails). */
export function failPendingAnswers(): void {
  if (!pending.length) return;
  const failures = pending.splice(0);
  throw new Error(`answers that do not validate (${failures.length}):\n${failures.join('\n')}`);
}

/** Appends this file's figures to ANSWER_VALIDATION_REPORT, when set. */
export function reportFigures(file: string): void {
  const target = process.env.ANSWER_VALIDATION_REPORT;
  if (!target || !figures.answers) return;
  const { gitbook202Other, ...counts } = figures;
  appendFileSync(target, `${JSON.stringify({ file, ...counts, gitbook202Other: [...gitbook202Other] })}\n`);
}
