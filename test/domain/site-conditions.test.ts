/** Conditions of sections and site spaces decided on visitors' claims (domain/sites/adaptive). */
import { visitorSees } from '../../domain/sites/adaptive/evaluate';
import { parseAdaptiveSchema } from '../../domain/sites/adaptive/json-schema';
import { signedClaims, unsignedClaims, visitorClaims } from '../../domain/sites/adaptive/visitor-claims';
import { conditionProblems } from '../../domain/sites/conditions';

const schema = parseAdaptiveSchema({
  type: 'object',
  properties: {
    isBetaUser: { type: 'boolean', description: 'beta' },
    plan: { type: 'string', description: 'plan', enum: ['free', 'pro'] },
    org: {
      type: 'object',
      description: 'org',
      properties: { admin: { type: 'boolean', description: 'admin' } },
      additionalProperties: false,
    },
    unsigned: {
      type: 'object',
      description: 'Unsigned claims of the site visitor.',
      properties: { trial: { type: 'boolean', description: 'trial' } },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
});

describe('visitorSees', () => {
  const claims = visitorClaims({ isBetaUser: true, plan: 'pro', org: { admin: false } }, { trial: true });

  it.each([
    [null, true],
    ['visitor.claims.isBetaUser', true],
    ['!visitor.claims.isBetaUser', false],
    ['visitor.claims.plan == "pro"', true],
    ['visitor.claims.plan === "free"', false],
    ['visitor.claims.plan != "free" && visitor.claims.unsigned.trial', true],
    ['visitor.claims.org.admin || visitor.claims.plan !== "pro"', false],
    ['visitor.claims["org"].admin == false', true],
    ['(visitor.claims.isBetaUser && visitor.claims.org.admin) || visitor.claims.unsigned.trial === true', true],
  ])('%s is %s for a beta pro visitor on trial', (condition, expected) => {
    expect(visitorSees(condition, claims)).toBe(expected);
  });

  it('reads a claim the visitor does not carry as missing: false, and equal to null only', () => {
    const none = visitorClaims({}, {});
    expect(visitorSees('visitor.claims.isBetaUser', none)).toBe(false);
    expect(visitorSees('visitor.claims.isBetaUser == false', none)).toBe(false);
    expect(visitorSees('visitor.claims.plan == null', none)).toBe(true);
    expect(visitorSees('visitor.claims.org.admin != true', none)).toBe(true);
  });

  it('compares strictly: "true" is not true', () => {
    expect(visitorSees('visitor.claims.isBetaUser == true', { isBetaUser: 'true' })).toBe(false);
  });

  it('never reads inherited properties of the claims', () => {
    expect(visitorSees('visitor.claims.constructor', {})).toBe(false);
    expect(visitorSees('visitor.claims.org.toString', { org: {} })).toBe(false);
  });
});

describe('conditionProblems', () => {
  it('lists every problem of a condition; a claim the schema does not declare is none (it reads as absent)', () => {
    expect(
      conditionProblems(schema, 'visitor.claims.a || visitor.claims.org || visitor.claims.plan == "gold"'),
    ).toEqual([
      'visitor.claims.org is an object: conditions test boolean claims and string claims with an enum',
      '"gold" is not a value of visitor.claims.plan ("free", "pro")',
    ]);
    expect(conditionProblems(schema, 'visitor.claims.unsigned.trial && visitor.claims.plan == null')).toEqual([]);
    expect(conditionProblems(null, 'visitor.claims.isBetaUser')).toEqual([]);
    // and a visitor never carries it: the condition is false
    expect(visitorSees('visitor.claims.a', {})).toBe(false);
  });
});

describe('visitor claims', () => {
  it('keeps the declared signed claims, checked, and drops the others', () => {
    expect(
      signedClaims(schema, {
        isBetaUser: true,
        iat: 1,
        sub: 'u',
        unsigned: { trial: true },
        org: { admin: true, extra: 1 },
      }),
    ).toEqual({ isBetaUser: true, org: { admin: true } });
    expect(() => signedClaims(schema, { plan: 'gold' })).toThrow('visitorAuthToken/plan: must be one of free, pro');
    expect(signedClaims(null, { isBetaUser: true })).toEqual({});
  });

  it('reads unsigned claims from visitor.<name> parameters, coerced to their declared type', () => {
    expect(unsignedClaims(schema, { 'visitor.trial': 'true', other: 'x' })).toEqual({ trial: true });
    expect(unsignedClaims(schema, { other: 'x' })).toEqual({});
    expect(() => unsignedClaims(schema, { 'visitor.trial': 'maybe' })).toThrow('visitor.trial: must be boolean');
    expect(() => unsignedClaims(null, { 'visitor.trial': 'true' })).toThrow('visitor.trial: is not allowed here');
  });
});

describe('bounds of adaptive schemas, visitor claims and conditions', () => {
  const claim = (i: number) => ({ type: 'boolean', description: `claim ${i}` });
  const schemaOf = (properties: Record<string, unknown>) => ({
    type: 'object',
    properties,
    additionalProperties: false,
  });
  /** The status and message a call throws. */
  const refusal = (run: () => unknown) => {
    try {
      run();
    } catch (err) {
      const { status, message } = err as { status?: number; message: string };
      return { status, message };
    }
    return null;
  };

  it('an adaptive schema past its bytes, claims, depth or enum values is a 400 before ajv compiles it', () => {
    const wide = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`c${i}`, claim(i)]));
    expect(refusal(() => parseAdaptiveSchema(schemaOf(wide)))).toEqual({
      status: 400,
      message: 'jsonSchema: must not declare more than 100 claims',
    });
    // 2,000 claims: ajv's compile overflowed the stack (a 500 on every visitor's read)
    const wider = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`c${i}`, claim(i)]));
    expect(refusal(() => parseAdaptiveSchema(schemaOf(wider)))).toEqual({
      status: 400,
      message: 'jsonSchema: must be at most 65536 bytes as JSON',
    });
    let deep: Record<string, unknown> = claim(0);
    for (let i = 0; i < 6; i++)
      deep = { type: 'object', description: 'level', properties: { a: deep }, additionalProperties: false };
    expect(refusal(() => parseAdaptiveSchema(schemaOf({ a: deep })))).toEqual({
      status: 400,
      message: `jsonSchema${'/properties/a'.repeat(6)}: claims must not nest more than 5 levels deep`,
    });
    // an enum of 50,000 values took ajv 37 s to compile
    const values = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `v${from + i}`);
    const enums = {
      plan: { type: 'string', description: 'plan', enum: values(600) },
      tier: { type: 'string', description: 'tier', enum: values(401, 600) },
    };
    expect(refusal(() => parseAdaptiveSchema(schemaOf(enums)))).toEqual({
      status: 400,
      message: 'jsonSchema: must not list more than 1000 enum values in all',
    });
    // at the bounds: taken, and claims are checked against it
    const atBounds = parseAdaptiveSchema(
      schemaOf({
        ...Object.fromEntries(Array.from({ length: 97 }, (_, i) => [`c${i}`, claim(i)])),
        plan: { type: 'string', description: 'plan', enum: values(1000) },
      }),
    );
    expect(signedClaims(atBounds, { c1: true, plan: 'v999' })).toEqual({ c1: true, plan: 'v999' });
  });

  it('visitor claims nested past the bounds are a 400 before they are cloned or split', () => {
    // 4,000 levels in a signed token: structuredClone overflowed the stack (a 500)
    let value: unknown = true;
    for (let i = 0; i < 4000; i++) value = [value];
    expect(refusal(() => signedClaims(schema, { org: value, sub: value }))).toEqual({
      status: 400,
      message: 'visitorAuthToken/org: must not nest more than 6 levels',
    });
    // an undeclared claim is dropped unread, however deep
    expect(signedClaims(schema, { isBetaUser: true, sub: value })).toEqual({ isBetaUser: true });
    // a 16 KB parameter name: split level by level, it took 400 ms
    expect(refusal(() => unsignedClaims(schema, { [`visitor.${'a.'.repeat(8000)}a`]: 'true' }))).toEqual({
      status: 400,
      message: 'visitor.a.a.a.a.a.a…: must not nest more than 5 levels',
    });
    // a schema stored before the bounds, that ajv cannot compile: 409, not a 500
    const stored = schemaOf(Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`c${i}`, claim(i)])));
    expect(refusal(() => signedClaims(stored as never, { c1: true }))).toEqual({
      status: 409,
      message: "jsonSchema: the site's adaptive schema cannot check claims; set it again within its bounds",
    });
  });

  it('a condition at its length limit (1,024 characters) nests at most that deep: parsed, or a 400', () => {
    const claimRead = 'visitor.claims.isBetaUser';
    const parens = `${'('.repeat(499)}${claimRead}${')'.repeat(499)}`;
    const nots = `${'!'.repeat(998)}${claimRead}`; // 1,023 characters, an even count
    expect(conditionProblems(schema, parens)).toEqual([]);
    expect(conditionProblems(schema, nots)).toEqual([]);
    expect(visitorSees(nots, visitorClaims({ isBetaUser: true }, {}))).toBe(true);
    // jsep's own recursion: an unclosed nesting is its parse error
    expect(refusal(() => conditionProblems(schema, '['.repeat(1024)))?.status).toBe(400);
    expect(refusal(() => conditionProblems(schema, '('.repeat(1024)))?.status).toBe(400);
  });
});
