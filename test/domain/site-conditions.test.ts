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
  it('lists every problem of a condition', () => {
    expect(
      conditionProblems(schema, 'visitor.claims.a || visitor.claims.org || visitor.claims.plan == "gold"'),
    ).toEqual([
      "visitor.claims.a is not an attribute of the site's adaptive schema",
      'visitor.claims.org is an object: conditions test boolean claims and string claims with an enum',
      '"gold" is not a value of visitor.claims.plan ("free", "pro")',
    ]);
    expect(conditionProblems(schema, 'visitor.claims.unsigned.trial && visitor.claims.plan == null')).toEqual([]);
    expect(conditionProblems(null, 'visitor.claims.isBetaUser')).toEqual([
      "visitor.claims.isBetaUser is not an attribute of the site's adaptive schema",
    ]);
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
